import { NAMESPACE_PATTERN } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const AIHUB_GROUP = 'components.platform.opendatahub.io';
/** The one AIHub the module controller reconciles. */
export const AIHUB_NAME = 'default-aihub';

/** An Open Data Hub platform condition (adds severity and heartbeat to metav1.Condition's fields). */
const platformCondition = s.object({
  type: s.string({ maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }).required(),
  status: s.enum('True', 'False', 'Unknown').required(),
  observedGeneration: s.int64({ minimum: 0 }),
  lastTransitionTime: s.dateTime(),
  lastHeartbeatTime: s.dateTime(),
  reason: s.string(),
  message: s.string(),
  severity: s.string(),
}).named('PlatformCondition');

const namespace = () => s.string({ minLength: 1, maxLength: 63, pattern: NAMESPACE_PATTERN });

/**
 * components.platform.opendatahub.io/v1alpha1 AIHub: the Open Data Hub module that installs
 * the model registry operator and catalog; a cluster-scoped singleton.
 */
export const aiHubCrd: CrdDefinition = {
  group: AIHUB_GROUP,
  kind: 'AIHub',
  plural: 'aihubs',
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'AppNamespace', type: 'string', jsonPath: '.spec.applicationNamespace' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        applicationNamespace: namespace().required().describe('Namespace of the operator and catalog.'),
        instancesNamespace: namespace().required().describe('Namespace of the ModelRegistry instances.'),
        gateway: s.object({
          domain: s.string({ maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$' }),
        }).named('AIHubGateway'),
      }).named('AIHubSpec').required(),
      status: s.object({
        phase: s.string(),
        observedGeneration: s.int64(),
        conditions: s.array(platformCondition, { listType: 'atomic' }),
        releases: s.array(s.object({
          name: s.string().required(),
          version: s.string(),
          repoUrl: s.string(),
        }).named('ComponentRelease'), { listType: 'map', listMapKeys: ['name'] }),
      }).named('AIHubStatus'),
    }).rule(`self.metadata.name == '${AIHUB_NAME}'`, `the only accepted name is '${AIHUB_NAME}'`),
  }],
};
