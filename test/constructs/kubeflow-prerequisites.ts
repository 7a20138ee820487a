import { Prerequisite } from '../../lib/component';

/**
 * Infrastructure the Kubeflow components' tests declare present on the cluster (as a
 * platform would until OpenShift is modelled as a component).
 */
/** Istio as lib/prerequisites declares it (every version it serves). */
export { ISTIO } from '../../lib/prerequisites';

/** OpenShift as lib/prerequisites declares it. */
export { OPENSHIFT } from '../../lib/prerequisites';

export const GATEWAY_API: Prerequisite = {
  name: 'gateway-api',
  provides: [
    { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'HTTPRoute' },
    { group: 'gateway.networking.k8s.io', version: 'v1beta1', kind: 'ReferenceGrant' },
  ],
};
