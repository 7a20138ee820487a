import { CERT_MANAGER, Prerequisite } from './component';
import { Gvk } from './crd';

/**
 * Infrastructure a platform may declare present (PlatformProps.prerequisites) instead of
 * including it as a component, with the kinds each serves: objects of those kinds are then
 * accounted for (MLP010), requirements on them resolve (with their versions), and a
 * component's `infrastructure` need of that name is met. A kind is listed once per served
 * version, so that a requirement on a version the infrastructure does not serve fails.
 */

/** Every (group, version, kind) of `kinds` in each of `versions`. */
function served(group: string, versions: string[], kinds: string[]): Gvk[] {
  return kinds.flatMap((kind) => versions.map((version) => ({ group, version, kind })));
}


/**
 * Istio (1.22 or later, when its networking and security APIs reached v1; v1beta1 and,
 * for networking, v1alpha3 are still served). Kubeflow's ingress, authorization and mTLS.
 */
export const ISTIO: Prerequisite = {
  name: 'istio',
  description: 'Istio 1.22 or later (kubeflow/manifests v1.11.0 installs 1.28 with its CNI plugin), installed by its own operator or chart, with its ingress gateway and sidecar injector; ' +
    'namespaces the platform labels istio-injection=enabled get sidecars, which pass Pod Security "restricted" only with the Istio CNI plugin',
  provides: [
    ...served('networking.istio.io', ['v1', 'v1beta1', 'v1alpha3'], ['VirtualService', 'Gateway', 'DestinationRule', 'ServiceEntry', 'Sidecar', 'WorkloadEntry', 'WorkloadGroup']),
    ...served('networking.istio.io', ['v1alpha3'], ['EnvoyFilter']),
    ...served('security.istio.io', ['v1', 'v1beta1'], ['AuthorizationPolicy', 'PeerAuthentication', 'RequestAuthentication']),
    ...served('telemetry.istio.io', ['v1', 'v1alpha1'], ['Telemetry']),
  ],
};

/**
 * Knative Serving (KServe's serverless mode): serving.knative.dev/v1 Services and what they
 * make, plus DomainMapping. It needs a networking layer of its own (Istio via net-istio, or
 * Kourier), which this prerequisite does not imply.
 */
export const KNATIVE_SERVING: Prerequisite = {
  name: 'knative-serving',
  description: 'Knative Serving with a networking layer (net-istio for KServe\'s serverless mode), installed by its own operator or chart',
  provides: [
    ...served('serving.knative.dev', ['v1'], ['Service', 'Configuration', 'Revision', 'Route']),
    ...served('serving.knative.dev', ['v1beta1'], ['DomainMapping']),
    ...served('autoscaling.internal.knative.dev', ['v1alpha1'], ['PodAutoscaler', 'Metric']),
  ],
};

/**
 * Dex, the OIDC identity provider of Kubeflow's authentication. With its Kubernetes
 * storage it serves dex.coreos.com/v1 kinds; a platform may declare static clients and
 * connectors as those.
 */
export const DEX: Prerequisite = {
  name: 'dex',
  provides: served('dex.coreos.com', ['v1'], ['OAuth2Client', 'Connector', 'Password']),
};

/**
 * oauth2-proxy in front of the ingress (Kubeflow's OIDC authentication flow). It serves no
 * Kubernetes kinds: components that need it declare it by name (`infrastructure`).
 */
export const OAUTH2_PROXY: Prerequisite = {
  name: 'oauth2-proxy',
  provides: [],
};

/** Every prerequisite defined here, by name. */
export const PREREQUISITES: Readonly<Record<string, Prerequisite>> = Object.freeze({
  [CERT_MANAGER.name]: CERT_MANAGER,
  [ISTIO.name]: ISTIO,
  [KNATIVE_SERVING.name]: KNATIVE_SERVING,
  [DEX.name]: DEX,
  [OAUTH2_PROXY.name]: OAUTH2_PROXY,
});

/** The OpenShift APIs the Open Data Hub components use (Routes, ImageStreams, console links, cluster configuration). */
export const OPENSHIFT: Prerequisite = {
  name: 'openshift',
  provides: [
    { group: 'route.openshift.io', version: 'v1', kind: 'Route' },
    { group: 'image.openshift.io', version: 'v1', kind: 'ImageStream' },
    { group: 'config.openshift.io', version: 'v1', kind: 'Ingress' },
    { group: 'console.openshift.io', version: 'v1', kind: 'ConsoleLink' },
    { group: 'security.openshift.io', version: 'v1', kind: 'SecurityContextConstraints' },
  ],
};

/**
 * The Open Data Hub operator's own APIs, which components read: DSCInitialization (the
 * applications namespace; CodeFlare) and the platform Auth object (MLflow's groups).
 */
export const ODH_OPERATOR: Prerequisite = {
  name: 'opendatahub-operator',
  provides: [
    { group: 'dscinitialization.opendatahub.io', version: 'v1', kind: 'DSCInitialization' },
    { group: 'services.platform.opendatahub.io', version: 'v1alpha1', kind: 'Auth' },
  ],
};

/**
 * LeaderWorkerSet (lws), installed on the cluster: the kind Kueue's leaderworkerset
 * integration manages (and KServe's multi-node LLMInferenceServices run as).
 */
export const LEADER_WORKER_SET: Prerequisite = {
  name: 'leaderworkerset',
  provides: [{ group: 'leaderworkerset.x-k8s.io', version: 'v1', kind: 'LeaderWorkerSet' }],
};
