import * as fs from 'fs';
import * as path from 'path';
import { ecosystemCrd, ecosystemKinds } from '../../lib/validation/ecosystem';

// The ecosystem's CRDs (imports/ecosystem/, scripts/gen-ecosystem-crds.ts): what validate
// knows without a CRD in the input (day two 10).
const DIR = path.join(__dirname, '..', '..', 'imports', 'ecosystem');

// First: the module's cache is empty.
test('a group\'s schemas are read only when an object of that group is looked up', () => {
  // The module object itself (an `import * as` namespace's properties cannot be spied on).
  const read = jest.spyOn(jest.requireActual<typeof fs>('fs'), 'readFileSync');
  try {
    ecosystemCrd('security.istio.io', 'PeerAuthentication');
    ecosystemCrd('security.istio.io', 'AuthorizationPolicy');
    ecosystemCrd('example.com', 'Widget');
    const files = read.mock.calls.map((c) => path.basename(String(c[0])));
    expect(files.filter((f) => f.endsWith('.json'))).toEqual(['security.istio.io.json']);
  } finally {
    read.mockRestore();
  }
});

test('the kinds our output emits and builds on are known, each with the release it was taken from', () => {
  const kinds = ecosystemKinds();
  const expected: Record<string, string[]> = {
    'argoproj.io': ['Application', 'AppProject', 'ApplicationSet', 'ArgoCD'],
    'kustomize.toolkit.fluxcd.io': ['Kustomization'],
    'source.toolkit.fluxcd.io': ['GitRepository', 'OCIRepository', 'HelmRepository', 'HelmChart', 'Bucket'],
    'helm.toolkit.fluxcd.io': ['HelmRelease'],
    'cert-manager.io': ['Certificate', 'Issuer', 'ClusterIssuer', 'CertificateRequest'],
    'networking.istio.io': ['VirtualService', 'Gateway', 'DestinationRule', 'EnvoyFilter', 'Sidecar', 'ServiceEntry'],
    'security.istio.io': ['AuthorizationPolicy', 'PeerAuthentication', 'RequestAuthentication'],
    'gateway.networking.k8s.io': ['Gateway', 'HTTPRoute', 'GRPCRoute', 'ReferenceGrant', 'GatewayClass'],
    'monitoring.coreos.com': ['ServiceMonitor', 'PodMonitor', 'PrometheusRule'],
    'route.openshift.io': ['Route'],
  };
  for (const [group, list] of Object.entries(expected)) expect({ group, kinds: kinds[group] }).toEqual({ group, kinds: expect.arrayContaining(list) });
  for (const [group, list] of Object.entries(kinds)) {
    for (const kind of list) {
      const found = ecosystemCrd(group, kind)!;
      expect([found.crd.spec.group, found.crd.spec.names.kind]).toEqual([group, kind]);
      expect(found.source.ref).toMatch(/^(v\d+\.\d+\.\d+|release-\d+\.\d+)$/);
      expect(found.source.commit).toMatch(/^[0-9a-f]{40}$/);
    }
  }
  // Each kind is named with the project it comes from (argoproj.io holds two).
  expect(ecosystemCrd('argoproj.io', 'Application')!.source.project).toBe('Argo CD');
  expect(ecosystemCrd('argoproj.io', 'ArgoCD')!.source.project).toBe('Argo CD operator (OpenShift GitOps)');
  expect(ecosystemCrd('argoproj.io', 'Workflow')).toBeUndefined();
  expect(ecosystemCrd('example.com', 'Application')).toBeUndefined();
});

test('the data is derived, not hand-written: schemas without descriptions, every file listed in the index', () => {
  const files = fs.readdirSync(DIR).filter((f) => f !== 'index.json').map((f) => f.replace(/\.json$/, '')).sort();
  expect(files).toEqual(Object.keys(ecosystemKinds()).sort());
  const text = fs.readFileSync(path.join(DIR, 'argoproj.io.json'), 'utf8');
  expect(text).not.toMatch(/"description":"/);
});
