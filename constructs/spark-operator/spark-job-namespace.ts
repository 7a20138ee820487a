import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { SPARK_DRIVER_RULES } from './rbac';
import { checkRules, normalizeRules } from '../../lib/rbac';

/** Upstream's names for the driver identity in a job namespace. */
export const SPARK_SERVICE_ACCOUNT = 'spark-operator-spark';
const ROLE = 'spark-role';
const ROLE_BINDING = 'spark-role-binding';

export interface SparkJobNamespaceProps {
  /** The namespace where SparkApplications run. */
  readonly namespace: string;
  /**
   * Emit the Namespace object too (for namespaces the platform creates).
   * @default false
   */
  readonly createNamespace?: boolean;
}

/**
 * A namespace the Spark Operator runs applications in: the service account Spark drivers
 * run as (`spark-operator-spark`), and the Role and RoleBinding that let drivers manage
 * their executors, as upstream's chart installs them in each job namespace.
 */
export class SparkJobNamespace extends Construct {
  public readonly namespace: string;
  public readonly serviceAccountName = SPARK_SERVICE_ACCOUNT;

  constructor(scope: Construct, id: string, props: SparkJobNamespaceProps) {
    super(scope, id);
    this.namespace = props.namespace;
    const labels = { 'app.kubernetes.io/name': 'spark-operator', 'app.kubernetes.io/component': 'spark' };
    if (props.createNamespace) new k8s.KubeNamespace(this, 'Namespace', { metadata: { name: props.namespace } });
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: SPARK_SERVICE_ACCOUNT, namespace: props.namespace, labels } });
    const rules = normalizeRules(SPARK_DRIVER_RULES);
    checkRules(this.node.path, rules);
    // Plain object: the rules are our PolicyRule shape, checked against the API schema at synth.
    new ApiObject(this, 'Role', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: ROLE, namespace: props.namespace, labels },
      rules,
    });
    new k8s.KubeRoleBinding(this, 'RoleBinding', {
      metadata: { name: ROLE_BINDING, namespace: props.namespace, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: ROLE },
      subjects: [{ kind: 'ServiceAccount', name: SPARK_SERVICE_ACCOUNT, namespace: props.namespace }],
    });
  }
}
