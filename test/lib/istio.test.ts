import { ApiObject } from 'cdk8s';
import { build, newPlatform, problemsOf, TestComponent } from './support';
import { CERT_MANAGER } from '../../lib/component';
import { Controller } from '../../lib/controller';
import { declareMeshAuthentication, istioSidecarLabel, namespaceInjects, sidecarDecision } from '../../lib/istio';
import { AuthorizationPolicy, NetworkPeer, NetworkPolicy } from '../../lib/network-policy';
import { PlatformProps } from '../../lib/platform';
import { ISTIO } from '../../lib/prerequisites';
import { Workload } from '../../lib/workload';

const NS = 'test-system';
const WITH_ISTIO: Partial<PlatformProps> = { prerequisites: [CERT_MANAGER, ISTIO] };

function platformWith(namespaceLabels: Record<string, string>, body: (c: TestComponent) => void, props: Partial<PlatformProps> = WITH_ISTIO) {
  const platform = newPlatform(props);
  new TestComponent(platform, 'test', NS, (c) => {
    c.namespaceObject(namespaceLabels);
    body(c);
  });
  return platform;
}

const api = (c: TestComponent, istioSidecar?: boolean) => new Workload(c, 'Api', { name: 'api', image: c.image('manager'), selectorLabels: { app: 'api' }, istioSidecar });
const guard = (c: TestComponent, target: Workload | Controller) => new AuthorizationPolicy(c, 'Guard', { name: 'api', targets: [target], rules: [{ when: [{ key: 'request.headers[x-user]', notValues: ['*'] }] }] });
const problems = (ns: Record<string, string>, body: (c: TestComponent) => void, props?: Partial<PlatformProps>) => problemsOf(platformWith(ns, body, props));
const INJECT = { 'istio-injection': 'enabled' };

describe('sidecarDecision: as istiod\'s injector webhooks decide', () => {
  test.each([
    ['a namespace labelled istio-injection=enabled, a pod that says nothing', INJECT, {}, {}, true],
    ['a namespace labelled istio.io/rev', { 'istio.io/rev': 'stable' }, {}, {}, true],
    ['istio-injection=disabled beats a pod asking for one', { 'istio-injection': 'disabled' }, istioSidecarLabel(true), {}, false],
    ['a pod label opting out of an injected namespace', INJECT, istioSidecarLabel(false), {}, false],
    ['the older annotation opting out of an injected namespace', INJECT, {}, { 'sidecar.istio.io/inject': 'false' }, false],
    ['the label wins over the annotation', INJECT, istioSidecarLabel(true), { 'sidecar.istio.io/inject': 'false' }, true],
    ['a plain namespace: only the pod label asks for one', {}, istioSidecarLabel(true), {}, true],
    ['a plain namespace: the annotation is never read', {}, {}, { 'sidecar.istio.io/inject': 'true' }, false],
    ['a plain namespace, a pod that says nothing', {}, {}, {}, false],
  ])('%s', (_what, ns, labels, annotations, injected) => {
    expect(sidecarDecision('n', ns, labels, annotations).injected).toBe(injected);
  });

  test('a namespace the platform does not create: only the pod decides, and the reason says so', () => {
    expect(sidecarDecision('n', undefined, {}).why).toBe('namespace n is not created by the platform, so its injection label is unknown, and the pod template does not ask for a sidecar');
    expect(sidecarDecision('n', undefined, istioSidecarLabel(true)).injected).toBe(true);
    expect(namespaceInjects({ 'istio-injection': 'disabled', 'istio.io/rev': 'stable' })).toBe(false);
  });

  test('Workload and Controller put the label on the pod template only', () => {
    const objs = build(platformWith(INJECT, (c) => {
      api(c, false);
      new Controller(c, 'Ctl', { name: 'ctl', image: c.image('manager'), selectorLabels: { app: 'ctl' }, istioSidecar: true });
    })).model.objects.map((o) => o.json);
    const api1 = objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'api');
    expect(api1.spec.template.metadata.labels).toEqual({ 'app': 'api', 'sidecar.istio.io/inject': 'false' });
    expect(api1.metadata.labels).toEqual({ app: 'api' });
    expect(objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'ctl').spec.template.metadata.labels['sidecar.istio.io/inject']).toBe('true');
  });
});

describe('MLP061: Istio policies select pods that get a sidecar', () => {
  test('fails for a policy selecting pods that opt out, naming the policy, namespace, workload and fix', () => {
    expect(problems(INJECT, (c) => guard(c, api(c, false)))).toEqual([
      '[MLP061] p/test/Guard/Resource: AuthorizationPolicy test-system/api selects the pods of Deployment api (p/test/Api/Deployment), which get no Istio sidecar ' +
        '(its pod template opts out (sidecar.istio.io/inject: "false")), so Istio does not enforce the policy there; drop the opt-out, or the policy',
    ]);
  });

  test('fails for a policy selecting pods of a namespace that does not inject', () => {
    const p = problems({}, (c) => guard(c, api(c)));
    expect(p).toHaveLength(1);
    expect(p[0]).toContain('AuthorizationPolicy test-system/api selects the pods of Deployment api (p/test/Api/Deployment), which get no Istio sidecar');
    expect(p[0]).toContain('label namespace test-system istio-injection=enabled (customization namespaces.labels) or the pod template sidecar.istio.io/inject: "true"');
  });

  test('passes: namespace injection without a per-pod opt-out, or a pod asking for a sidecar in a plain namespace', () => {
    expect(problems(INJECT, (c) => guard(c, api(c)))).toEqual([]);
    expect(problems({}, (c) => guard(c, api(c, true)))).toEqual([]);
  });

  test('PeerAuthentication and RequestAuthentication are held to it too; policies attached to a gateway (targetRefs) are not', () => {
    const p = problems({}, (c) => {
      api(c);
      new ApiObject(c, 'Peer', { apiVersion: 'security.istio.io/v1', kind: 'PeerAuthentication', metadata: { name: 'strict', namespace: NS }, spec: { selector: { matchLabels: { app: 'api' } }, mtls: { mode: 'STRICT' } } });
      new ApiObject(c, 'Jwt', { apiVersion: 'security.istio.io/v1', kind: 'RequestAuthentication', metadata: { name: 'jwt', namespace: NS }, spec: { selector: { matchLabels: { app: 'api' } }, jwtRules: [{ issuer: 'https://dex.example.com' }] } });
      new ApiObject(c, 'Gw', { apiVersion: 'security.istio.io/v1', kind: 'AuthorizationPolicy', metadata: { name: 'gw', namespace: NS }, spec: { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'gw' }], rules: [{}] } });
    });
    expect(p.map((x) => x.split(' selects')[0])).toEqual(['[MLP061] p/test/Peer: PeerAuthentication test-system/strict', '[MLP061] p/test/Jwt: RequestAuthentication test-system/jwt']);
  });

  test('a policy without selector is the namespace\'s: it needs namespace injection; pods opting out one by one are accepted', () => {
    const nsWide = (c: TestComponent) => new ApiObject(c, 'All', { apiVersion: 'security.istio.io/v1', kind: 'PeerAuthentication', metadata: { name: 'default', namespace: NS }, spec: { mtls: { mode: 'STRICT' } } });
    expect(problems({}, (c) => {
      api(c, true); // one pod with a sidecar is not enough: pods made at run time get none
      nsWide(c);
    })).toEqual([
      '[MLP061] p/test/All: PeerAuthentication test-system/default has no selector: it applies to every pod of namespace test-system, but namespace test-system has no ' +
        'istio-injection=enabled or istio.io/rev label, so only pods labelled sidecar.istio.io/inject: "true" get a sidecar and pods made at run time get none; ' +
        'Istio does not enforce it on pods without a sidecar. Label namespace test-system istio-injection=enabled (customization namespaces.labels), or give the policy a selector of pods that ask for a sidecar',
    ]);
    expect(problems(INJECT, (c) => {
      api(c, false);
      nsWide(c);
    })).toEqual([]);
  });
});

describe('MLP062: a workload that relies on Istio to authenticate its callers is guarded', () => {
  const declared = (c: TestComponent, sidecar?: boolean) => {
    const w = api(c, sidecar);
    declareMeshAuthentication(c, { target: w, trusts: 'the user named in the x-user header' });
    return w;
  };

  test('passes with an AuthorizationPolicy on pods with a sidecar', () => {
    expect(problems(INJECT, (c) => guard(c, declared(c)))).toEqual([]);
  });

  test('fails when the policy selects its pods but they get no sidecar (MLP061 fires too)', () => {
    const p = problems(INJECT, (c) => guard(c, declared(c, false)));
    expect(p.map((x) => x.slice(0, 8))).toEqual(['[MLP061]', '[MLP062]']);
    expect(p[1]).toBe('[MLP062] p/test/Api/Deployment: Deployment api (p/test/Api/Deployment) in namespace test-system trusts the user named in the x-user header, which only Istio keeps callers from forging, ' +
      'but AuthorizationPolicy api selects its pods, but they get no Istio sidecar (its pod template opts out (sidecar.istio.io/inject: "false")), and no NetworkPolicy restricts who reaches it: ' +
      'any pod can impersonate anyone. Give its pods a sidecar (label namespace test-system istio-injection=enabled (customization namespaces.labels) or the pod template sidecar.istio.io/inject: "true") ' +
      'under an AuthorizationPolicy, or add a NetworkPolicy admitting only trusted callers');
  });

  test('without Istio: a NetworkPolicy admitting named callers only passes; one rule open to every source fails', () => {
    const fenced = (open: boolean) => (c: TestComponent) => {
      const w = declared(c);
      new NetworkPolicy(c, 'Fence', {
        name: 'api',
        targets: [w],
        ingress: [{ from: [NetworkPeer.namespace('istio-system'), NetworkPeer.podsInOwnNamespace({ app: 'caller' })] }, ...(open ? [{}] : [])],
      });
    };
    expect(problems({}, fenced(false), {})).toEqual([]);
    const p = problems({}, fenced(true), {});
    expect(p).toHaveLength(1);
    expect(p[0]).toContain('no AuthorizationPolicy selects its pods, and NetworkPolicy api admits every source: any pod can impersonate anyone');
  });

  test('fails when the trust is not said', () => {
    expect(() => platformWith({}, (c) => declareMeshAuthentication(c, { target: api(c), trusts: ' ' }))).toThrow('p/test: declareMeshAuthentication api: trusts is empty; say what the workload takes on trust');
  });
});

describe('Platform.labelNamespace: a distribution labels the namespace its components share', () => {
  const shared = (props: Partial<PlatformProps> = {}) => {
    const p = newPlatform(props);
    new TestComponent(p, 'a', NS, (c) => c.namespaceObject({ team: 'ml' }));
    new TestComponent(p, 'b', NS, (c) => c.namespaceObject());
    return p;
  };
  const labels = (p: ReturnType<typeof newPlatform>) => build(p).model.objects.filter((o) => o.json.kind === 'Namespace').map((o) => o.json.metadata.labels);

  test('every component\'s Namespace object gets the labels; the customization\'s win', () => {
    const p = shared();
    p.labelNamespace(NS, { 'istio-injection': 'enabled' });
    expect(labels(p)).toEqual([{ 'team': 'ml', 'istio-injection': 'enabled' }, { 'team': 'ml', 'istio-injection': 'enabled' }]);
    const custom = shared({ namespaces: { labels: { [NS]: { 'istio-injection': 'disabled' } } } });
    custom.labelNamespace(NS, { 'istio-injection': 'enabled' });
    expect(labels(custom)).toEqual([{ 'team': 'ml', 'istio-injection': 'disabled' }, { 'team': 'ml', 'istio-injection': 'disabled' }]);
  });

  test('fails when a component asks another value, naming the component and the fix', () => {
    const p = shared();
    expect(() => p.labelNamespace(NS, { team: 'data' })).toThrow(
      "p: labelNamespace: namespace 'test-system' gets team=data from the platform, but component 'a' (p/a/Namespace) sets team=ml; choose the value with customization namespaces.labels: { 'test-system': { 'team': '...' } }");
  });
});
