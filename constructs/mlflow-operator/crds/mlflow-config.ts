import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const DNS1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/**
 * mlflow.kubeflow.org/v1 MLflowConfig: a namespace owner's override of where MLflow stores
 * that namespace's artifacts (a bucket Secret and a path inside it). No status.
 * The rules are ours: upstream has four (one on the object, two on the path, one on the
 * Secret name) whose text the inventory does not give.
 */
export const mlflowConfigCrd: CrdDefinition = {
  group: 'mlflow.kubeflow.org',
  kind: 'MLflowConfig',
  plural: 'mlflowconfigs',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1',
    storage: true,
    schema: s.object({
      spec: s.object({
        artifactRootPath: s.string({ maxLength: 512 })
          .describe('A path relative to the bucket of artifactRootSecret.')
          .rule("!self.startsWith('/')", 'artifactRootPath must be relative to the bucket root (no leading /)')
          .rule("!self.matches('(^|/)[.][.](/|$)')", 'artifactRootPath must not contain .. segments'),
        artifactRootSecret: s.string({ minLength: 1 }).required()
          .describe('A Secret in this namespace with the bucket and its credentials.')
          .rule(`self.matches(r'${DNS1123_SUBDOMAIN}')`, 'artifactRootSecret must be a Secret name (lower-case DNS subdomain)'),
      }).required().named('MLflowConfigSpec'),
    }).rule(`self.metadata.name.matches(r'${DNS1123_SUBDOMAIN}')`, 'the MLflowConfig name must be a lower-case DNS subdomain'),
  }],
};
