import { Component } from '../../lib/component';
import { declareMeshAuthentication } from '../../lib/istio';
import { AuthorizationPolicy, AuthorizationRule, INGRESS_GATEWAY_NAMESPACE, NetworkPeer, NetworkPolicy, NetworkPolicyIngressRule, serviceAccountPrincipal } from '../../lib/network-policy';
import { Workload } from '../../lib/workload';
import { PROFILE_NAMESPACE_LABEL } from '../profile-controller/namespace-labels';

/** The namespace of Istio's ingress gateway, admitted to the object store as upstream does. */
const ISTIO_NAMESPACE = INGRESS_GATEWAY_NAMESPACE;
/** The ingress gateway's identity (the UI admits it only). */
const INGRESS_GATEWAY_PRINCIPAL = serviceAccountPrincipal(ISTIO_NAMESPACE, 'istio-ingressgateway-service-account');
/** The header the API server and UI take the user from in multi-user mode. */
const USER_HEADER = 'request.headers[kubeflow-userid]';

export interface PipelinesPoliciesProps {
  /** Multi-user mode: Istio carries the user's identity, and the AuthorizationPolicies guard it. */
  readonly multiUser: boolean;
  /** Whether the profile hook creates per-namespace identities through SeaweedFS's IAM API (port 8111). */
  readonly tenantIdentities: boolean;
}

/**
 * Kubeflow Pipelines' network isolation, as upstream 2.17.0 ships it:
 * - both installs: a NetworkPolicy on the object store (SeaweedFS), admitting its S3 port
 *   from profile namespaces and the pipelines namespace, and every port from Istio's
 *   namespace;
 * - multi-user (Istio): AuthorizationPolicies on the API server (callers without a user
 *   header, or the pipelines' own ServiceAccounts), the UI (the ingress gateway, or requests
 *   with a token and no user header), the visualization server and MySQL (the pipelines'
 *   ServiceAccounts), and open ones on SeaweedFS, the metadata gRPC server and the cache
 *   server. They are required there: without Istio anyone could send the user header.
 *
 * Principals name the ServiceAccounts our workloads run as (so MLMD's is
 * metadata-grpc-deployment, upstream's metadata-grpc-server); workloads the platform leaves
 * out (an external database or object store, the cache off) get no policy and no principal.
 */
/**
 * What reaches the pipelines' pods where the platform isolates their namespace (as
 * kubeflow/manifests v1.11.0's common/networkpolicies, under upstream's names, its typo
 * `metatada-envoy` included): tenant namespaces (runs, notebooks) and the gateway the API
 * server, tenant namespaces MLMD, the gateway the UI and MLMD's Envoy (the UI's lineage
 * view); the API server the cache webhook (its WebhookServer's cache-server policy).
 * Workloads the platform leaves out get none.
 */
function addIsolationPolicies(kfp: Component, workloads: ReadonlyMap<string, Workload>): void {
  const tenants = NetworkPeer.namespacesLabelled(PROFILE_NAMESPACE_LABEL);
  const gateway = NetworkPeer.namespace(ISTIO_NAMESPACE);
  const own = NetworkPeer.podsInOwnNamespace();
  const policies: Array<[string, string, NetworkPolicyIngressRule[]]> = [
    ['metadata-grpc-deployment', 'metadata-grpc-server', [{ from: [tenants, own] }]],
    ['metadata-envoy-deployment', 'metatada-envoy', [{ from: [gateway, own] }]],
    ['ml-pipeline', 'ml-pipeline', [{ from: [tenants, gateway] }]],
    ['ml-pipeline-ui', 'ml-pipeline-ui', [{ from: [gateway] }]],
  ];
  for (const [workload, name, ingress] of policies) {
    const w = workloads.get(workload);
    if (!w) continue;
    new NetworkPolicy(kfp, `IsolationPolicy-${name}`, { name, targets: [w], namespaceIsolation: true, ingress });
  }
}

export function addPipelinesPolicies(kfp: Component, props: PipelinesPoliciesProps): void {
  const ns = kfp.namespaceName;
  const workloads = new Map(kfp.node.findAll().filter((c): c is Workload => c instanceof Workload).map((w) => [w.name, w]));
  const principals = (...names: string[]) => names.flatMap((n) => {
    const w = workloads.get(n);
    return w ? [serviceAccountPrincipal(ns, w.serviceAccountName)] : [];
  });
  // The pipelines' own ServiceAccounts (upstream's list for the API server and the visualization server).
  const pipelineAccounts = ['ml-pipeline', 'ml-pipeline-ui', 'ml-pipeline-persistenceagent', 'ml-pipeline-scheduledworkflow', 'ml-pipeline-viewer-crd', 'cache-server'];

  const seaweedfs = workloads.get('seaweedfs');
  const hook = workloads.get('kubeflow-pipelines-profile-controller');
  if (seaweedfs) {
    const s3 = 8333;
    const iam = 8111;
    new NetworkPolicy(kfp, 'SeaweedfsNetworkPolicy', {
      name: 'seaweedfs',
      targets: [seaweedfs],
      ingress: [
        { from: [NetworkPeer.namespacesLabelled(PROFILE_NAMESPACE_LABEL)], ports: [s3] },
        { from: [NetworkPeer.namespace(ISTIO_NAMESPACE)] },
        { from: [NetworkPeer.podsInOwnNamespace()], ports: [s3] },
        // The profile hook creates each namespace's identity through the IAM API.
        ...(props.tenantIdentities && hook ? [{ from: [NetworkPeer.podsInOwnNamespace(hook.selectorLabels)], ports: [iam] }] : []),
      ],
    });
  }
  addIsolationPolicies(kfp, workloads);
  if (!props.multiUser) return;

  // The API server and the UI take the user from the kubeflow-userid header: only the
  // AuthorizationPolicies below, enforced by the pods' sidecars, keep other callers from
  // setting it (MLP062 holds the platform to that).
  for (const name of ['ml-pipeline', 'ml-pipeline-ui']) {
    const w = workloads.get(name);
    if (w) declareMeshAuthentication(kfp, { target: w, trusts: 'the user named in the kubeflow-userid header' });
  }

  const policy = (id: string, name: string, workload: string, rules: AuthorizationRule[], action?: 'ALLOW') => {
    const w = workloads.get(workload);
    if (!w) return;
    new AuthorizationPolicy(kfp, id, {
      name,
      targets: [w],
      action,
      rules,
      required: true,
      reason: `multi-user Kubeflow Pipelines takes the user from the kubeflow-userid header, which only Istio's AuthorizationPolicy ${name} keeps callers from setting; declare Istio (prerequisites: [ISTIO]) or use multiUser: false`,
    });
  };
  policy('ApiServerAuthorizationPolicy', 'ml-pipeline', 'ml-pipeline', [
    { from: [{ principals: principals(...pipelineAccounts) }] },
    { when: [{ key: USER_HEADER, notValues: ['*'] }] },
  ]);
  policy('UiAuthorizationPolicy', 'ml-pipeline-ui', 'ml-pipeline-ui', [
    { from: [{ principals: [INGRESS_GATEWAY_PRINCIPAL] }] },
    { when: [{ key: 'request.headers[authorization]', values: ['*'] }, { key: USER_HEADER, notValues: ['*'] }] },
  ]);
  policy('VisualizationServerAuthorizationPolicy', 'ml-pipeline-visualizationserver', 'ml-pipeline-visualizationserver', [
    { from: [{ principals: principals(...pipelineAccounts) }] },
  ]);
  policy('MysqlAuthorizationPolicy', 'mysql', 'mysql', [
    { from: [{ principals: principals(...pipelineAccounts, 'metadata-grpc-deployment') }] },
  ]);
  // Upstream's last rule admits every request (pipeline pods in profile namespaces read and
  // write artifacts); the first two name the API server and the UI.
  policy('SeaweedfsAuthorizationPolicy', 'seaweedfs-service', 'seaweedfs', [
    { from: [{ principals: principals('ml-pipeline') }] },
    { from: [{ principals: principals('ml-pipeline-ui') }] },
    {},
  ], 'ALLOW');
  policy('MetadataGrpcAuthorizationPolicy', 'metadata-grpc-service', 'metadata-grpc-deployment', [{}], 'ALLOW');
  policy('CacheServerAuthorizationPolicy', 'service-cache-server', 'cache-server', [{}]);
}
