import { scheduledSparkApplicationCrd } from './scheduled-spark-application';
import { sparkApplicationCrd } from './spark-application';
import { sparkConnectCrd } from './spark-connect';
import { CrdDefinition } from '../../../lib/crd';

export { sparkApplicationCrd, scheduledSparkApplicationCrd, sparkConnectCrd };

/** The three sparkoperator.k8s.io CRDs of Spark Operator v2.5.2. */
export const CRDS: CrdDefinition[] = [scheduledSparkApplicationCrd, sparkApplicationCrd, sparkConnectCrd];
