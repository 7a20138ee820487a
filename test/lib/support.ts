/**
 * Shared helpers for the framework tests in test/lib: a minimal Component, a small CRD
 * definition, and shortcuts to build a platform and read its objects.
 */
import { ApiObject, App } from 'cdk8s';
import { AddCrdOptions, Component, CERT_MANAGER, CrdUse, Requirement } from '../../lib/component';
import { CrdDefinition, CrdScope, CustomResourceDefinition } from '../../lib/crd';
import { ImageSpec } from '../../lib/images';
import { KubernetesSupport } from '../../lib/kubernetes-version';
import { Platform, PlatformError, PlatformProps } from '../../lib/platform';
import { RuntimeWebhook } from '../../lib/runtime-webhooks';
import { s } from '../../lib/schema/dsl';
import { buildPlatform, PlatformBuild } from '../../lib/synth';

/** A component that does whatever its build callback says (protected helpers made public). */
export class TestComponent extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = {
    manager: { repository: 'example/manager', tag: 'v1.0.0' },
  };

  constructor(scope: Platform, id: string, namespace: string = `${id}-system`, populate?: (c: TestComponent) => void) {
    super(scope, id, namespace);
    populate?.(this);
  }

  public crd(definition: CrdDefinition, props: AddCrdOptions = {}): CustomResourceDefinition {
    return this.addCrd(definition, props);
  }

  public runtimeWebhook(w: RuntimeWebhook): void {
    this.declareRuntimeWebhook(w);
  }

  public needs(req: Requirement): void {
    this.require(req);
  }

  public needsKubernetes(support: KubernetesSupport): void {
    this.requireKubernetes(support);
  }

  public uses(definition: CrdDefinition, use: Omit<CrdUse, 'definition'>): CustomResourceDefinition | undefined {
    return this.useCrd(definition, use);
  }

  public namespaceObject(labels: Record<string, string> = {}): ApiObject {
    return this.addNamespace(labels);
  }
}

/** A second class, so that tests can tell components apart by class name. */
export class OtherComponent extends TestComponent {}

export function newPlatform(props: Partial<PlatformProps> = {}): Platform {
  return new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], ...props });
}

export function widgetDef(overrides: Partial<CrdDefinition> = {}): CrdDefinition {
  return {
    group: 'example.com',
    kind: 'Widget',
    plural: 'widgets',
    scope: CrdScope.NAMESPACED,
    versions: [
      {
        name: 'v1',
        storage: true,
        schema: s.object({
          spec: s.object({ size: s.integer({ minimum: 1 }).required(), color: s.enum('red', 'blue') }).required(),
          status: s.object({ ready: s.boolean() }),
        }),
        subresources: { status: true },
      },
    ],
    ...overrides,
  };
}

/** The JSON of every ApiObject under a component (in declaration order). */
export function objectsOf(c: Component): any[] {
  return c.toJson();
}

export function findObject(c: Component, kind: string, name?: string): any {
  const found = objectsOf(c).find((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (!found) throw new Error(`no ${kind}${name ? ' ' + name : ''} in ${c.node.path}`);
  return found;
}

/** Runs buildPlatform and returns the problems it reports (empty when it succeeds). */
export function problemsOf(platform: Platform): string[] {
  try {
    buildPlatform(platform);
    return [];
  } catch (e) {
    if (e instanceof PlatformError) return e.problems;
    throw e;
  }
}

export function build(platform: Platform): PlatformBuild {
  return buildPlatform(platform);
}

/** A pod security context that passes Pod Security "restricted". */
export const RESTRICTED_POD = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };

/** Container fields that pass Pod Security "restricted" and MLP054 (cpu and memory requests). */
export const RESTRICTED_CONTAINER = {
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true },
  resources: { requests: { cpu: '10m', memory: '32Mi' } },
};

/**
 * Where two values differ as data (undefined if nowhere): types, Object.is for primitives,
 * arrays' lengths and holes, objects' keys in their order. Unlike a comparison of v8
 * serializations, an array's internal representation (packed or holey) does not count.
 */
export function dataDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return Object.is(a, b) ? undefined : `${at || '/'}: ${String(a)} vs ${String(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at || '/'}: different kinds of object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i]) || (Array.isArray(a) && a.length !== (b as unknown[]).length)) {
    return `${at || '/'}: keys ${ka.join(',')} vs ${kb.join(',')}`;
  }
  for (const k of ka) {
    const d = dataDifference((a as any)[k], (b as any)[k], `${at}/${k}`);
    if (d) return d;
  }
  return undefined;
}
