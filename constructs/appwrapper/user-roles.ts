import { Construct } from 'constructs';
import { APPWRAPPER_ROLE_RULES } from './rbac';
import { PolicyRule, roleObject } from '../../lib/rbac';

/** The built-in ClusterRoles (admin, edit, view) a role aggregates into. */
export type AggregateTo = 'admin' | 'edit' | 'view';

export interface AppWrapperUserRolesProps {
  /** Name of the editor role (aggregated to admin and edit). */
  readonly editorRoleName: string;
  /** Name of the viewer role (aggregated to view). */
  readonly viewerRoleName: string;
  /** Name of a role for batch users, not aggregated. @default - none */
  readonly userRoleName?: string;
  /** Labels on every role. */
  readonly labels?: Record<string, string>;
}

/**
 * The ClusterRoles that let people work with AppWrappers: an editor role aggregated into
 * the built-in admin and edit roles, a viewer role aggregated into view, and optionally a
 * user role to bind explicitly. Shipped by AppWrapper and by the CodeFlare operator.
 */
export class AppWrapperUserRoles extends Construct {
  constructor(scope: Construct, id: string, props: AppWrapperUserRolesProps) {
    super(scope, id);
    this.role('Editor', props.editorRoleName, APPWRAPPER_ROLE_RULES.editor, ['admin', 'edit'], props.labels);
    this.role('Viewer', props.viewerRoleName, APPWRAPPER_ROLE_RULES.viewer, ['view'], props.labels);
    if (props.userRoleName) this.role('User', props.userRoleName, APPWRAPPER_ROLE_RULES.user, [], props.labels);
  }

  private role(id: string, name: string, rules: PolicyRule[], aggregateTo: AggregateTo[], labels: Record<string, string> = {}): void {
    const aggregation = Object.fromEntries(aggregateTo.map((to) => [`rbac.authorization.k8s.io/aggregate-to-${to}`, 'true']));
    roleObject(this, id, { name, labels: { ...labels, ...aggregation }, rules });
  }
}
