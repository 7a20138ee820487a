import { embeddedService, managedBy, RAY_GROUP } from './common';
import { V1ALPHA1_SCHEMAS_DIFFER } from './ray-cluster';
import { rayClusterSpecV1, rayClusterSpecV1alpha1, rayClusterStatusV1, rayClusterStatusV1alpha1 } from './ray-cluster-spec';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { ObjectSchema, Properties, s } from '../../../lib/schema/dsl';

/** Status of the Serve applications and deployments on one of the service's clusters. */
function serviceStatus(version: 'V1' | 'V1alpha1', clusterStatus: ObjectSchema) {
  const health: Properties = version === 'V1alpha1' ? { healthLastUpdateTime: s.dateTime() } : {};
  const deployment = s.object({ ...health, message: s.string(), status: s.string() }).named(`RayServeDeploymentStatus${version}`);
  const application = s.object({
    ...health,
    message: s.string(),
    serveDeploymentStatuses: s.map(deployment),
    status: s.string(),
  }).named(`RayServeApplicationStatus${version}`);
  const extra: Properties = version === 'V1'
    ? { lastTrafficMigratedTime: s.dateTime(), targetCapacity: s.int32(), trafficRoutedPercent: s.int32() }
    : {};
  return s.object({
    ...extra,
    applicationStatuses: s.map(application),
    rayClusterName: s.string(),
    rayClusterStatus: clusterStatus,
  }).named(`RayServiceClusterStatus${version}`);
}

const printerColumns: PrinterColumn[] = [
  { name: 'service status', type: 'string', jsonPath: '.status.serviceStatus' },
  { name: 'num serve endpoints', type: 'string', jsonPath: '.status.numServeEndpoints' },
];

/** ray.io RayService: Ray Serve applications on a RayCluster, with zero-downtime upgrades. */
export const rayServiceCrd: CrdDefinition = {
  group: RAY_GROUP,
  kind: 'RayService',
  plural: 'rayservices',
  categories: ['all'],
  scope: CrdScope.NAMESPACED,
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.5' },
  conversion: { strategy: 'None', schemasDifferBecause: V1ALPHA1_SCHEMAS_DIFFER },
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: s.object({
        spec: s.object({
          deploymentUnhealthySecondThreshold: s.int32(),
          excludeHeadPodFromServeSvc: s.boolean(),
          managedBy: managedBy(),
          rayClusterConfig: rayClusterSpecV1().required(),
          rayClusterDeletionDelaySeconds: s.int32({ minimum: 0 }),
          serveConfigV2: s.string().describe('The Serve config (YAML) KubeRay applies to the cluster.'),
          serveService: embeddedService(),
          serviceUnhealthySecondThreshold: s.int32(),
          suspend: s.boolean(),
          upgradeStrategy: s.object({
            clusterUpgradeOptions: s.object({
              gatewayClassName: s.string().required(),
              intervalSeconds: s.int32().required(),
              maxSurgePercent: s.int32().default(100),
              stepSizePercent: s.int32().required(),
            }).named('RayClusterUpgradeOptions'),
            // No enum upstream: NewCluster, NewClusterWithIncrementalUpgrade, None.
            type: s.string(),
          }).named('RayServiceUpgradeStrategy'),
        }).named('RayServiceSpec'),
        status: s.object({
          activeServiceStatus: serviceStatus('V1', rayClusterStatusV1()),
          conditions: metav1Conditions(),
          lastUpdateTime: s.dateTime(),
          numServeEndpoints: s.int32(),
          observedGeneration: s.int64(),
          pendingServiceStatus: serviceStatus('V1', rayClusterStatusV1()),
          serviceStatus: s.string(),
        }).named('RayServiceStatuses'),
      }),
      subresources: { status: true },
      printerColumns,
    },
    {
      name: 'v1alpha1',
      storage: false,
      deprecated: true,
      schema: s.object({
        spec: s.object({
          deploymentUnhealthySecondThreshold: s.int32(),
          rayClusterConfig: rayClusterSpecV1alpha1().optional(),
          serveConfigV2: s.string(),
          serveService: embeddedService(),
          serviceUnhealthySecondThreshold: s.int32(),
        }).named('RayServiceSpecV1alpha1'),
        status: s.object({
          activeServiceStatus: serviceStatus('V1alpha1', rayClusterStatusV1alpha1()),
          lastUpdateTime: s.dateTime(),
          observedGeneration: s.int64(),
          pendingServiceStatus: serviceStatus('V1alpha1', rayClusterStatusV1alpha1()),
          serviceStatus: s.string(),
        }).named('RayServiceStatusesV1alpha1'),
      }),
      subresources: { status: true },
    },
  ],
};
