import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** The condition type of the Open Data Hub platform API (with severity and heartbeat). */
const platformCondition = s.object({
  lastHeartbeatTime: s.dateTime(),
  lastTransitionTime: s.dateTime(),
  message: s.string(),
  observedGeneration: s.int64({ minimum: 0 }),
  reason: s.string(),
  severity: s.string(),
  status: s.enum('True', 'False', 'Unknown').required(),
  type: s.string({ maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }).required(),
});

/** The one name an MLflowOperator may have: Open Data Hub module CRs are singletons. */
export const MLFLOW_OPERATOR_NAME = 'default-mlflowoperator';

/**
 * components.platform.opendatahub.io/v1alpha1 MLflowOperator: the module CR through which the
 * Open Data Hub operator configures the MLflow operator (gateway, dashboard section).
 * Its controller is off by default upstream.
 */
export const mlflowOperatorCrd: CrdDefinition = {
  group: 'components.platform.opendatahub.io',
  kind: 'MLflowOperator',
  plural: 'mlflowoperators',
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
    ],
    schema: s.object({
      spec: s.object({
        gateway: s.object({ domain: s.string() }).describe('The gateway MLflow is exposed through.'),
        gatewayName: s.string(),
        sectionTitle: s.string().describe('The dashboard section MLflow appears under.'),
      }).named('MLflowOperatorSpec'),
      status: s.object({
        conditions: s.array(platformCondition, { listType: 'map', listMapKeys: ['type'] }),
        observedGeneration: s.int64(),
        phase: s.string(),
        releases: s.array(s.object({
          name: s.string().required(),
          repoUrl: s.string(),
          version: s.string(),
        }), { listType: 'map', listMapKeys: ['name'] }),
      }).named('MLflowOperatorStatus'),
    }).rule(`self.metadata.name == '${MLFLOW_OPERATOR_NAME}'`, `MLflowOperator name must be ${MLFLOW_OPERATOR_NAME}`),
  }],
};
