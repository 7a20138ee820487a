import { applyOperation, JsonPatchError, Operation, validate as validatePatch } from 'fast-json-patch';
import { CertificateProvider } from './certificates';
import { ImageSettings } from './images';
import type { MetricsFenceSettings } from './network-policy';
import { resourceProblems } from './resources';

/**
 * Typed customization that every platform takes in its props: it survives upgrades of the
 * components because it names components, controllers, webhooks and images by their stable
 * ids, and every name is checked against what the platform has.
 */
export interface PlatformCustomization {
  /**
   * The oldest Kubernetes (MAJOR.MINOR) the platform must run on. Synth fails when a
   * component needs a newer one (MLP070), and CRD rules are compiled as this version's API
   * server compiles them (MLP003).
   * @default DEFAULT_KUBERNETES_VERSION (1.32; lib/kubernetes-version.ts says why)
   */
  readonly kubernetesVersion?: string;
  /**
   * Where webhook certificates come from, for every component.
   * @default - the platform's choice (CertificateProvider.certManager() for a bare Platform)
   */
  readonly certificates?: CertificateProvider;
  /** Registry mirror and per-image tag, digest or repository overrides (`<component>/<image key>`). */
  readonly images?: ImageSettings;
  /**
   * Components on (`true`) or off (`false`), by component id (e.g. `{ 'modelmesh-serving': false }`).
   * A component that is off emits nothing; a component that needs its kinds then fails the
   * build, naming it.
   * @default - every component of the platform is on
   */
  readonly components?: Record<string, boolean>;
  /**
   * Replicas and resources per controller, by `<component>/<Deployment name>` (e.g.
   * `kserve/kserve-controller-manager`). Resources merge over the component's, key by key.
   */
  readonly controllers?: Record<string, ControllerCustomization>;
  /** The namespaces components run in. */
  readonly namespaces?: NamespaceSettings;
  /**
   * Webhook failure policies, by `<component>/<configuration name>/<webhook name>`; only for
   * webhooks whose construct marks the policy as a choice upstream supports
   * (`WebhookProps.failurePolicyOverridable`).
   */
  readonly webhooks?: Record<string, WebhookCustomization>;
  /**
   * RFC 6902 JSON patches, applied to the emitted objects before the synth-time checks (so
   * the result is checked like everything else). The escape hatch for what no typed option
   * covers.
   */
  readonly patches?: ObjectPatch[];
  /**
   * The fence on plain-HTTP metrics: every controller that serves metrics without
   * authentication on a Service port (ControllerMetrics.insecure) gets a NetworkPolicy that
   * admits its metrics port only from the monitoring namespace.
   * @default - on, monitoring namespace `monitoring`
   */
  readonly metricsFence?: MetricsFenceSettings;
}

export interface ControllerCustomization {
  /** Pods of the Deployment (a whole number >= 0). */
  readonly replicas?: number;
  /** Requests and limits of the manager container, merged over the component's by resource name. */
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
}

export interface NamespaceSettings {
  /**
   * One namespace for every component's controllers (Open Data Hub's applications namespace).
   * @default - each component's own namespace
   */
  readonly applications?: string;
  /** Per component id; wins over `applications`. */
  readonly components?: Record<string, string>;
  /**
   * Labels of the Namespace objects, by namespace. They win over the labels components ask
   * for, which settles two components in one namespace that ask for different values.
   * @default - the union of what the components in each namespace ask for
   */
  readonly labels?: Record<string, Record<string, string>>;
}

export interface WebhookCustomization {
  readonly failurePolicy: 'Fail' | 'Ignore';
}

/** Which emitted objects a patch applies to: every object that matches all given fields. */
export interface PatchTarget {
  readonly kind: string;
  readonly name: string;
  /** @default - any namespace (cluster-scoped objects included) */
  readonly namespace?: string;
  /** Component id. @default - any component */
  readonly component?: string;
}

export interface ObjectPatch {
  readonly target: PatchTarget;
  /** RFC 6902 operations (add, remove, replace, move, copy, test), applied in order. */
  readonly ops: Operation[];
}

/** The fields of an object a patch target is matched against. */
export interface PatchableObject {
  /** Replaced by the patched JSON. */
  json: any;
  readonly component: string;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** `a, b, c` or, for a long list, the names closest to `wanted` first. */
export function validChoices(wanted: string, valid: Iterable<string>): string {
  const all = [...new Set(valid)].sort();
  if (!all.length) return '(none)';
  const near = all.filter((v) => editDistance(v, wanted) <= Math.max(2, Math.floor(wanted.length / 4)));
  return (near.length && all.length > 8 ? `did you mean ${near.map((n) => `'${n}'`).join(' or ')}? ` : '') + all.map((v) => `'${v}'`).join(', ');
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

interface WebhookEntry {
  readonly overridable: boolean;
}

/**
 * A platform's customization, validated: the props alone are checked when the platform is
 * created (quantities, replicas, namespace names, patch syntax); names that depend on the
 * components (components, controllers, webhooks, image keys, patch targets) are checked
 * when the platform resolves, against what its components declared.
 */
export class Customization {
  /** Component ids the platform knows: created ones and ones a platform asked about. */
  private readonly knownComponents = new Set<string>();
  /** `<component>/<controller>` targets the components declared. */
  private readonly knownControllers = new Set<string>();
  private readonly knownWebhooks = new Map<string, WebhookEntry>();

  constructor(private readonly path: string, private readonly settings: PlatformCustomization) {
    const problems: string[] = [];
    for (const [id, on] of Object.entries(settings.components ?? {})) {
      if (typeof on !== 'boolean') problems.push(`${path}: components['${id}']: ${JSON.stringify(on)} must be true (on) or false (off)`);
    }
    for (const [target, c] of Object.entries(settings.controllers ?? {})) {
      const where = `${path}: controllers['${target}']`;
      if (!/^[^/]+\/[^/]+$/.test(target)) problems.push(`${where}: the key must be <component>/<controller name>, e.g. 'kserve/kserve-controller-manager'`);
      if (c.replicas !== undefined && (!Number.isInteger(c.replicas) || c.replicas < 0)) {
        problems.push(`${where}.replicas: ${c.replicas} must be a whole number >= 0 (0 stops the controller)`);
      }
      problems.push(...resourceProblems(c.resources ?? {}, `${where}.resources`));
    }
    const ns = settings.namespaces ?? {};
    const nsProblem = (where: string, v: string) => (DNS_LABEL.test(v) && v.length <= 63 ? [] : [`${path}: ${where}: '${v}' is not a valid namespace name; use a lower-case DNS label of at most 63 characters (e.g. opendatahub)`]);
    if (ns.applications !== undefined) problems.push(...nsProblem('namespaces.applications', ns.applications));
    for (const [id, v] of Object.entries(ns.components ?? {})) problems.push(...nsProblem(`namespaces.components['${id}']`, v));
    for (const [target, w] of Object.entries(settings.webhooks ?? {})) {
      if (w.failurePolicy !== 'Fail' && w.failurePolicy !== 'Ignore') {
        problems.push(`${path}: webhooks['${target}'].failurePolicy: '${w.failurePolicy}' must be 'Fail' or 'Ignore'`);
      }
    }
    (settings.patches ?? []).forEach((p, i) => {
      const where = `${path}: patches[${i}]`;
      if (!p.target?.kind || !p.target?.name) problems.push(`${where}: target needs kind and name (and optionally namespace, component)`);
      if (!Array.isArray(p.ops) || !p.ops.length) {
        problems.push(`${where}: ops must be a non-empty array of RFC 6902 operations`);
        return;
      }
      const error = validatePatch(p.ops);
      if (error) problems.push(`${where} (${describeTarget(p.target)}): ops[${error.index}] ${JSON.stringify(p.ops[error.index!])} is not a valid RFC 6902 operation: ${firstLine(error.message)}`);
    });
    if (problems.length) throw new Error(problems.join('\n'));
  }

  /** Whether a component is on; records the id as one the customization may name. */
  public isComponentEnabled(id: string): boolean {
    this.knownComponents.add(id);
    return this.settings.components?.[id] ?? true;
  }

  /** The namespace a component runs in: per-component setting, else the applications namespace, else its own. */
  public namespaceOf(id: string, own: string): string {
    return this.settings.namespaces?.components?.[id] ?? this.settings.namespaces?.applications ?? own;
  }

  /** Whether the customization places components in this namespace (or labels it). */
  public isPlacedNamespace(namespace: string): boolean {
    const ns = this.settings.namespaces;
    return ns?.applications === namespace || Object.values(ns?.components ?? {}).includes(namespace) || namespace in (ns?.labels ?? {});
  }

  /** The Namespace labels the customization sets for a namespace. */
  public namespaceLabelsOf(namespace: string): Record<string, string> {
    return this.settings.namespaces?.labels?.[namespace] ?? {};
  }

  /** The customization of a controller (and records it as a valid target). */
  public controller(component: string, name: string): ControllerCustomization | undefined {
    const key = `${component}/${name}`;
    this.knownControllers.add(key);
    return this.settings.controllers?.[key];
  }

  /** Registers a webhook; returns the failure policy to use when customization sets one it may. */
  public webhookFailurePolicy(component: string, configuration: string, webhook: string, overridable: boolean): 'Fail' | 'Ignore' | undefined {
    const key = `${component}/${configuration}/${webhook}`;
    this.knownWebhooks.set(key, { overridable });
    return overridable ? this.settings.webhooks?.[key]?.failurePolicy : undefined;
  }

  /**
   * Names in the customization that nothing in the platform answers to. `imageKeys` are the
   * `<component>/<key>` entries of every component's versions table.
   */
  public unresolvedProblems(imageKeys: Iterable<string>, namespaces: Iterable<string>): string[] {
    const problems: string[] = [];
    const usedNamespaces = new Set(namespaces);
    for (const ns of Object.keys(this.settings.namespaces?.labels ?? {})) {
      if (!usedNamespaces.has(ns)) problems.push(`${this.path}: namespaces.labels['${ns}']: no component runs in namespace '${ns}'; namespaces of the platform: ${validChoices(ns, usedNamespaces)}`);
    }
    const known = [...this.knownComponents];
    for (const id of Object.keys(this.settings.components ?? {})) {
      if (!this.knownComponents.has(id)) problems.push(`${this.path}: components['${id}']: the platform has no component '${id}'; valid components: ${validChoices(id, known)}`);
    }
    for (const id of Object.keys(this.settings.namespaces?.components ?? {})) {
      if (!this.knownComponents.has(id)) problems.push(`${this.path}: namespaces.components['${id}']: the platform has no component '${id}'; valid components: ${validChoices(id, known)}`);
    }
    for (const target of Object.keys(this.settings.controllers ?? {})) {
      if (!this.knownControllers.has(target)) {
        problems.push(`${this.path}: controllers['${target}']: no controller '${target}' in the platform; valid targets: ${validChoices(target, this.knownControllers)}`);
      }
    }
    for (const target of Object.keys(this.settings.webhooks ?? {})) {
      const entry = this.knownWebhooks.get(target);
      const allowed = [...this.knownWebhooks.entries()].filter(([, e]) => e.overridable).map(([k]) => k);
      if (!entry) {
        problems.push(`${this.path}: webhooks['${target}']: no webhook '${target}' (<component>/<configuration>/<webhook>) in the platform; webhooks whose failurePolicy may be set: ${validChoices(target, allowed)}`);
      } else if (!entry.overridable) {
        problems.push(
          `${this.path}: webhooks['${target}'].failurePolicy: upstream supports only the construct's policy for this webhook (it guards what its controller relies on), so it cannot be changed; ` +
            `remove the override (a JSON patch would be checked the same way); webhooks whose failurePolicy may be set: ${allowed.length ? allowed.sort().join(', ') : '(none in this platform)'}`,
        );
      }
    }
    const keys = new Set(imageKeys);
    for (const key of Object.keys(this.settings.images?.overrides ?? {})) {
      if (!keys.has(key)) problems.push(`${this.path}: images.overrides['${key}']: no component has an image '${key}' (keys are <component>/<image key>); valid keys: ${validChoices(key, keys)}`);
    }
    return problems;
  }

  /**
   * Applies the JSON patches, replacing each matched object's `json` (the original is not
   * mutated). Returns one problem per patch
   * that matches no object or whose operation fails (e.g. a path that does not exist).
   */
  public applyPatches(objects: PatchableObject[]): string[] {
    const problems: string[] = [];
    (this.settings.patches ?? []).forEach((p, i) => {
      const t = p.target;
      const matches = objects.filter((o) => o.json.kind === t.kind && o.json.metadata?.name === t.name
        && (t.namespace === undefined || o.json.metadata?.namespace === t.namespace) && (t.component === undefined || o.component === t.component));
      const where = `${this.path}: patches[${i}] (${describeTarget(t)})`;
      if (!matches.length) {
        const sameName = [...new Set(objects.filter((o) => o.json.metadata?.name === t.name)
          .map((o) => describeTarget({ kind: o.json.kind, name: t.name, namespace: o.json.metadata?.namespace, component: o.component })))];
        const seen = sameName.length ? `objects named '${t.name}': ${sameName.join(', ')}` : `no object is named '${t.name}'`;
        problems.push(`${where}: matches no object of the platform; ${seen}; fix the target's kind, name, namespace or component`);
        return;
      }
      for (const o of matches) {
        let json = o.json;
        for (let j = 0; j < p.ops.length; j++) {
          const op = p.ops[j];
          try {
            json = applyOperation(json, op, true, false).newDocument;
          } catch (e) {
            const on = describeTarget({ kind: o.json.kind, name: t.name, namespace: o.json.metadata?.namespace, component: o.component });
            problems.push(`${where}: ops[${j}] op '${op.op}' at path '${op.path}' failed on ${on}: ${reason(e as Error, json, op)}`);
            return;
          }
        }
        o.json = json;
      }
    });
    return problems;
  }
}

function describeTarget(t: PatchTarget): string {
  return `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}${t.component ? ` of component '${t.component}'` : ''}`;
}

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}

/** Why an operation failed, with what exists at the path's parent so the fix is visible. */
function reason(e: Error, json: any, op: Operation): string {
  const name: string | undefined = e instanceof JsonPatchError ? e.name : undefined;
  if (name === 'TEST_OPERATION_FAILED') return 'the value at the path differs from the test value; the object is not what the patch expects (check the object in dist/ and update the patch)';
  const path = 'from' in op && name === 'OPERATION_FROM_UNRESOLVABLE' ? op.from : op.path;
  const parts = String(path).split('/').slice(1);
  let parent: any = json;
  let depth = 0;
  for (; depth < parts.length - 1 && parent && typeof parent === 'object'; depth++) {
    const key = parts[depth].replace(/~1/g, '/').replace(/~0/g, '~');
    if (!(key in parent)) break;
    parent = parent[key];
  }
  const at = '/' + parts.slice(0, depth).join('/');
  const keys = parent && typeof parent === 'object' ? (Array.isArray(parent) ? `an array of ${parent.length}` : `keys ${Object.keys(parent).sort().join(', ')}`) : 'a scalar';
  return `${name === 'OPERATION_PATH_UNRESOLVABLE' || name === 'OPERATION_FROM_UNRESOLVABLE' ? 'the path does not exist' : firstLine(e.message)} (${at === '/' ? 'the object' : at} has ${keys}); fix the path or use 'add' to create it`;
}
