import { ApiObject, App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { newPlatform, problemsOf, TestComponent, widgetDef } from './support';
import { CERT_MANAGER, Component, CrdClaim } from '../../lib/component';
import { Phase } from '../../lib/phases';
import { Platform, PlatformError, platformsOf } from '../../lib/platform';
import { buildPlatform } from '../../lib/synth';

class WidgetProvider extends TestComponent {}
class WidgetConsumer extends TestComponent {}
class GadgetProvider extends TestComponent {}

const WIDGET = widgetDef();
const GADGET = widgetDef({ kind: 'Gadget', plural: 'gadgets' });

/** A provider of Widget; `variant` gives it a definition that differs from the others' (a short name). */
function provider(platform: Platform, id = 'provider', variant = false): WidgetProvider {
  return new WidgetProvider(platform, id, `${id}-system`, (self) => {
    self.namespaceObject();
    self.crd(variant ? { ...WIDGET, shortNames: [id] } : WIDGET);
    new ApiObject(self, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'provider-config', namespace: self.namespaceName }, data: { a: 'b' } });
  });
}

function consumer(platform: Platform, id = 'consumer'): WidgetConsumer {
  return new WidgetConsumer(platform, id, `${id}-system`, (self) => {
    self.needs({ group: 'example.com', kind: 'Widget', reason: 'creates the default widget', providedBy: WidgetProvider });
    self.namespaceObject();
    new ApiObject(self, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'consumer-config', namespace: self.namespaceName }, data: { a: 'b' } });
    new ApiObject(self, 'DefaultWidget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'default', namespace: self.namespaceName }, spec: { size: 1 } });
  });
}

function resolveProblems(platform: Platform): string[] {
  try {
    platform.resolve();
  } catch (e) {
    if (e instanceof PlatformError) return e.problems;
    throw e;
  }
  return [];
}

describe('Platform graph', () => {
  test('a consumer declared before its provider comes after it in component order', () => {
    const platform = newPlatform();
    const c = consumer(platform);
    const p = provider(platform);
    expect(platform.components).toEqual([c, p]);
    const model = platform.resolve();
    expect(model.components).toEqual([p, c]);
    expect(model.crdOwners.get('widgets.example.com')).toBe(p);
    expect(model.kinds.get('example.com/Widget')).toBe(WIDGET);
    expect(model.externalKinds).toEqual(new Set(['cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer']));
  });

  test('objects are ordered by phase, then component order, then declaration', () => {
    const platform = newPlatform();
    consumer(platform);
    provider(platform);
    const model = platform.resolve();
    expect(model.objects.map((o) => [o.phase, o.component.componentName, o.json.kind, o.json.metadata.name])).toEqual([
      [Phase.FOUNDATION, 'provider', 'Namespace', 'provider-system'],
      [Phase.FOUNDATION, 'provider', 'CustomResourceDefinition', 'widgets.example.com'],
      [Phase.FOUNDATION, 'consumer', 'Namespace', 'consumer-system'],
      [Phase.CONTROLLERS, 'provider', 'ConfigMap', 'provider-config'],
      [Phase.CONTROLLERS, 'consumer', 'ConfigMap', 'consumer-config'],
      [Phase.RESOURCES, 'consumer', 'Widget', 'default'],
    ]);
    expect(model.objects.map((o) => o.order)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(model.objects[1].path).toBe('p/provider/Widget/Resource');
  });

  test('file names follow apply order: phase folder, then the component position', () => {
    const platform = newPlatform();
    consumer(platform);
    provider(platform);
    const { files, largeCrds } = buildPlatform(platform);
    expect([...files.keys()].filter((f) => f.endsWith('.yaml'))).toEqual([
      '00-foundation/00-namespaces.yaml',
      '00-foundation/provider.yaml',
      '10-controllers/provider.yaml',
      '10-controllers/consumer.yaml',
      '30-resources/consumer.yaml',
      'kustomization.yaml',
    ]);
    const namespaces = parseAllDocuments(files.get('00-foundation/00-namespaces.yaml')!).map((d) => d.toJSON());
    expect(namespaces.map((n) => n.metadata.name)).toEqual(['provider-system', 'consumer-system']);
    const kustomization = parseAllDocuments(files.get('kustomization.yaml')!)[0].toJSON();
    expect(kustomization.resources).toEqual([...files.keys()].filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml'));
    expect(largeCrds).toEqual([]);
  });

  test('a chain of requirements is ordered transitively; independent components keep declaration order', () => {
    const platform = newPlatform();
    const top = new TestComponent(platform, 'top', 'top-system', (self) => self.needs({ group: 'example.com', kind: 'Gadget', reason: 'uses gadgets' }));
    const free = new TestComponent(platform, 'free', 'free-system');
    const mid = new GadgetProvider(platform, 'mid', 'mid-system', (self) => {
      self.crd(GADGET);
      self.needs({ group: 'example.com', kind: 'Widget', reason: 'uses widgets' });
    });
    const base = provider(platform, 'base');
    expect(platform.resolve().components).toEqual([free, base, mid, top]);
  });

  test('a requirement a prerequisite declares is satisfied without a component', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'test', 'test-system', (self) => self.needs({ group: 'cert-manager.io', kind: 'Certificate', reason: 'serving certificates' }));
    expect(resolveProblems(platform)).toEqual([]);
  });

  test('a component requiring its own kind does not depend on itself', () => {
    const platform = newPlatform();
    provider(platform).needs({ group: 'example.com', kind: 'Widget', reason: 'watches its own widgets' });
    expect(resolveProblems(platform)).toEqual([]);
  });

  test('fails when a required kind has no provider, naming the component, the kind and the providing class', () => {
    const platform = newPlatform();
    consumer(platform);
    expect(resolveProblems(platform)).toEqual([
      "p/consumer: component 'consumer' (WidgetConsumer) requires example.com/Widget (creates the default widget), but no component of platform 'p' provides it and no prerequisite declares it; " +
        "add the WidgetProvider component to the platform, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'example.com', kind: 'Widget' }] }]",
    ]);
  });

  test('a required version is satisfied by a provider that serves it', () => {
    const platform = newPlatform();
    provider(platform);
    new TestComponent(platform, 'test', 'test-system', (self) => self.needs({ group: 'example.com', kind: 'Widget', version: 'v1', reason: 'r' }));
    expect(resolveProblems(platform)).toEqual([]);
  });

  test('fails when a required kind has no provider and no providedBy hint', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'test', 'test-system', (self) => self.needs({ group: 'example.com', kind: 'Gizmo', reason: 'reads gizmos' }));
    expect(() => platform.resolve()).toThrow(
      "p/test: component 'test' (TestComponent) requires example.com/Gizmo (reads gizmos), but no component of platform 'p' provides it and no prerequisite declares it; add a component that provides it, or declare it present",
    );
  });

  test('a requirement with a version is satisfied by a provider that serves that version', () => {
    const platform = newPlatform();
    const p = provider(platform);
    const c = new TestComponent(platform, 'v', 'v-system', (self) => self.needs({ group: 'example.com', kind: 'Widget', version: 'v1', reason: 'r' }));
    expect(platform.resolve().components).toEqual([p, c]);
  });

  test('fails when the provider does not serve the required version, naming both versions', () => {
    const platform = newPlatform();
    provider(platform);
    new TestComponent(platform, 'v', 'v-system', (self) => self.needs({ group: 'example.com', kind: 'Widget', version: 'v2beta1', reason: 'manages widgets', providedBy: GadgetProvider }));
    expect(resolveProblems(platform)).toEqual([
      "p/v: component 'v' (TestComponent) requires example.com/v2beta1/Widget (manages widgets), but in platform 'p' example.com/Widget comes from component 'provider' (WidgetProvider), " +
        'which serves v1; add the GadgetProvider component instead',
    ]);
  });

  test('fails when a prerequisite declares the kind at another version', () => {
    const platform = new Platform(new App(), 'p', { name: 'p', prerequisites: [{ name: 'widgets', provides: [{ group: 'example.com', version: 'v1', kind: 'Widget' }] }] });
    new TestComponent(platform, 'v', 'v-system', (self) => self.needs({ group: 'example.com', kind: 'Widget', version: 'v2', reason: 'r' }));
    expect(resolveProblems(platform)).toEqual([
      "p/v: component 'v' (TestComponent) requires example.com/v2/Widget (r), but in platform 'p' example.com/Widget comes from the prerequisites, which serves v1; use a provider that serves v2",
    ]);
  });

  test('fails when components depend on each other in a cycle, listing the cycle', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'a', 'a-system', (self) => {
      self.crd(WIDGET);
      self.needs({ group: 'example.com', kind: 'Gadget', reason: 'r' });
    });
    new TestComponent(platform, 'b', 'b-system', (self) => {
      self.crd(GADGET);
      self.needs({ group: 'example.com', kind: 'Widget', reason: 'r' });
    });
    new TestComponent(platform, 'c', 'c-system');
    expect(resolveProblems(platform)).toEqual([
      'p: components depend on each other in a cycle: a -> b -> a; break it by removing a requirement, declaring a kind as a prerequisite, ' +
        'or marking a requirement runtimeOnly where it is needed only at run time',
    ]);
  });

  test('a runtime-only requirement is checked for a provider but sets no apply order, so it breaks the cycle', () => {
    const platform = newPlatform();
    const a = new TestComponent(platform, 'a', 'a-system', (self) => {
      self.crd(WIDGET);
      self.needs({ group: 'example.com', kind: 'Gadget', reason: 'waits for gadgets at run time', runtimeOnly: true });
    });
    const b = new TestComponent(platform, 'b', 'b-system', (self) => {
      self.crd(GADGET);
      self.needs({ group: 'example.com', kind: 'Widget', reason: 'watches widgets' });
    });
    expect(platform.resolve().components).toEqual([a, b]);
  });

  test('fails when a runtime-only requirement has no provider', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'a', 'a-system', (self) => self.needs({ group: 'example.com', kind: 'Gadget', reason: 'waits for gadgets', runtimeOnly: true }));
    expect(resolveProblems(platform)).toEqual([
      "p/a: component 'a' (TestComponent) requires example.com/Gadget (waits for gadgets), but no component of platform 'p' provides it and no prerequisite declares it; " +
        "add a component that provides it, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'example.com', kind: 'Gadget' }] }]",
    ]);
  });

  test('fails with a three-component cycle, listing only the cycle', () => {
    const platform = newPlatform();
    const def = (kind: string) => widgetDef({ kind, plural: kind.toLowerCase() + 's' });
    new TestComponent(platform, 'a', 'a-system', (self) => {
      self.crd(def('Alpha'));
      self.needs({ group: 'example.com', kind: 'Beta', reason: 'r' });
    });
    new TestComponent(platform, 'b', 'b-system', (self) => {
      self.crd(def('Beta'));
      self.needs({ group: 'example.com', kind: 'Gamma', reason: 'r' });
    });
    new TestComponent(platform, 'c', 'c-system', (self) => {
      self.crd(def('Gamma'));
      self.needs({ group: 'example.com', kind: 'Alpha', reason: 'r' });
    });
    expect(() => platform.resolve()).toThrow('components depend on each other in a cycle: a -> b -> c -> a;');
  });

  test('fails when two components declare one CRD without resolution, naming both and the fix', () => {
    const platform = newPlatform();
    provider(platform, 'one', true);
    provider(platform, 'two', true);
    expect(resolveProblems(platform)).toEqual([
      "p: CRD widgets.example.com is declared by 'one' (p/one) and 'two' (p/two); choose one owner: platform.resolveCrd('widgets.example.com', <component>) or crdOwners: { 'widgets.example.com': '<component id>' }, or declare it with useCrd(definition, { reason, bundledCopy: true }) in the component that works with the other's copy",
    ]);
  });

  test('a component that uses a shared CRD defers to the one that owns it, without crdOwners', () => {
    const platform = newPlatform();
    const user = new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    const owner = provider(platform, 'owner');
    expect(user.claimOf('widgets.example.com')).toBe(CrdClaim.USES);
    expect(owner.claimOf('widgets.example.com')).toBe(CrdClaim.OWNS);
    expect(user.claimOf('gadgets.example.com')).toBeUndefined();
    expect(platform.crdOwner('widgets.example.com')).toBe(owner);
    expect(user.emits(user.crds[0].apiObject)).toBe(false);
    const model = platform.resolve();
    expect(model.crdOwners.get('widgets.example.com')).toBe(owner);
    expect(model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.component)).toEqual([owner]);
    // The user comes after the owner of the CRD it uses.
    expect(model.components).toEqual([owner, user]);
  });

  test('a component that uses a CRD emits its own copy when it is the only one declaring it', () => {
    const platform = newPlatform();
    const user = new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    expect(platform.crdOwner('widgets.example.com')).toBe(user);
    expect(platform.resolve().objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.component)).toEqual([user]);
  });

  test('crdOwners overrides the claim: the user may be chosen to emit its copy', () => {
    const platform = newPlatform({ crdOwners: { 'widgets.example.com': 'user' } });
    const user = new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    const owner = provider(platform, 'owner');
    expect(platform.resolve().crdOwners.get('widgets.example.com')).toBe(user);
    expect(owner.emits(owner.crds[0].apiObject)).toBe(false);
  });

  test('fails when every component that declares a CRD only uses it, naming them and the fix', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'one', 'one-system', (self) => self.uses({ ...WIDGET, shortNames: ['one'] }, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    new TestComponent(platform, 'two', 'two-system', (self) => self.uses({ ...WIDGET, shortNames: ['two'] }, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    expect(resolveProblems(platform)).toEqual([
      "p: CRD widgets.example.com is declared by 'one' (p/one) and 'two' (p/two), each of which only uses it (useCrd with bundledCopy); choose one owner: platform.resolveCrd('widgets.example.com', <component>) or crdOwners: { 'widgets.example.com': '<component id>' }",
    ]);
  });

  test('fails when two components insist on owning a CRD that a third uses, naming only the two', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    provider(platform, 'one', true);
    provider(platform, 'two', true);
    expect(resolveProblems(platform)).toEqual([
      "p: CRD widgets.example.com is declared by 'one' (p/one) and 'two' (p/two); choose one owner: platform.resolveCrd('widgets.example.com', <component>) or crdOwners: { 'widgets.example.com': '<component id>' }, or declare it with useCrd(definition, { reason, bundledCopy: true }) in the component that works with the other's copy",
    ]);
  });

  test('fails when two components both own an identical CRD: owning is a claim, not a coincidence of schemas', () => {
    const platform = newPlatform();
    provider(platform, 'one', false);
    provider(platform, 'two', false);
    expect(platform.crdOwner('widgets.example.com')).toBeUndefined();
    expect(resolveProblems(platform)[0]).toMatch(/^p: CRD widgets\.example\.com is declared by 'one' \(p\/one\) and 'two' \(p\/two\); choose one owner/);
  });

  test('while unresolved, a shared CRD with differing definitions has no owner and neither component emits it', () => {
    const platform = newPlatform();
    const one = provider(platform, 'one', true);
    provider(platform, 'two', true);
    expect(platform.crdOwner('widgets.example.com')).toBeUndefined();
    expect(one.providedCrds).toEqual([]);
    expect(one.emits(one.crds[0].apiObject)).toBe(false);
  });

  test('resolveCrd makes one owner emit the CRD and the other not', () => {
    const platform = newPlatform();
    const one = provider(platform, 'one');
    const two = provider(platform, 'two');
    platform.resolveCrd('widgets.example.com', two);
    expect(platform.crdOwner('widgets.example.com')).toBe(two);
    expect(two.providedCrds).toEqual([WIDGET]);
    expect(one.providedCrds).toEqual([]);
    expect(one.emits(one.crds[0].apiObject)).toBe(false);
    expect(two.emits(two.crds[0].apiObject)).toBe(true);
    const model = platform.resolve();
    const crds = model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
    expect(crds.map((o) => o.component)).toEqual([two]);
    expect(model.crdOwners.get('widgets.example.com')).toBe(two);
    // Its other objects are still emitted by both.
    expect(model.objects.filter((o) => o.json.kind === 'ConfigMap').map((o) => o.component.componentName)).toEqual(['one', 'two']);
  });

  test('a consumer of a shared CRD comes after the resolved owner', () => {
    const platform = newPlatform();
    const c = consumer(platform);
    const one = provider(platform, 'one');
    const two = provider(platform, 'two');
    platform.resolveCrd('widgets.example.com', two);
    expect(platform.resolve().components).toEqual([one, two, c]);
  });

  test('a component that uses a CRD (useCrd) never emits it, requires its kind and comes after the owner', () => {
    const platform = newPlatform();
    const user = new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'ships a copy of widgets', providedBy: WidgetProvider }));
    const p = provider(platform);
    expect(user.crds).toEqual([]);
    expect(user.requires).toEqual([{ group: 'example.com', kind: 'Widget', reason: 'ships a copy of widgets', providedBy: WidgetProvider }]);
    const model = platform.resolve();
    expect(model.components).toEqual([p, user]);
    expect(model.crdOwners.get('widgets.example.com')).toBe(p);
    expect(model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.component)).toEqual([p]);
    const report = buildPlatform(platform).files.get('REPORT.md')!;
    expect(report).toContain('- widgets.example.com: provider (also used, not emitted, by user)');
  });

  test('fails when a used CRD has no owner in the platform, naming the class that provides it', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'ships a copy of widgets', providedBy: WidgetProvider }));
    expect(resolveProblems(platform)).toEqual([
      "p/user: component 'user' (TestComponent) requires example.com/Widget (ships a copy of widgets), but no component of platform 'p' provides it and no prerequisite declares it; " +
        "add the WidgetProvider component to the platform, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'example.com', kind: 'Widget' }] }]",
    ]);
  });

  test('fails when the owner of a used CRD does not serve a version the user uses, naming both', () => {
    const platform = newPlatform();
    const v2 = { ...WIDGET, versions: [{ ...WIDGET.versions[0], name: 'v2' }] };
    new TestComponent(platform, 'user', 'user-system', (self) => self.uses(v2, { reason: 'r', providedBy: WidgetProvider }));
    provider(platform);
    expect(resolveProblems(platform)).toEqual([
      "p/user: component 'user' uses CRD widgets.example.com at version v2, which its owner 'provider' (p/provider) does not serve (serves v1); " +
        "use a release of 'provider' that serves v2, or of 'user' that uses what it serves",
    ]);
  });

  test('one mechanism: a bundled copy (useCrd with bundledCopy) is emitted alone and yields to the owner, whose versions it is checked against', () => {
    const alone = newPlatform();
    const solo = new TestComponent(alone, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'r', bundledCopy: true }));
    expect(solo.requires).toEqual([]);
    expect(solo.claimOf('widgets.example.com')).toBe(CrdClaim.USES);
    expect(alone.resolve().crdOwners.get('widgets.example.com')).toBe(solo);

    const platform = newPlatform();
    const v2 = { ...WIDGET, versions: [{ ...WIDGET.versions[0], name: 'v2' }] };
    new TestComponent(platform, 'user', 'user-system', (self) => self.uses(v2, { reason: 'r', bundledCopy: true }));
    provider(platform);
    expect(resolveProblems(platform)).toEqual([
      "p/user: component 'user' uses CRD widgets.example.com at version v2, which its owner 'provider' (p/provider) does not serve (serves v1); " +
        "use a release of 'provider' that serves v2, or of 'user' that uses what it serves",
    ]);
  });

  test('fails when a shared CRD is declared without a reason', () => {
    expect(() => new TestComponent(newPlatform(), 'user', 'user-system', (self) => self.uses(WIDGET, { reason: ' ', bundledCopy: true }))).toThrow(
      'p/user: useCrd widgets.example.com: reason is empty; say why the component needs the CRD');
  });

  test('fails when a component both declares and uses the same CRD', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'both', 'both-system', (self) => {
      self.crd(WIDGET);
      self.uses(WIDGET, { reason: 'r' });
    });
    expect(resolveProblems(platform)).toEqual([
      "p/both: component 'both' declares CRD widgets.example.com both as its own (addCrd) and as used from another component (useCrd); keep one",
    ]);
  });

  test('fails when crdOwners names a component that does not declare the CRD', () => {
    const platform = newPlatform();
    provider(platform, 'one');
    provider(platform, 'two');
    const other = new TestComponent(platform, 'other', 'other-system');
    platform.resolveCrd('widgets.example.com', other);
    expect(resolveProblems(platform)).toEqual([
      "p: crdOwners assigns widgets.example.com to 'other', which does not declare it (declared by 'one', 'two')",
    ]);
  });

  test('crdOwners (platform prop) names the owner by component id', () => {
    const platform = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], crdOwners: { 'widgets.example.com': 'two' } });
    provider(platform, 'one');
    const two = provider(platform, 'two');
    expect(platform.resolve().crdOwners.get('widgets.example.com')).toBe(two);
  });

  test('fails when crdOwners (platform prop) names a component that does not declare the CRD', () => {
    const platform = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], crdOwners: { 'widgets.example.com': 'elsewhere' } });
    provider(platform, 'one');
    expect(resolveProblems(platform)).toEqual([
      "p: crdOwners assigns widgets.example.com to 'elsewhere', which does not declare it (declared by 'one')",
    ]);
  });

  test('fails when a component needs cert-manager and the platform lacks it', () => {
    const platform = newPlatform({ prerequisites: [] });
    new TestComponent(platform, 'test', 'test-system', (self) => self.infrastructure.push('cert-manager'));
    expect(resolveProblems(platform)).toEqual([
      "p/test: component 'test' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    ]);
  });

  test('fails when the platform has no components', () => {
    expect(resolveProblems(newPlatform())).toEqual(["p: platform 'p' has no components"]);
    expect(problemsOf(newPlatform())).toEqual(["p: platform 'p' has no components"]);
  });

  test('all graph problems are reported together', () => {
    const platform = newPlatform({ prerequisites: [] });
    consumer(platform);
    new TestComponent(platform, 'test', 'test-system', (self) => self.infrastructure.push('cert-manager'));
    const problems = resolveProblems(platform);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^p\/consumer: component 'consumer' \(WidgetConsumer\) requires example\.com\/Widget/);
    expect(problems[1]).toMatch(/^p\/test: component 'test' needs cert-manager/);
    let error: unknown;
    try {
      platform.resolve();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as Error).message).toBe(`2 problems:\n  - ${problems[0]}\n  - ${problems[1]}`);
    expect((error as Error).name).toBe('PlatformError');
  });

  test('fails when the platform name is not a DNS label', () => {
    expect(() => new Platform(new App(), 'p', { name: 'My_Platform' })).toThrow(
      "p: name 'My_Platform' must be a lower-case DNS label (it names the folder under dist/)",
    );
    expect(() => new Platform(new App(), 'p', { name: '-serving' })).toThrow("p: name '-serving' must be a lower-case DNS label");
  });

  test('fails when a component namespace is not a DNS label', () => {
    expect(() => new TestComponent(newPlatform(), 'test', 'Test_System')).toThrow(
      "p/test: namespace 'Test_System' is not a valid namespace name (lower-case DNS label, at most 63 characters)",
    );
    expect(() => new TestComponent(newPlatform(), 'test', 'a'.repeat(64))).toThrow(`p/test: namespace '${'a'.repeat(64)}' is not a valid namespace name`);
  });

  test('defaults: cert-manager certificates, no prerequisites, default and kube-system exist', () => {
    const platform = new Platform(new App(), 'p', { name: 'p' });
    expect(platform.certificates.kind).toBe('cert-manager');
    expect(platform.prerequisites).toEqual([]);
    expect(platform.existingNamespaces).toEqual(['default', 'kube-system']);
    expect(platform.hasPrerequisite('cert-manager')).toBe(false);
  });

  test('Platform.of finds the platform of a nested construct; platformsOf lists them', () => {
    const platform = newPlatform();
    const p = provider(platform);
    expect(Platform.of(p.crds[0].apiObject)).toBe(platform);
    expect(p.platform).toBe(platform);
    expect(platformsOf(platform.node.scope as App)).toEqual([platform]);
    const app = new App();
    expect(() => Platform.of(app)).toThrow(': not inside a Platform');
  });

  test('components are the Component children, in declaration order', () => {
    const platform = newPlatform();
    const a = new TestComponent(platform, 'a', 'a-system');
    const b = new TestComponent(platform, 'b', 'b-system');
    expect(platform.components).toEqual([a, b]);
    expect(platform.components.every((c) => c instanceof Component)).toBe(true);
  });
});

describe('shared CRDs in the report', () => {
  test('the report names the owner of a shared CRD, the components that use its copy, and the edge between them', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'user', 'user-system', (self) => self.uses(WIDGET, { reason: 'works with the owner\'s widgets', bundledCopy: true }));
    provider(platform, 'owner');
    const report = buildPlatform(platform).files.get('REPORT.md')!;
    expect(report).toContain('- widgets.example.com: owner (also declared by user, which uses this copy)');
    expect(report).toContain('  user -.->|shares widgets.example.com| owner');
  });
});
