import { ApiObject } from 'cdk8s';
import { build, newPlatform, problemsOf, TestComponent } from './support';
import { CERT_MANAGER } from '../../lib/component';
import { DEX, ISTIO, KNATIVE_SERVING, OAUTH2_PROXY, PREREQUISITES } from '../../lib/prerequisites';

const NS = 'test-system';

function withObjects(prerequisites: typeof CERT_MANAGER[], body: (c: TestComponent) => void) {
  const p = newPlatform({ prerequisites });
  new TestComponent(p, 'test', NS, (self) => {
    self.namespaceObject();
    body(self);
  });
  return p;
}

const virtualService = (c: TestComponent, apiVersion = 'networking.istio.io/v1') =>
  new ApiObject(c, 'Vs', { apiVersion, kind: 'VirtualService', metadata: { name: 'vs', namespace: NS }, spec: { hosts: ['*'] } });

describe('typed prerequisites', () => {
  test('each is listed by its name; every kind carries a version', () => {
    expect(Object.keys(PREREQUISITES)).toEqual(['cert-manager', 'istio', 'knative-serving', 'dex', 'oauth2-proxy']);
    for (const p of Object.values(PREREQUISITES)) for (const g of p.provides) expect(g.version).toMatch(/^v\d/);
  });

  test('Istio serves its ingress, authorization and mTLS kinds', () => {
    const kinds = new Set(ISTIO.provides.map((g) => `${g.group}/${g.version}/${g.kind}`));
    for (const k of ['networking.istio.io/v1/VirtualService', 'networking.istio.io/v1/Gateway', 'security.istio.io/v1/AuthorizationPolicy', 'security.istio.io/v1/PeerAuthentication', 'networking.istio.io/v1alpha3/EnvoyFilter']) {
      expect(kinds.has(k)).toBe(true);
    }
    expect(kinds.has('networking.istio.io/v1/EnvoyFilter')).toBe(false);
  });

  test('Knative Serving serves serving.knative.dev/v1 Service; Dex its clients; oauth2-proxy no kinds', () => {
    expect(KNATIVE_SERVING.provides).toContainEqual({ group: 'serving.knative.dev', version: 'v1', kind: 'Service' });
    expect(DEX.provides).toContainEqual({ group: 'dex.coreos.com', version: 'v1', kind: 'OAuth2Client' });
    expect(OAUTH2_PROXY.provides).toEqual([]);
  });

  test('a VirtualService is accepted when Istio is declared', () => {
    expect(problemsOf(withObjects([CERT_MANAGER, ISTIO], (c) => virtualService(c)))).toEqual([]);
  });

  test('fails when a VirtualService is emitted without Istio', () => {
    expect(problemsOf(withObjects([CERT_MANAGER], (c) => virtualService(c)))).toEqual([
      '[MLP010] p/test/Vs: VirtualService vs (networking.istio.io/v1) is served by no CRD in the platform and no prerequisite; add the component that owns networking.istio.io/VirtualService or declare it in prerequisites',
    ]);
  });

  test('fails when a requirement names a version the prerequisite does not serve', () => {
    const p = withObjects([CERT_MANAGER, KNATIVE_SERVING], (c) => c.needs({ group: 'serving.knative.dev', version: 'v1alpha1', kind: 'Service', reason: 'serverless predictors' }));
    expect(problemsOf(p)).toEqual([
      "p/test: component 'test' (TestComponent) requires serving.knative.dev/v1alpha1/Service (serverless predictors), but in platform 'p' serving.knative.dev/Service comes from the prerequisites, which serves v1; use a provider that serves v1alpha1",
    ]);
  });

  test('a requirement on a served version resolves; an infrastructure need is met by name', () => {
    const p = withObjects([CERT_MANAGER, KNATIVE_SERVING, OAUTH2_PROXY], (c) => {
      c.needs({ group: 'serving.knative.dev', version: 'v1', kind: 'Service', reason: 'serverless predictors' });
      c.infrastructure.push('oauth2-proxy');
    });
    expect(build(p).model.externalKinds.has('serving.knative.dev/Service')).toBe(true);
  });

  test('fails when an infrastructure need is not declared', () => {
    const p = withObjects([CERT_MANAGER], (c) => c.infrastructure.push('oauth2-proxy'));
    expect(problemsOf(p)).toEqual([
      "p/test: component 'test' needs oauth2-proxy, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    ]);
  });
});
