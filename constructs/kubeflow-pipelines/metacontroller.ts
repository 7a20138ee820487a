import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { METACONTROLLER_GROUP } from './crds/metacontroller';
import { Component } from '../../lib/component';
import { istioSidecarLabel } from '../../lib/istio';
import { bindingObject, PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { restrictedContainerSecurityContext, RootFilesystem } from '../../lib/security';
import { workloadObject } from '../../lib/workload';

export interface MetacontrollerProps {
  /** The resolved metacontroller image. */
  readonly image: string;
  /**
   * What its hooks' children need: metacontroller creates, updates and deletes them for the
   * hooks. Upstream grants a fixed list (secrets, configmaps, deployments, services,
   * serviceaccounts, roles, rolebindings, Istio kinds, PVCs, MLflow experiments...); here it
   * is what the hooks of this platform return.
   */
  readonly childRules: PolicyRule[];
}

const NAME = 'metacontroller';
const SERVICE_ACCOUNT = 'meta-controller-service';
const HEALTH_PORT = 8081;

/**
 * Metacontroller as Kubeflow Pipelines' multi-user install ships it: a one-replica
 * StatefulSet (`metacontroller`, ServiceAccount meta-controller-service) that runs the
 * platform's CompositeControllers and DecoratorControllers, with the ClusterRole
 * kubeflow-metacontroller. Its CRDs are the component's (KubeflowPipelines adds them).
 */
export class Metacontroller extends Construct {
  public readonly statefulSet: ApiObject;
  public readonly serviceAccountName = SERVICE_ACCOUNT;

  constructor(scope: Component, id: string, props: MetacontrollerProps) {
    super(scope, id);
    const ns = scope.namespaceName;
    const labels = { app: NAME };
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: SERVICE_ACCOUNT, namespace: ns, labels } });
    roleObject(this, 'ClusterRole', {
      name: 'kubeflow-metacontroller',
      labels,
      rules: [
        // Decorated parents: the namespaces it watches, and their status it reports.
        Rbac.verbs('', ['namespaces'], ['get', 'list', 'watch', 'update']),
        Rbac.verbs('', ['namespaces/status'], ['get', 'list', 'patch', 'update', 'watch']),
        Rbac.read(METACONTROLLER_GROUP, 'compositecontrollers', 'controllerrevisions', 'decoratorcontrollers'),
        Rbac.verbs('', ['events'], ['create', 'patch']),
        ...props.childRules,
      ],
    });
    bindingObject(this, 'ClusterRoleBinding', {
      name: 'meta-controller-cluster-role-binding',
      labels,
      roleRef: { kind: 'ClusterRole', name: 'kubeflow-metacontroller' },
      serviceAccounts: [{ name: SERVICE_ACCOUNT, namespace: ns }],
    });
    const probe = (path: string) => ({ httpGet: { path, port: HEALTH_PORT }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 });
    this.statefulSet = workloadObject(this, 'StatefulSet', {
      kind: 'StatefulSet',
      metadata: { name: NAME, namespace: ns, labels },
      singleReplica: 'it runs without leader election (as upstream does), so several pods would sync the same objects at once',
      spec: {
        replicas: 1,
        serviceName: '',
        selector: { matchLabels: labels },
        template: {
          // As upstream: no sidecar.
          metadata: { labels: { ...labels, ...istioSidecarLabel(false) } },
          spec: {
            serviceAccountName: SERVICE_ACCOUNT,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: NAME,
              image: props.image,
              imagePullPolicy: 'IfNotPresent',
              command: ['/usr/bin/metacontroller'],
              // Upstream's flags; the health endpoints are on metacontroller's default port 8081.
              args: ['--zap-log-level=4', '--discovery-interval=3600s'],
              ports: [{ name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' }],
              livenessProbe: probe('/healthz'),
              readinessProbe: probe('/readyz'),
              resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } },
              securityContext: restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.readOnly(), runAsUser: 1000 }),
            }],
          },
        },
      },
    });
  }
}
