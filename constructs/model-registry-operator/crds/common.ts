import { metav1Condition } from '../../../lib/schema/common';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** Conditions as a plain list (upstream does not key them by type). */
export const conditions = () => s.array(metav1Condition());

/** Compute resources of one operand container (core ResourceRequirements, spelled out upstream). */
export const resources = () => plainCore('V1ResourceRequirements').named('ResourceRequirements');
