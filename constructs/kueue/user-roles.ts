import { Construct } from 'constructs';
import { BATCH_ADMIN, BATCH_USER, UserRole } from './rbac';
import { roleObject } from '../../lib/rbac';

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
      roleObject(this, name, { name: `${prefix}${name}`, rules: [], aggregateFrom: [{ [label]: 'true' }] });
    }
    for (const role of props.roles) roleObject(this, role.name, { name: `${prefix}${role.name}`, labels: role.labels, rules: role.rules });
  }
}
