import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { SPARK_DRIVER_RULES } from './rbac';
import { bindingObject, roleObject } from '../../lib/rbac';

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
    roleObject(this, 'Role', { name: ROLE, namespace: props.namespace, labels, rules: SPARK_DRIVER_RULES });
    bindingObject(this, 'RoleBinding', {
      name: ROLE_BINDING,
      namespace: props.namespace,
      labels,
      roleRef: { kind: 'Role', name: ROLE },
      serviceAccounts: [{ name: SPARK_SERVICE_ACCOUNT, namespace: props.namespace }],
    });
  }
}
