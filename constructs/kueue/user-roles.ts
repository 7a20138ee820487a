import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { BATCH_ADMIN, BATCH_USER, UserRole } from './rbac';
import { checkRules, normalizeRules } from '../../lib/rbac';

export interface KueueUserRolesProps {
  /** Prefix of every role name (upstream's kustomize namePrefix). @default kueue- */
  readonly prefix?: string;
  /** The per-kind editor and viewer roles. */
  readonly roles: UserRole[];
}

/**
 * The roles platform admins grant to people: kueue-batch-admin-role and
 * kueue-batch-user-role, each aggregated (aggregationRule) from the per-kind editor and
 * viewer ClusterRoles that carry its label; viewers also aggregate into Kubernetes'
 * view/edit/admin roles as upstream labels them.
 */
export class KueueUserRoles extends Construct {
  constructor(scope: Construct, id: string, props: KueueUserRolesProps) {
    super(scope, id);
    const prefix = props.prefix ?? 'kueue-';
    for (const [name, label] of [['batch-admin-role', BATCH_ADMIN], ['batch-user-role', BATCH_USER]] as const) {
      new k8s.KubeClusterRole(this, name, {
        metadata: { name: `${prefix}${name}` },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: 'true' } }] },
      });
    }
    for (const role of props.roles) {
      checkRules(`${this.node.path}/${role.name}`, role.rules);
      new k8s.KubeClusterRole(this, role.name, {
        metadata: { name: `${prefix}${role.name}`, labels: role.labels },
        rules: normalizeRules(role.rules).map((r) => ({ apiGroups: r.apiGroups, resources: r.resources, verbs: r.verbs })),
      });
    }
  }
}
