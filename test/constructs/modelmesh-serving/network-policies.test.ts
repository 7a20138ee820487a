import { MODELMESH_ETCD, ModelMeshServing } from '../../../constructs/modelmesh-serving';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform, PlatformProps } from '../../../lib/platform';
import { build } from '../../platforms/helpers';

const policies = (props: Partial<PlatformProps> = {}) => build((app) => {
  const p = new Platform(app, 'mm', { name: 'modelmesh', prerequisites: [CERT_MANAGER, MODELMESH_ETCD], ...props });
  new ModelMeshServing(p, 'modelmesh-serving');
  return p;
}).model.objects.map((o) => o.json).filter((o) => o.kind === 'NetworkPolicy');
const CONTROLLER_PODS = { matchLabels: { 'app.kubernetes.io/managed-by': 'modelmesh-controller', 'control-plane': 'modelmesh-controller' } };
const tcp = (...ports: number[]) => ports.map((port) => ({ port, protocol: 'TCP' }));

describe('MM-NETPOL: ModelMesh v0.12.0\'s NetworkPolicies', () => {
  const out = policies();
  const spec = (name: string) => out.find((o) => o.metadata.name === name)?.spec;

  test('MM-NETPOL: upstream\'s webhook and runtime policies, plus the metrics fence on the controller (not upstream\'s modelmesh-controller: 8443, a port its pods do not serve)', () => {
    expect(out.map((o) => o.metadata.name)).toEqual(['modelmesh-controller-metrics-fence', 'modelmesh-webhook', 'modelmesh-runtimes']);
  });

  test('MM-NETPOL: the controller\'s pods admit the webhook port 9443', () => {
    expect(spec('modelmesh-webhook')).toEqual({ podSelector: CONTROLLER_PODS, policyTypes: ['Ingress'], ingress: [{ ports: tcp(9443) }] });
  });

  test('MM-NETPOL: the runtime pods (made at run time, labelled modelmesh-service) admit gRPC, REST and metrics', () => {
    expect(spec('modelmesh-runtimes')).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/managed-by': 'modelmesh-controller' }, matchExpressions: [{ key: 'modelmesh-service', operator: 'Exists' }] },
      policyTypes: ['Ingress'],
      ingress: [
        { from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/managed-by': 'modelmesh-controller' } } }], ports: tcp(8033, 8080) },
        { ports: tcp(8033, 8008) },
        { ports: tcp(2112) },
      ],
    });
  });

  test('MM-NETPOL: the controller\'s plain metrics port 8080 is admitted only from the monitoring namespace, and the fence opens nothing else', () => {
    expect(spec('modelmesh-controller-metrics-fence').ingress).toEqual([
      { from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['monitoring'] }] } }], ports: tcp(8080) },
    ]);
    expect(policies({ metricsFence: { enabled: false } }).map((o) => o.metadata.name)).toEqual(['modelmesh-webhook', 'modelmesh-runtimes']);
  });
});
