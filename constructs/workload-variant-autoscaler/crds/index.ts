import { variantAutoscalingCrd } from './variant-autoscaling';
import { CrdDefinition } from '../../../lib/crd';

export * from './variant-autoscaling';

/** The CRD of the Workload Variant Autoscaler v0.5.1. */
export const CRDS: CrdDefinition[] = [variantAutoscalingCrd];
