import { Prerequisite } from '../../lib/component';

/**
 * Infrastructure the Kubeflow components' tests declare present on the cluster (as a
 * platform would until Istio and OpenShift are modelled as components).
 */
export const ISTIO: Prerequisite = {
  name: 'istio',
  provides: [
    { group: 'security.istio.io', version: 'v1beta1', kind: 'AuthorizationPolicy' },
    { group: 'networking.istio.io', version: 'v1beta1', kind: 'VirtualService' },
    { group: 'networking.istio.io', version: 'v1beta1', kind: 'Gateway' },
  ],
};

export const OPENSHIFT: Prerequisite = {
  name: 'openshift',
  provides: [
    { group: 'route.openshift.io', version: 'v1', kind: 'Route' },
    { group: 'image.openshift.io', version: 'v1', kind: 'ImageStream' },
  ],
};

export const GATEWAY_API: Prerequisite = {
  name: 'gateway-api',
  provides: [
    { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'HTTPRoute' },
    { group: 'gateway.networking.k8s.io', version: 'v1beta1', kind: 'ReferenceGrant' },
  ],
};
