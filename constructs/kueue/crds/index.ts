import { admissionCheckCrd } from './admission-check';
import { clusterQueueCrd } from './cluster-queue';
import { cohortCrd } from './cohort';
import { localQueueCrd } from './local-queue';
import { multiKueueClusterCrd, multiKueueConfigCrd } from './multikueue';
import { provisioningRequestConfigCrd } from './provisioning-request-config';
import { resourceFlavorCrd } from './resource-flavor';
import { topologyCrd } from './topology';
import { workloadCrd } from './workload';
import { workloadPriorityClassCrd } from './workload-priority-class';
import { CrdDefinition } from '../../../lib/crd';

export {
  admissionCheckCrd, clusterQueueCrd, cohortCrd, localQueueCrd, multiKueueClusterCrd, multiKueueConfigCrd,
  provisioningRequestConfigCrd, resourceFlavorCrd, topologyCrd, workloadCrd, workloadPriorityClassCrd,
};

/** The 11 kueue.x-k8s.io CRDs of Kueue v0.19.2. */
export const CRDS: CrdDefinition[] = [
  admissionCheckCrd,
  clusterQueueCrd,
  cohortCrd,
  localQueueCrd,
  multiKueueClusterCrd,
  multiKueueConfigCrd,
  provisioningRequestConfigCrd,
  resourceFlavorCrd,
  topologyCrd,
  workloadPriorityClassCrd,
  workloadCrd,
];
