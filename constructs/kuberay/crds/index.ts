import { rayClusterCrd } from './ray-cluster';
import { rayCronJobCrd } from './ray-cron-job';
import { rayJobCrd } from './ray-job';
import { rayServiceCrd } from './ray-service';
import { CrdDefinition } from '../../../lib/crd';

export { rayClusterCrd, rayJobCrd, rayServiceCrd, rayCronJobCrd };

/** The four ray.io CRDs of KubeRay v1.7.0. */
export const CRDS: CrdDefinition[] = [rayClusterCrd, rayCronJobCrd, rayJobCrd, rayServiceCrd];
