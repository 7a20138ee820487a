import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { normalizeRules, PolicyRule, roleObject } from './rbac';

/**
 * ClusterRole aggregation: a role labelled `<domain>/aggregate-to-<target>: "true"` adds its
 * rules to the ClusterRole `<target>`, whose aggregationRule selects that label. Kubeflow
 * uses its own domain for its hierarchy (kubeflow-admin > kubeflow-edit > kubeflow-view,
 * which profile namespaces bind), Kubernetes its own for admin/edit/view.
 */
export const KUBEFLOW_RBAC_DOMAIN = 'rbac.authorization.kubeflow.org';
export const KUBERNETES_RBAC_DOMAIN = 'rbac.authorization.k8s.io';

/** The ClusterRoles every Kubeflow profile namespace binds (owner, default-editor, default-viewer). */
export enum KubeflowRole {
  ADMIN = 'kubeflow-admin',
  EDIT = 'kubeflow-edit',
  VIEW = 'kubeflow-view',
}

const ROLE_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/**
 * The label that aggregates a ClusterRole into `target`. Targets named kubeflow-* use the
 * Kubeflow domain (as every Kubeflow component does); others (admin, edit, view, or a
 * component's own aggregate such as notebooks-admin) use the Kubernetes domain.
 */
export function aggregationLabel(target: string): Record<string, string> {
  if (!ROLE_NAME.test(target) || target.length > 200) {
    throw new Error(`aggregation target '${target}' is not a ClusterRole name (lower-case letters, digits, '-' and '.')`);
  }
  const domain = target.startsWith('kubeflow-') ? KUBEFLOW_RBAC_DOMAIN : KUBERNETES_RBAC_DOMAIN;
  return { [`${domain}/aggregate-to-${target}`]: 'true' };
}

/**
 * Plugs an existing ClusterRole into aggregating roles, e.g.
 * `aggregateTo(role, KubeflowRole.EDIT)` gives every profile's editors its rules.
 */
export function aggregateTo(role: ApiObject, ...targets: string[]): void {
  if (role.kind !== 'ClusterRole') {
    throw new Error(`${role.node.path}: only a ClusterRole can be aggregated (got ${role.kind} ${role.name}); aggregation labels on a ${role.kind} have no effect`);
  }
  for (const t of targets) for (const [k, v] of Object.entries(aggregationLabel(t))) role.metadata.addLabel(k, v);
}

export interface AggregatedClusterRoleProps {
  /** The ClusterRole's name. */
  readonly name: string;
  /** Roles this one is aggregated into (e.g. KubeflowRole.EDIT, 'edit'). @default [] */
  readonly aggregateTo?: string[];
  /**
   * Whether this role is itself an aggregate of the roles labelled for it
   * (`aggregationLabel(name)`); its rules then come from them and `rules` must be empty.
   * @default false
   */
  readonly aggregating?: boolean;
  /**
   * The target name roles label themselves with to join this one (`aggregationLabel(...)`),
   * where it differs from the role's name (upstream installs prefix role names but not labels).
   * @default name
   */
  readonly aggregationTarget?: string;
  /** Its own rules (not with `aggregating`). @default [] */
  readonly rules?: PolicyRule[];
  /** Extra labels. */
  readonly labels?: Record<string, string>;
}

/**
 * A ClusterRole that takes part in aggregation: it aggregates the roles labelled for it,
 * or carries rules, and is labelled into the roles it belongs to. Upstream components ship
 * their user roles this way (kubeflow-notebooks-admin/edit/view, ...).
 */
export class AggregatedClusterRole extends Construct {
  public readonly name: string;
  public readonly apiObject: ApiObject;
  /** The label other roles carry to be aggregated into this one (when aggregating). */
  public readonly selectorLabel?: Record<string, string>;

  constructor(scope: Construct, id: string, props: AggregatedClusterRoleProps) {
    super(scope, id);
    if (!ROLE_NAME.test(props.name)) {
      throw new Error(`${this.node.path}: name '${props.name}' is not a ClusterRole name (lower-case letters, digits, '-' and '.')`);
    }
    const rules = normalizeRules(props.rules ?? []);
    if (props.aggregating && rules.length) {
      throw new Error(`${this.node.path}: ClusterRole ${props.name} aggregates other roles, so the API server replaces its rules; move the ${rules.length} rule(s) to a role aggregated into it (aggregateTo: ['${props.name}'])`);
    }
    if (!props.aggregating && !rules.length) {
      throw new Error(`${this.node.path}: ClusterRole ${props.name} has no rules and aggregates nothing; give it rules or set aggregating: true`);
    }
    if (props.aggregationTarget !== undefined && !props.aggregating) {
      throw new Error(`${this.node.path}: aggregationTarget '${props.aggregationTarget}' applies only to an aggregating role; set aggregating: true or remove it`);
    }
    for (const t of props.aggregateTo ?? []) {
      if (t === (props.aggregationTarget ?? props.name)) throw new Error(`${this.node.path}: ClusterRole ${props.name} cannot be aggregated into itself; remove '${t}' from aggregateTo`);
    }
    this.name = props.name;
    const labels: Record<string, string> = { ...(props.labels ?? {}) };
    for (const t of props.aggregateTo ?? []) Object.assign(labels, aggregationLabel(t));
    this.selectorLabel = props.aggregating ? aggregationLabel(props.aggregationTarget ?? props.name) : undefined;
    this.apiObject = roleObject(this, 'Resource', {
      name: props.name,
      labels,
      rules,
      aggregateFrom: this.selectorLabel ? [this.selectorLabel] : undefined,
    });
  }
}
