import { App } from 'cdk8s';
import { KServe } from '../../constructs/kserve';
import { CERT_MANAGER } from '../../lib/component';
import { Platform } from '../../lib/platform';
import { closestKey, propShapeOf, unknownPropProblems } from '../../lib/prop-keys';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { KubeflowPlatform } from '../../platforms/kubeflow';

// Day two 3: a misspelled prop was silently ignored where nothing type-checks it (plain
// JavaScript, a YAML-driven app): `{ replica: 2 }` gave one replica. Props' keys are checked
// against the keys their TypeScript types declare (imports/prop-shapes.json, generated).

const plat = (props: object = {}) => new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], ...props });
/** What a JavaScript caller can pass: anything. */
const untyped = <T>(props: object): T => props as T;

describe('unknown prop keys (day two 3)', () => {
  test("a component's misspelled prop fails with the key meant", () => {
    expect(() => new KServe(plat(), 'kserve', untyped({ replica: 2 })))
      .toThrow("p/kserve: props.replica (2) is not a prop it takes, so it would be ignored; did you mean 'replicas'?");
  });

  test('nested settings are checked too', () => {
    expect(() => new KServe(plat(), 'kserve', untyped({ config: { deploy: { defaultDeploymentMod: 'RawDeployment' } } })))
      .toThrow("p/kserve: props.config.deploy.defaultDeploymentMod (\"RawDeployment\") is not a prop it takes, so it would be ignored; did you mean 'defaultDeploymentMode'?");
  });

  test('a key nothing resembles lists the keys the type takes', () => {
    expect(() => plat({ flavour: 'x' })).toThrow(/^p: props\.flavour \("x"\) is not a prop it takes, so it would be ignored; it takes certificates, components, .*name/);
  });

  test("a typo next to KubeflowPlatform's tenant settings fails, and no example tenant is deployed unless asked for", () => {
    expect(() => new KubeflowPlatform(new App(), 'kubeflow', untyped({ tenant: [{ name: 'team-a', owner: 'a@example.com' }] })))
      .toThrow("kubeflow: props.tenant ([{\"name\":\"team-a\",\"owner\":\"a@example.com\"}]) is not a prop it takes, so it would be ignored; did you mean 'tenants'?");
    const tenants = (p: KubeflowPlatform) => p.profiles.node.findAll().map((c) => c.node.id).filter((id) => id.startsWith('Tenant-'));
    expect(tenants(new KubeflowPlatform(new App(), 'kubeflow'))).toEqual([]);
    expect(tenants(new KubeflowPlatform(new App(), 'kubeflow', { tenants: [{ name: 'team-a', owner: 'a@example.com' }] }))).toEqual(['Tenant-team-a']);
    expect(tenants(new KubeflowPlatform(new App(), 'kubeflow', { exampleTenant: true }))).toEqual(['Tenant-kubeflow-user-example-com']);
  });

  test('every component and platform class of the default platforms has its props in the generated table', () => {
    const app = new App({ outdir: '/nonexistent' });
    const platforms = DEFAULT_PLATFORMS.map((d) => d.create(app));
    const classes = new Set([...platforms.map((p) => p.constructor.name), ...platforms.flatMap((p) => p.components.map((c) => c.constructor.name))]);
    expect([...classes].filter((c) => !propShapeOf(c))).toEqual([]);
  });

  test('records, arrays and values that are not plain objects are walked as their types say', () => {
    const shape = { keys: { a: { values: { keys: { x: 0 } } }, b: { items: { keys: { y: 0 } } }, c: 0 } } as const;
    expect(unknownPropProblems({ a: { k: { x: 1, z: 2 } }, b: [{ y: 1 }, { yy: 2 }], c: { anything: 1 }, d: undefined }, shape)).toEqual([
      "props.a['k'].z (2) is not a prop it takes, so it would be ignored; did you mean 'x'?",
      "props.b[1].yy (2) is not a prop it takes, so it would be ignored; did you mean 'y'?",
    ]);
    expect(closestKey('Replicas', ['replicas', 'resources'])).toBe('replicas');
    expect(closestKey('zzzzzz', ['replicas'])).toBeUndefined();
  });
});
