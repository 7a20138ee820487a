import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

const configMapRef = () => ({
  configMapName: s.string().required(),
  configMapNamespace: s.string().describe('Defaults to the namespace of the distribution.'),
});

const server = s.object({
  autoscaling: s.object({
    maxReplicas: s.int32().required(),
    minReplicas: s.int32(),
    targetCPUUtilizationPercentage: s.int32(),
    targetMemoryUtilizationPercentage: s.int32(),
  }).describe('A HorizontalPodAutoscaler for the server.'),
  containerSpec: s.object({
    args: s.array(s.string()),
    command: s.array(s.string()),
    env: s.array(core('V1EnvVar')),
    name: s.string().default('llama-stack'),
    port: s.int32(),
    resources: plainCore('V1ResourceRequirements'),
  }).describe('The server container.'),
  distribution: s.object({
    image: s.string().describe('A distribution image.'),
    name: s.string().describe('A distribution the operator knows by name.'),
  }).required().rule('!(has(self.name) && has(self.image))', 'set either distribution.name or distribution.image, not both'),
  podDisruptionBudget: s.object({
    maxUnavailable: s.intOrString(),
    minAvailable: s.intOrString(),
  }),
  podOverrides: s.object({
    serviceAccountName: s.string(),
    terminationGracePeriodSeconds: s.int64(),
    volumeMounts: s.array(plainCore('V1VolumeMount')),
    volumes: s.array(core('V1Volume')),
  }),
  storage: s.object({
    mountPath: s.string(),
    size: s.quantity(),
  }).describe('A PersistentVolumeClaim for the server state.'),
  tlsConfig: s.object({
    caBundle: s.object({
      configMapKeys: s.array(s.string(), { maxItems: 50 }),
      ...configMapRef(),
    }).describe('Extra CA certificates the server trusts.'),
  }),
  topologySpreadConstraints: s.array(core('V1TopologySpreadConstraint')),
  userConfig: s.object(configMapRef()).describe('A ConfigMap holding the run.yaml that replaces the distribution\'s own.'),
  workers: s.int32({ minimum: 1 }),
}).named('ServerSpec');

/**
 * llamastack.io/v1alpha1 LlamaStackDistribution: one Llama Stack server (Deployment,
 * Service, optional storage, network policy and route) of the operator v0.9.0.
 */
export const llamaStackDistributionCrd: CrdDefinition = {
  group: 'llamastack.io',
  kind: 'LlamaStackDistribution',
  plural: 'llamastackdistributions',
  shortNames: ['llsd'],
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'Operator Version', type: 'string', jsonPath: '.status.version.operatorVersion' },
      { name: 'Server Version', type: 'string', jsonPath: '.status.version.llamaStackServerVersion' },
      { name: 'Available', type: 'integer', jsonPath: '.status.availableReplicas' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        network: s.object({
          allowedFrom: s.object({
            labels: s.array(s.string()),
            namespaces: s.array(s.string()),
          }).describe('Namespaces (by name or label) allowed to reach the server.'),
          exposeRoute: s.boolean().default(false),
        }),
        replicas: s.int32().default(1),
        server: server.required(),
      }).required().named('LlamaStackDistributionSpec'),
      status: s.object({
        availableReplicas: s.int32(),
        conditions: s.array(metav1Conditions().items),
        distributionConfig: s.object({
          activeDistribution: s.string(),
          availableDistributions: s.stringMap(),
          providers: s.array(s.object({
            api: s.string().required(),
            config: s.any().required(),
            health: s.object({
              message: s.string().required(),
              status: s.string().required(),
            }).required(),
            provider_id: s.string().required(),
            provider_type: s.string().required(),
          })),
        }),
        phase: s.enum('Pending', 'Initializing', 'Ready', 'Failed', 'Terminating'),
        routeURL: s.string(),
        serviceURL: s.string(),
        version: s.object({
          lastUpdated: s.dateTime(),
          llamaStackServerVersion: s.string(),
          operatorVersion: s.string(),
        }),
      }).named('LlamaStackDistributionStatus'),
    }),
  }],
};
