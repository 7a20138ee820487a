import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, networkPolicyDeviation, rbacItems } from '../../lib/parity-items';

const MANAGER = 'Deployment/modelmesh-controller';

/** ModelMesh Serving's differences from upstream's v0.12.0 install (cluster scope), on purpose. */
export const MODELMESH_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...itemDeviations({ kind: FactKind.ARG, object: `${MANAGER} container manager`, status: 'extra' }, ['--health-probe-bind-address=:8081', '--metrics-addr=:8080'], DeviationCategory.PLATFORM_INTEGRATION,
    'states main.go\'s own defaults at v0.12.0 (:8081 probes, :8080 metrics), so that the declared ports, probes and metrics Service cannot drift from what the manager binds.'),
  {
    fact: { kind: FactKind.PORT, object: `${MANAGER} container manager`, item: '8080/TCP', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the plain-HTTP metrics port the manager binds by default (--metrics-addr :8080), declared so that the metrics Service and network policy refer to a named port.',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, rbacItems('serving.kserve.io', ['clusterservingruntimes/finalizers', 'servingruntimes/finalizers'], ['create', 'delete', 'get', 'list', 'patch', 'watch']), DeviationCategory.SCOPED_RBAC,
    'the finalizers subresource is only ever checked for update (an owner reference with blockOwnerDeletion, which SetControllerReference sets on the HPAs and Services), and update is granted.'),
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'security.openshift.io|securitycontextconstraints|use', status: 'missing' },
    category: DeviationCategory.NOT_INSTALLED,
    reason: 'upstream binds the controller\'s account to OpenShift\'s restricted SCC so its own pod is admitted; no code at v0.12.0 uses an SCC, and the controller\'s pod meets Pod Security restricted, which OpenShift admits under restricted-v2 for every service account.',
  },
  networkPolicyDeviation('modelmesh-controller', 'missing', DeviationCategory.NOT_INSTALLED,
    'upstream\'s policy admits port 8443 to the controller\'s pods, which serve nothing there at v0.12.0 (they declare the webhook port 9443 alone; metrics are on 8080): it opens nothing, and a policy admitting a port no container declares fails synth (MLP063).'),
];
