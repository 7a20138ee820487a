import { Construct } from 'constructs';
import { CrdDefinition } from './crd';
import { Rbac, roleObject } from './rbac';

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
        const name = `${singular}-${role}-role`;
        roleObject(this, name, { name, labels: props.aggregate ? { [AGGREGATE[role]]: 'true' } : undefined, rules: Rbac[role](crd.group, crd.plural) });
        this.roleNames.push(name);
      }
    }
  }
}
