import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CrdDefinition } from './crd';
import { checkRules, normalizeRules, PolicyRule, Rbac } from './rbac';

export interface UserRolesProps {
  /** The kinds to emit roles for. */
  readonly crds: CrdDefinition[];
  /**
   * Label the roles so that Kubernetes aggregates them into the built-in edit and view
   * ClusterRoles.
   * @default false (as kubebuilder scaffolds them)
   */
  readonly aggregate?: boolean;
}

const AGGREGATE = {
  editor: 'rbac.authorization.k8s.io/aggregate-to-edit',
  viewer: 'rbac.authorization.k8s.io/aggregate-to-view',
} as const;

/**
 * The editor and viewer ClusterRoles that kubebuilder projects ship for their kinds
 * (`<kind>-editor-role`, `<kind>-viewer-role`), for platform teams to bind to users.
 */
export class UserRoles extends Construct {
  /** Names of the emitted ClusterRoles, in order. */
  public readonly roleNames: string[] = [];

  constructor(scope: Construct, id: string, props: UserRolesProps) {
    super(scope, id);
    if (!props.crds.length) throw new Error(`${this.node.path}: crds is empty; pass the CRDs users get roles for`);
    for (const crd of props.crds) {
      const singular = crd.singular ?? crd.kind.toLowerCase();
      for (const role of ['editor', 'viewer'] as const) {
        const rules: PolicyRule[] = normalizeRules(Rbac[role](crd.group, crd.plural));
        checkRules(this.node.path, rules);
        const name = `${singular}-${role}-role`;
        // Plain object: the rules are our PolicyRule shape, checked against the API schema at synth.
        new ApiObject(this, name, {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name, labels: props.aggregate ? { [AGGREGATE[role]]: 'true' } : undefined },
          rules,
        });
        this.roleNames.push(name);
      }
    }
  }
}
