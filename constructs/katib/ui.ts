import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { KATIB_GROUP } from './crds';
import { katibLabels, RESTRICTED_POD } from './pod';
import { istioSidecarLabel } from '../../lib/istio';
import { bindingObject, Rbac, roleObject } from '../../lib/rbac';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';

export interface KatibUiProps {
  readonly namespace: string;
  readonly image: string;
  readonly replicas: number;
  /**
   * Serve the UI through this Istio gateway (namespace/name), as kubeflow/manifests'
   * katib-with-kubeflow install: a VirtualService at /katib/, an AuthorizationPolicy
   * admitting only the ingress gateway, a sidecar, and per-user authorization in the UI.
   */
  readonly gateway?: string;
  /** The ingress gateway's principal (with gateway). */
  readonly ingressGatewayPrincipal?: string;
  /** @default cluster.local */
  readonly clusterDomain?: string;
}

/**
 * katib-ui: the web UI (port 8080, Service katib-ui on port 80) with its ServiceAccount and
 * ClusterRole: it lists and edits Experiments, reads Trials and Suggestions, their pods'
 * logs and events, namespaces, and the trial-template ConfigMaps.
 */
export class KatibUi extends Construct {
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;

  constructor(scope: Construct, id: string, props: KatibUiProps) {
    super(scope, id);
    const labels = katibLabels('ui');
    const name = 'katib-ui';
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name, namespace: props.namespace, labels } });
    roleObject(this, 'ClusterRole', {
      name,
      labels,
      rules: [
        Rbac.verbs('', ['configmaps'], ['create', 'delete', 'get', 'list', 'patch', 'update']),
        Rbac.read('', 'namespaces'),
        Rbac.verbs('', ['events'], ['get', 'list', 'watch']),
        // The backend finds a trial's pods by label (a list) and reads their logs: no get or watch on pods.
        Rbac.verbs('', ['pods'], ['list']),
        Rbac.verbs('', ['pods/log'], ['get']),
        Rbac.manage(KATIB_GROUP, 'experiments'),
        Rbac.read(KATIB_GROUP, 'trials', 'suggestions'),
        Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
      ],
    });
    bindingObject(this, 'ClusterRoleBinding', { name, labels, roleRef: { kind: 'ClusterRole', name }, serviceAccounts: [{ name, namespace: props.namespace }] });
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: { name, namespace: props.namespace, labels },
      spec: {
        replicas: props.replicas,
        selector: { matchLabels: labels },
        template: {
          // Behind the gateway the sidecar enforces the AuthorizationPolicy (katib-with-kubeflow); standalone, none.
          metadata: props.gateway ? { labels: { ...labels, ...istioSidecarLabel(true) } } : { labels, annotations: { 'sidecar.istio.io/inject': 'false' } },
          spec: {
            serviceAccountName: name,
            securityContext: RESTRICTED_POD,
            containers: [{
              name,
              image: props.image,
              command: ['./katib-ui'],
              args: ['--port=8080'],
              env: [
                { name: 'KATIB_CORE_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                // Behind the gateway the UI checks each user's access (SubjectAccessReviews as the kubeflow-userid user).
                ...(props.gateway ? [{ name: 'APP_DISABLE_AUTH', value: 'false' }] : []),
              ],
              ports: [{ name: 'ui', containerPort: 8080, protocol: 'TCP' }],
              // Upstream sets no resources: requests only (MLP054), no limits that could throttle or kill it.
              resources: { requests: { cpu: '10m', memory: '64Mi' } },
              securityContext: restrictedContainerSecurityContext({ runAsUser: 1000 }),
            }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: { name, namespace: props.namespace, labels },
      spec: { selector: labels, ports: [{ name: 'ui', port: 80, targetPort: k8s.IntOrString.fromString('ui'), protocol: 'TCP' }] },
    });
    if (props.gateway) {
      new ApiObject(this, 'VirtualService', {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name, namespace: props.namespace, labels },
        spec: {
          gateways: [props.gateway],
          hosts: ['*'],
          http: [{ match: [{ uri: { prefix: '/katib/' } }], rewrite: { uri: '/katib/' }, route: [{ destination: { host: `${name}.${props.namespace}.svc.${props.clusterDomain ?? 'cluster.local'}`, port: { number: 80 } } }] }],
        },
      });
      new ApiObject(this, 'AuthorizationPolicy', {
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: { name, namespace: props.namespace, labels },
        spec: {
          action: 'ALLOW',
          selector: { matchLabels: { 'katib.kubeflow.org/component': 'ui' } },
          rules: [{ from: [{ source: { principals: [props.ingressGatewayPrincipal ?? 'cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }],
        },
      });
    }
  }
}
