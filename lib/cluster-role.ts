import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { checkRules, normalizeRules, PolicyRule } from './rbac';

export interface ClusterRoleProps {
  readonly name: string;
  readonly labels?: Record<string, string>;
  /** Rules as intent (Rbac.read / Rbac.manage / Rbac.verbs); normalized and checked (no '*'). */
  readonly rules: PolicyRule[];
  /**
   * Label keys (value "true") whose ClusterRoles this one aggregates; the API server then
   * fills its rules. @default - no aggregation
   */
  readonly aggregateFrom?: string[];
  /** Groups bound to the role by a ClusterRoleBinding of the same name (e.g. system:authenticated). @default - none */
  readonly groups?: string[];
}

/**
 * A ClusterRole for people or other components (user roles, aggregated roles), not for a
 * controller (the Controller makes its own). Emitted as plain rbac.authorization.k8s.io/v1
 * objects: rules keep every PolicyRule field (nonResourceURLs included) as written.
 */
export class ClusterRole extends Construct {
  public readonly name: string;
  public readonly rules: PolicyRule[];

  constructor(scope: Construct, id: string, props: ClusterRoleProps) {
    super(scope, id);
    this.name = props.name;
    this.rules = normalizeRules(props.rules);
    checkRules(this.node.path, this.rules);
    if (!this.rules.length && !props.aggregateFrom?.length) {
      throw new Error(`${this.node.path}: ClusterRole ${props.name} has no rules and aggregates nothing; give it rules or aggregateFrom`);
    }
    new ApiObject(this, 'Resource', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: props.name, labels: props.labels && Object.keys(props.labels).length ? props.labels : undefined },
      rules: this.rules,
      ...(props.aggregateFrom?.length
        ? { aggregationRule: { clusterRoleSelectors: props.aggregateFrom.map((k) => ({ matchLabels: { [k]: 'true' } })) } }
        : {}),
    });
    if (props.groups?.length) {
      new ApiObject(this, 'Binding', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: props.name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: props.name },
        subjects: props.groups.map((g) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: g })),
      });
    }
  }
}
