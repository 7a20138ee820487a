import type { Component } from './component';
import { Controller } from './controller';
import { crdName, CrdDefinition, gvkKey } from './crd';
import { resolveImage, splitRegistry } from './images';
import { Phase, PHASES } from './phases';
import { PlatformModel, PlatformObject } from './platform';
import { modelOf } from './platform-model';
import { allows } from './rbac';
import { VersionsTable } from './versions';

/**
 * The architecture of a built platform, computed from its resolved model (the synthesized
 * objects and the component graph), never kept by hand: what `mlplatform report` shows as
 * Markdown, JSON or a picture, and what synth's REPORT.md summarizes.
 */
export interface Architecture {
  readonly platform: string;
  /** Components in apply order. */
  readonly components: ArchitectureComponent[];
  /** Every CRD the platform emits, by name. */
  readonly crds: ArchitectureCrd[];
  /** Cross-component (and component -> prerequisite) dependencies. */
  readonly dependencies: Dependency[];
  /** Every webhook, shipped or created at run time. */
  readonly webhooks: ArchitectureWebhook[];
  readonly coldApply: ColdApply;
  /** CRDs too large for client-side apply. */
  readonly serverSideApply: string[];
  /** Object counts by kind, sorted by kind. */
  readonly objectCounts: Record<string, number>;
  /** Every image the platform pulls (pod specs and the components' versions tables): sorted, de-duplicated. */
  readonly images: string[];
  /**
   * Each image with where it comes from: the upstream reference (versions table and overrides,
   * without the registry mirror) and what the platform pulls; sorted by destination. An image
   * no versions table names (e.g. in a patch) is its own source.
   */
  readonly mirror: MirrorPair[];
}

/** One image to copy into a registry mirror. */
export interface MirrorPair {
  readonly source: string;
  readonly destination: string;
}

export interface ArchitectureComponent {
  readonly name: string;
  /** The construct class, e.g. KServe. */
  readonly class: string;
  readonly namespace: string;
  /** The upstream release its construct models (Component.release). */
  readonly version?: string;
  /** The images of its versions table it uses (Component.usedImageKeys), resolved (mirror and overrides applied), sorted by key. */
  readonly images: Array<{ readonly key: string; readonly image: string }>;
  /** Object count. */
  readonly objects: number;
}

export interface ArchitectureCrd {
  readonly name: string;
  readonly group: string;
  readonly kind: string;
  /** The component that emits it. */
  readonly owner: string;
  /** Components that ship a copy but use the owner's (useCrd with bundledCopy, or not chosen as owner). */
  readonly alsoDeclaredBy: string[];
  /** Components that use it without declaring it (Component.useCrd). */
  readonly usedBy: string[];
  readonly served: string[];
  readonly storage?: string;
  readonly serverSideApply: boolean;
}

/**
 * How one component depends on another (or on a prerequisite):
 * - watches: reads objects of a kind the other provides
 * - creates: creates (or ships) objects of a kind the other provides
 * - crd-owner: uses a CRD the other owns and emits
 * - webhook: the dependent's webhook intercepts the other's kind (`from` serves the webhook)
 * - infrastructure: needs infrastructure (e.g. cert-manager) the other provides
 */
export type DependencyKind = 'watches' | 'creates' | 'crd-owner' | 'webhook' | 'infrastructure';

export interface Dependency {
  /** The component that depends (or whose webhook intercepts). */
  readonly from: string;
  /** The component or prerequisite depended on. */
  readonly to: string;
  /** Whether `to` is a prerequisite (already on the cluster) rather than a component. */
  readonly toPrerequisite: boolean;
  readonly kind: DependencyKind;
  /** group/Kind, CRD name, or infrastructure name. */
  readonly what: string;
  readonly reason?: string;
  /** Whether it orders the apply (runtime-only requirements and webhooks do not order components). */
  readonly ordersApply: boolean;
}

export interface ArchitectureWebhook {
  /** The component that declares it (its configuration or CRD, or the operator creating it). */
  readonly component: string;
  readonly type: 'validating' | 'mutating' | 'conversion';
  /** Webhook configuration name (CRD name for conversion). */
  readonly configuration: string;
  readonly name: string;
  /** namespace/name:port of the backing Service. */
  readonly service?: string;
  readonly path?: string;
  readonly failurePolicy: string;
  /** What its rules intercept: group/resource (core group as 'core'). */
  readonly intercepts: string[];
  /** Other components whose kinds it intercepts. */
  readonly crossComponent: string[];
  /** Created at run time by an operator (not in the output). */
  readonly external: boolean;
  readonly createdBy?: string;
  readonly caSource?: string;
}

export interface ColdApply {
  readonly phases: ApplyPhase[];
  /** Each component with the components it is applied after (its ordering providers). */
  readonly componentOrder: Array<{ readonly component: string; readonly after: string[] }>;
  /** What waits for what across phases; each `holds` when the waiting side is in a later phase. */
  readonly waits: ApplyWait[];
}

export interface ApplyPhase {
  readonly phase: string;
  readonly objects: number;
  readonly components: string[];
  /** What must be ready before the next phase starts (from the kinds in the phase). */
  readonly readyWhen: string[];
}

export interface ApplyWait {
  readonly waiter: string;
  readonly waiterPhase: string;
  readonly waitsFor: string;
  readonly waitsForPhase: string;
  readonly why: string;
  readonly holds: boolean;
}

/** What "ready" means for the kinds a phase waits for (`mlplatform apply` waits for each, lib/cluster/waits.ts). */
export const READY_CONDITIONS: Readonly<Record<string, string>> = {
  Namespace: 'Namespaces Active',
  CustomResourceDefinition: 'CRDs Established',
  Deployment: 'Deployments Available',
  StatefulSet: 'StatefulSets rolled out',
  DaemonSet: 'DaemonSets rolled out',
  Certificate: 'Certificates Ready',
  Job: 'Jobs Complete',
};

function groupOf(apiVersion: string): string {
  return String(apiVersion ?? '').includes('/') ? String(apiVersion).split('/')[0] : '';
}

function objectLabel(o: PlatformObject): string {
  const ns = o.json.metadata?.namespace ? `${o.json.metadata.namespace}/` : '';
  return `${o.json.kind} ${ns}${o.json.metadata?.name}`;
}

/** Whether webhook rules name a resource of a group (wildcards included). */
function rulesName(rules: any[], group: string, plural: string): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
  return rules.some((r) => has(r.apiGroups, group) && (has(r.resources, plural) || (r.resources ?? []).includes('*/*')));
}

function interceptedResources(rules: any[]): string[] {
  const out = new Set<string>();
  for (const r of rules) for (const g of r.apiGroups ?? []) for (const res of r.resources ?? []) out.add(`${g === '' ? 'core' : g}/${res}`);
  return [...out].sort();
}

/** Computes the architecture of a resolved platform. `largeCrds` as PlatformBuild has it. */
export function architectureOf(m: PlatformModel, largeCrds: readonly string[] = []): Architecture {
  const name = (c: Component) => c.componentName;
  const model = modelOf(m);
  const byComponent = new Map<Component, PlatformObject[]>(m.components.map((c) => [c, []]));
  for (const o of m.objects) byComponent.get(o.component)?.push(o);

  const components: ArchitectureComponent[] = m.components.map((c) => {
    const images = c.usedImageKeys.map((key) => ({ key, image: c.resolvedImage(key) }));
    // The release the construct declares it models, not an image tag (KFP's first workload is MySQL).
    const version = c.release;
    return { name: name(c), class: c.constructor.name, namespace: c.namespaceName, ...(version ? { version } : {}), images, objects: byComponent.get(c)!.length };
  });

  // CRDs.
  const shared = new Map(model.sharedCrds.map(([crd, , users]) => [crd, users.map(name)]));
  const crds: ArchitectureCrd[] = [...m.crdOwners.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([crd, owner]) => {
    const def = owner.crds.find((d) => d.name === crd)!.definition;
    const storage = def.versions.find((v) => v.storage)?.name;
    return {
      name: crd,
      group: def.group,
      kind: def.kind,
      owner: name(owner),
      alsoDeclaredBy: shared.get(crd) ?? [],
      usedBy: m.components.filter((c) => c.usedCrds.some((u) => !u.bundledCopy && crdName(u.definition) === crd)).map(name),
      served: def.versions.filter((v) => v.served ?? true).map((v) => v.name),
      ...(storage ? { storage } : {}),
      serverSideApply: largeCrds.includes(crd),
    };
  });

  // Providers of kinds: components (CRD owners) and prerequisites.
  const kindProvider = model.kindOwners;
  const prerequisiteOf = (key: string) => m.platform.prerequisites.find((p) => p.provides.some((g) => gvkKey(g) === key))?.name;
  const controllersOf = (c: Component) => c.node.findAll().filter((x): x is Controller => x instanceof Controller);
  const rulesOf = (c: Component) => controllersOf(c).flatMap((ctl) => [...ctl.clusterRules, ...ctl.namespacedRules]);

  const deps: Dependency[] = [];
  const seen = new Set<string>();
  const add = (d: Dependency) => {
    const key = `${d.from}|${d.to}|${d.kind}|${d.what}`;
    if (seen.has(key) || d.from === d.to) return;
    seen.add(key);
    deps.push(d);
  };
  for (const c of m.components) {
    const emittedKinds = new Set(byComponent.get(c)!.map((o) => `${groupOf(o.json.apiVersion)}/${o.json.kind}`));
    const usedCrdKinds = new Set(c.usedCrds.filter((u) => !u.bundledCopy).map((u) => gvkKey(u.definition)));
    for (const r of c.requires) {
      const key = gvkKey(r);
      if (usedCrdKinds.has(key)) continue; // shown as crd-owner below
      const provider = kindProvider.get(key);
      const prerequisite = provider ? undefined : prerequisiteOf(key);
      if (!provider && !prerequisite) continue;
      const def: CrdDefinition | undefined = m.kinds.get(key);
      const creates = emittedKinds.has(key) || (def !== undefined && allows(rulesOf(c), r.group, def.plural, 'create'));
      add({
        from: name(c),
        to: provider ? name(provider) : prerequisite!,
        toPrerequisite: !provider,
        kind: creates ? 'creates' : 'watches',
        what: key,
        reason: r.reason,
        ordersApply: !!provider && !r.runtimeOnly,
      });
    }
    // Objects it ships of kinds another component or a prerequisite serves (e.g. Certificates).
    for (const key of [...emittedKinds].sort()) {
      const provider = kindProvider.get(key);
      const prerequisite = provider ? undefined : prerequisiteOf(key);
      if ((provider && provider !== c) || prerequisite) {
        add({ from: name(c), to: provider ? name(provider) : prerequisite!, toPrerequisite: !provider, kind: 'creates', what: key, reason: `ships ${key.split('/')[1]} objects`, ordersApply: false });
      }
    }
    for (const u of c.usedCrds.filter((x) => !x.bundledCopy)) { // bundled copies: below, with the CRDs it declares
      const crd = crdName(u.definition);
      const owner = m.crdOwners.get(crd);
      if (owner) add({ from: name(c), to: name(owner), toPrerequisite: false, kind: 'crd-owner', what: crd, reason: u.reason, ordersApply: true });
    }
    for (const d of c.crds) {
      const owner = m.crdOwners.get(d.name);
      if (owner && owner !== c) add({ from: name(c), to: name(owner), toPrerequisite: false, kind: 'crd-owner', what: d.name, reason: `ships a copy of ${d.name} and uses ${name(owner)}'s`, ordersApply: true });
    }
    for (const infra of c.infrastructure) {
      const provider = m.components.find((o) => o.providesInfrastructure.includes(infra));
      add({ from: name(c), to: provider ? name(provider) : infra, toPrerequisite: !provider, kind: 'infrastructure', what: infra, ordersApply: !!provider });
    }
  }

  // Webhooks, shipped and runtime-created.
  const crossOf = (c: Component, rules: any[]) => {
    const owners = new Map<string, Set<string>>();
    for (const [key, def] of m.kinds) {
      const owner = kindProvider.get(key);
      if (!owner || owner === c || !rulesName(rules, def.group, def.plural)) continue;
      const set = owners.get(name(owner)) ?? new Set<string>();
      set.add(key);
      owners.set(name(owner), set);
    }
    return owners;
  };
  const webhooks: ArchitectureWebhook[] = [];
  for (const w of model.webhooks) {
    const c = w.owner.component;
    const svc = w.clientConfig?.service;
    const cross = w.type === 'conversion' ? new Map<string, Set<string>>() : crossOf(c, w.rules);
    const ca = w.caSource;
    for (const [owner, kinds] of cross) for (const k of [...kinds].sort()) add({ from: name(c), to: owner, toPrerequisite: false, kind: 'webhook', what: k, reason: `${w.type} webhook ${w.name}`, ordersApply: false });
    webhooks.push({
      component: name(c),
      type: w.type,
      configuration: w.owner.json.metadata.name,
      name: w.name,
      ...(svc ? { service: `${svc.namespace}/${svc.name}:${svc.port ?? 443}` } : {}),
      ...(svc?.path ? { path: svc.path } : {}),
      failurePolicy: w.failurePolicy,
      intercepts: w.type === 'conversion' ? [`${w.owner.json.spec.group}/${w.owner.json.spec.names.plural}`] : interceptedResources(w.rules),
      crossComponent: [...cross.keys()].sort(),
      external: false,
      ...(ca ? { caSource: ca } : {}),
    });
  }
  for (const c of m.components) {
    for (const w of c.runtimeWebhooks) {
      const cross = crossOf(c, w.rules);
      for (const [owner, kinds] of cross) for (const k of [...kinds].sort()) add({ from: name(c), to: owner, toPrerequisite: false, kind: 'webhook', what: k, reason: `runtime-created ${w.type} webhook ${w.name}`, ordersApply: false });
      webhooks.push({
        component: name(c),
        type: w.type,
        configuration: w.configurationName,
        name: w.name,
        service: `${w.service.namespace}/${w.service.name}:${w.service.port}`,
        path: w.service.path,
        failurePolicy: w.failurePolicy ?? 'Fail',
        intercepts: interceptedResources(w.rules),
        crossComponent: [...cross.keys()].sort(),
        external: true,
        createdBy: `Deployment ${c.namespaceName}/${w.createdBy}`,
      });
    }
  }

  // Images: pod specs plus every versions table entry the component used (operators start some at run time).
  const images = new Set<string>();
  for (const { image } of model.images) images.add(image);
  for (const c of components) for (const i of c.images) images.add(i.image);
  const sources = new Map<string, string>();
  const settings = m.platform.imageSettings;
  const versions = settings.versions ?? VersionsTable.DEFAULT;
  for (const c of m.components) {
    for (const [key, spec] of Object.entries(c.images)) {
      const resolved = versions.resolve(c, key, spec).spec;
      const source = resolveImage(`${c.componentName}/${key}`, resolved, { ...settings, registryMirror: undefined });
      if (settings.registryMirror) sources.set(c.resolvedImage(key), qualifiedImage(source));
    }
  }

  return {
    platform: m.platform.name,
    components,
    crds,
    dependencies: deps,
    webhooks,
    coldApply: coldApplyOf(m),
    serverSideApply: [...largeCrds],
    objectCounts: { ...model.objectCounts },
    images: [...images].sort(),
    mirror: [...images].sort().map((destination) => ({ source: sources.get(destination) ?? destination, destination })),
  };
}

/** Formats mlplatform mirror writes. */
export const MIRROR_FORMATS = ['skopeo', 'imageset', 'tsv'] as const;
export type MirrorFormat = (typeof MIRROR_FORMATS)[number];

/**
 * The mirror pairs of an architecture; with `registry`, destinations under that registry
 * instead (`registry/<path>`, the path as a registry mirror keeps it: Docker Hub short names
 * under library/).
 */
export function mirrorPairs(a: Architecture, registry?: string): MirrorPair[] {
  if (!registry) return a.mirror;
  const mirror = registry.replace(/\/+$/, '');
  const pairs = a.mirror.map((p) => {
    const { name, suffix } = splitReference(p.source);
    return { source: qualifiedImage(p.source), destination: `${mirror}/${splitRegistry(name).path}${suffix}` };
  });
  return pairs.sort((x, y) => (x.destination < y.destination ? -1 : x.destination > y.destination ? 1 : 0));
}

/** `name` and `:tag` / `@digest` of an image reference. */
function splitReference(ref: string): { name: string; suffix: string } {
  const at = ref.indexOf('@');
  const end = at >= 0 ? at : ref.lastIndexOf(':') > ref.lastIndexOf('/') ? ref.lastIndexOf(':') : ref.length;
  return { name: ref.slice(0, end), suffix: ref.slice(end) };
}

/** A reference with its registry spelled out (Docker Hub: docker.io/library/...), as copy tools want it. */
export function qualifiedImage(ref: string): string {
  const { name, suffix } = splitReference(ref);
  const r = splitRegistry(name);
  return r.registry ? ref : `docker.io/${r.path}${suffix}`;
}

/**
 * Mirror pairs as a copy tool takes them: `skopeo` one `skopeo copy --all` line per image;
 * `imageset` an oc-mirror (v2) ImageSetConfiguration listing the sources (oc-mirror keeps each
 * source's path under the destination registry given on its command line); `tsv` source and
 * destination separated by a tab.
 */
export function mirrorList(pairs: readonly MirrorPair[], format: MirrorFormat): string {
  const copies = pairs.filter((p) => p.source !== p.destination || format === 'imageset');
  if (format === 'skopeo') return copies.map((p) => `skopeo copy --all docker://${p.source} docker://${p.destination}\n`).join('');
  if (format === 'tsv') return copies.map((p) => `${p.source}\t${p.destination}\n`).join('');
  const sources = [...new Set(copies.map((p) => p.source))].sort();
  return ['kind: ImageSetConfiguration', 'apiVersion: mirror.openshift.io/v2alpha1', 'mirror:', '  additionalImages:', ...sources.map((s) => `    - name: ${s}`), ''].join('\n');
}

function coldApplyOf(m: PlatformModel): ColdApply {
  const model = modelOf(m);
  const phaseIdx = (p: Phase) => PHASES.indexOf(p);
  const phases: ApplyPhase[] = [];
  for (const phase of PHASES) {
    const objs = m.objects.filter((o) => o.phase === phase);
    if (!objs.length) continue;
    const kinds = new Set(objs.map((o) => o.json.kind));
    const readyWhen = Object.entries(READY_CONDITIONS).filter(([k]) => kinds.has(k)).map(([, v]) => v);
    if (!readyWhen.length) readyWhen.push('applied');
    phases.push({ phase, objects: objs.length, components: [...new Set(objs.map((o) => o.component.componentName))], readyWhen });
  }

  // Component order: the ordering edges of the graph, as Platform.resolve derives them.
  const componentOrder = m.components.map((c) => {
    const after = new Set<string>();
    for (const r of c.requires) {
      if (r.runtimeOnly) continue;
      const owner = model.kindOwners.get(gvkKey(r));
      if (owner && owner !== c) after.add(owner.componentName);
    }
    for (const d of c.crds) {
      const owner = m.crdOwners.get(d.name);
      if (owner && owner !== c) after.add(owner.componentName);
    }
    return { component: c.componentName, after: [...after].sort() };
  });

  const waits: ApplyWait[] = [];
  // Custom resources wait for their CRD to be established.
  const crdObjects = new Map(m.objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => [o.json.metadata.name, o]));
  const crdOfKind = new Map<string, PlatformObject>();
  for (const def of m.kinds.values()) {
    const obj = crdObjects.get(crdName(def));
    if (obj) crdOfKind.set(gvkKey(def), obj);
  }
  const crWaits = new Map<string, { phases: Set<string>; count: number; crd: PlatformObject; holds: boolean }>();
  for (const o of m.objects) {
    const key = `${groupOf(o.json.apiVersion)}/${o.json.kind}`;
    const crd = crdOfKind.get(key);
    if (!crd) continue;
    const entry = crWaits.get(key) ?? { phases: new Set<string>(), count: 0, crd, holds: true };
    entry.phases.add(o.phase);
    entry.count++;
    entry.holds = entry.holds && phaseIdx(o.phase) > phaseIdx(crd.phase);
    crWaits.set(key, entry);
  }
  for (const [key, e] of [...crWaits.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    waits.push({ waiter: `${e.count} ${key}`, waiterPhase: [...e.phases].join(', '), waitsFor: `CRD ${e.crd.json.metadata.name} Established`, waitsForPhase: e.crd.phase, why: 'the API server serves the kind only once its CRD is established', holds: e.holds });
  }
  // Webhook configurations wait for their backend workload to be available.
  for (const w of model.webhooks) {
    if (w.type === 'conversion') continue;
    const backend = w.backend.workload;
    if (!backend) continue;
    waits.push({
      waiter: `${w.owner.json.kind} ${w.owner.json.metadata.name} (${w.name})`,
      waiterPhase: w.owner.phase,
      waitsFor: `${objectLabel(backend)} Available`,
      waitsForPhase: backend.phase,
      why: w.failurePolicy === 'Fail' ? 'fail-closed: requests it intercepts fail until its backend answers' : 'fail-open: requests pass unchecked until its backend answers',
      holds: phaseIdx(w.owner.phase) > phaseIdx(backend.phase),
    });
  }
  // Custom resources of a CRD with a conversion webhook wait for its backend.
  for (const w of model.webhooks) {
    if (w.type !== 'conversion') continue;
    const backend = w.backend.workload;
    const crs = m.objects.filter((o) => `${groupOf(o.json.apiVersion)}/${o.json.kind}` === `${w.owner.json.spec.group}/${w.owner.json.spec.names.kind}`);
    if (!backend || !crs.length) continue;
    waits.push({
      waiter: `${crs.length} ${w.owner.json.spec.group}/${w.owner.json.spec.names.kind}`,
      waiterPhase: [...new Set(crs.map((o) => o.phase))].join(', '),
      waitsFor: `${objectLabel(backend)} Available`,
      waitsForPhase: backend.phase,
      why: `conversion webhook of CRD ${w.owner.json.metadata.name}`,
      holds: crs.every((o) => phaseIdx(o.phase) > phaseIdx(backend.phase)),
    });
  }
  return { phases, componentOrder, waits };
}

const EDGE_STYLE: Record<DependencyKind, { dot: string; mermaid: string; color: string; line: string }> = {
  'watches': { dot: 'color="#1f6feb"', mermaid: '-->', color: '#1f6feb', line: 'blue, solid' },
  'creates': { dot: 'color="#1a7f37", penwidth=2', mermaid: '==>', color: '#1a7f37', line: 'green, thick' },
  'crd-owner': { dot: 'color="#8250df", style=dashed', mermaid: '-.->', color: '#8250df', line: 'purple, dashed' },
  'webhook': { dot: 'color="#cf222e", style=dotted', mermaid: '-.->', color: '#cf222e', line: 'red, dotted' },
  'infrastructure': { dot: 'color="#6e7781", style=dashed', mermaid: '-.->', color: '#6e7781', line: 'grey, dashed' },
};

/** The one direction every graph of the project uses. */
export const GRAPH_DIRECTION = 'arrows point from a component to what it depends on';

/** The legend of the dependency graphs: each edge kind, its line and what it means. */
export const GRAPH_LEGEND: ReadonlyArray<{ kind: DependencyKind; line: string; mermaid: string; means: string }> = [
  { kind: 'watches', means: 'watches or reads a kind the other serves' },
  { kind: 'creates', means: 'creates objects of a kind the other serves' },
  { kind: 'crd-owner', means: 'uses a CRD the other owns and emits' },
  { kind: 'webhook', means: 'its objects pass through the other\'s webhook' },
  { kind: 'infrastructure', means: 'needs infrastructure the other provides' },
].map((l) => ({ ...l, kind: l.kind as DependencyKind, line: EDGE_STYLE[l.kind as DependencyKind].line, mermaid: EDGE_STYLE[l.kind as DependencyKind].mermaid }));

/** The legend as Markdown lines. */
export function graphLegendMarkdown(): string[] {
  return [`The ${GRAPH_DIRECTION}. Edge kinds:`, '', ...GRAPH_LEGEND.map((l) => `- \`${l.mermaid}\` ${l.kind} (${l.line}): ${l.means}`)];
}

/** One edge per (from, to, kind), with the kinds' names joined. */
function graphEdges(a: Architecture): Array<{ from: string; to: string; kind: DependencyKind; label: string; toPrerequisite: boolean }> {
  const edges = new Map<string, { from: string; to: string; kind: DependencyKind; what: string[]; toPrerequisite: boolean }>();
  for (const d of a.dependencies) {
    const key = `${d.from}|${d.to}|${d.kind}`;
    const e = edges.get(key) ?? { from: d.from, to: d.to, kind: d.kind, what: [], toPrerequisite: d.toPrerequisite };
    const short = d.kind === 'crd-owner' || d.kind === 'infrastructure' ? d.what.split('.')[0] : d.what.split('/')[1];
    if (!e.what.includes(short)) e.what.push(short);
    edges.set(key, e);
  }
  return [...edges.values()].map((e) => ({ ...e, label: `${e.kind}: ${e.what.join(', ')}` }));
}

function nodeId(name: string): string {
  return `n_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** The dependency graph as a Mermaid flowchart (arrows point at what a component depends on; edges coloured by kind as in the SVG). */
export function architectureMermaid(a: Architecture): string {
  const lines = [`%% ${GRAPH_DIRECTION}; ${GRAPH_LEGEND.map((l) => `${l.mermaid} ${l.kind} (${l.line})`).join(', ')}`, 'graph LR'];
  for (const c of a.components) lines.push(`  ${nodeId(c.name)}["${c.name}${c.version ? ` ${c.version}` : ''}"]`);
  const external = [...new Set(a.dependencies.filter((d) => d.toPrerequisite).map((d) => d.to))].sort();
  for (const p of external) lines.push(`  ${nodeId(p)}(["${p} (prerequisite)"])`);
  const edges = graphEdges(a);
  for (const e of edges) lines.push(`  ${nodeId(e.from)} ${EDGE_STYLE[e.kind].mermaid}|${e.label.replace(/[|"]/g, '')}| ${nodeId(e.to)}`);
  edges.forEach((e, i) => lines.push(`  linkStyle ${i} stroke:${EDGE_STYLE[e.kind].color}`));
  return lines.join('\n') + '\n';
}

function dotString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** The dependency graph in Graphviz DOT (arrows point at what a component depends on). */
export function architectureDot(a: Architecture): string {
  const lines = [
    `digraph ${dotString(a.platform)} {`,
    '  rankdir=LR;',
    `  label=${dotString(`platform ${a.platform}: arrows point at what a component depends on`)}; labelloc=t; fontname="Helvetica";`,
    '  node [shape=box, style="rounded,filled", fillcolor="#f6f8fa", fontname="Helvetica", fontsize=11, margin="0.25,0.08"];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  for (const c of a.components) lines.push(`  ${nodeId(c.name)} [label=${dotString(`${c.name}\n${c.class}${c.version ? ` ${c.version}` : ''}`)}];`);
  const external = [...new Set(a.dependencies.filter((d) => d.toPrerequisite).map((d) => d.to))].sort();
  for (const p of external) lines.push(`  ${nodeId(p)} [label=${dotString(`${p}\n(prerequisite)`)}, shape=ellipse, style=dashed];`);
  for (const e of graphEdges(a)) lines.push(`  ${nodeId(e.from)} -> ${nodeId(e.to)} [label=${dotString(e.label)}, ${EDGE_STYLE[e.kind].dot}];`);
  // The legend: one sample edge per kind, in its colour and line style.
  lines.push('  subgraph cluster_legend {', `    label=${dotString('legend')}; fontsize=10; style=dashed; color="#d0d7de";`,
    '    node [shape=plaintext, style="", fillcolor="", fontsize=9, margin=0];');
  GRAPH_LEGEND.forEach((l, i) => {
    lines.push(`    legend_${i}_from [label=""]; legend_${i}_to [label=${dotString(`${l.kind}: ${l.means}`)}];`);
    lines.push(`    legend_${i}_from -> legend_${i}_to [${EDGE_STYLE[l.kind].dot}];`);
  });
  lines.push('  }', '}');
  return lines.join('\n') + '\n';
}

/** Renders DOT to SVG with Graphviz compiled to WebAssembly (no binary, no network). */
export async function renderSvg(dot: string): Promise<string> {
  // Loaded on demand: the WebAssembly module is large and only the picture needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const viz = await (require('@viz-js/viz') as typeof import('@viz-js/viz')).instance();
  return viz.renderString(dot, { format: 'svg' });
}

/** The architecture page in Markdown. */
export function architectureMarkdown(a: Architecture): string {
  const lines: string[] = [`# Architecture of platform ${a.platform}`, '', 'Generated by cdk8s-mlplatform from the synthesized objects; do not edit.', ''];
  lines.push(...architectureSections(a, 2));
  return lines.join('\n') + '\n';
}

/** The sections of the architecture page, in order. */
export const ARCHITECTURE_SECTIONS = ['components', 'crds', 'dependencies', 'webhooks', 'cold-apply', 'server-side-apply', 'object-counts', 'images', 'graph'] as const;
export type ArchitectureSection = (typeof ARCHITECTURE_SECTIONS)[number];

/** The sections of the architecture page (all, or `only`), headings at `level`. */
export function architectureSections(a: Architecture, level: number, only: readonly ArchitectureSection[] = ARCHITECTURE_SECTIONS): string[] {
  const h = '#'.repeat(level);
  const sections = new Map<ArchitectureSection, string[]>();
  let lines: string[] = [];
  const section = (key: ArchitectureSection) => sections.set(key, lines = []);
  section('components');
  lines.push(`${h} Components and versions`, '', '| component | class | namespace | version | objects | images |', '| --- | --- | --- | --- | --- | --- |');
  for (const c of a.components) lines.push(`| ${c.name} | ${c.class} | ${c.namespace} | ${c.version ?? ''} | ${c.objects} | ${c.images.map((i) => `${i.key}: \`${i.image}\``).join('<br>')} |`);
  section('crds');
  lines.push(`${h} CRD ownership map`, '', '| CRD | kind | owner | served (storage) | also declared by | used by |', '| --- | --- | --- | --- | --- | --- |');
  for (const c of a.crds) lines.push(`| ${c.name}${c.serverSideApply ? ' (server-side apply)' : ''} | ${c.kind} | ${c.owner} | ${c.served.join(', ')}${c.storage ? ` (${c.storage})` : ''} | ${c.alsoDeclaredBy.join(', ')} | ${c.usedBy.join(', ')} |`);
  section('dependencies');
  lines.push(`${h} Cross-component dependencies`, '');
  if (!a.dependencies.length) {lines.push('None: the components are independent.');} else {
    lines.push('| component | depends on | how | what | orders apply | why |', '| --- | --- | --- | --- | --- | --- |');
    for (const d of a.dependencies) lines.push(`| ${d.from} | ${d.to}${d.toPrerequisite ? ' (prerequisite)' : ''} | ${d.kind} | ${d.what} | ${d.ordersApply ? 'yes' : 'no'} | ${(d.reason ?? '').replace(/\|/g, '\\|')} |`);
  }
  section('webhooks');
  lines.push(`${h} Webhooks per component`, '');
  const byComponent = new Map<string, ArchitectureWebhook[]>();
  for (const w of a.webhooks) byComponent.set(w.component, [...(byComponent.get(w.component) ?? []), w]);
  if (!a.webhooks.length) lines.push('No webhooks.');
  for (const [c, ws] of byComponent) {
    lines.push(`- ${c}`);
    for (const w of ws) {
      const notes = [
        ...(w.crossComponent.length ? [`cross-component: intercepts kinds of ${w.crossComponent.join(', ')}`] : []),
        ...(w.external ? [`external: created at run time by ${w.createdBy}`] : []),
      ];
      const what = w.type === 'conversion' ? `conversion webhook of CRD ${w.configuration}` : `${w.type} ${w.configuration}/${w.name}`;
      lines.push(`  - ${what} -> ${w.service ?? 'no service'}${w.path ?? ''}, failurePolicy ${w.failurePolicy}; intercepts ${w.intercepts.join(', ') || 'nothing'}${notes.length ? ` (${notes.join('; ')})` : ''}`);
    }
  }
  const cross = a.webhooks.filter((w) => w.crossComponent.length);
  const external = a.webhooks.filter((w) => w.external);
  lines.push('', `Cross-component webhooks: ${cross.length ? cross.map((w) => `${w.component} ${w.configuration}/${w.name}`).join(', ') : 'none'}.`);
  lines.push(`External (runtime-created) webhooks: ${external.length ? external.map((w) => `${w.component} ${w.configuration}/${w.name}`).join(', ') : 'none'}.`);
  section('cold-apply');
  lines.push(`${h} Cold apply`, '', 'Apply each phase and wait until it is ready before the next:', '');
  for (const p of a.coldApply.phases) lines.push(`1. \`${p.phase}/\`: ${p.objects} objects of ${p.components.join(', ')}; ready when: ${p.readyWhen.join(', ')}`);
  lines.push('', 'Component order (each after the components it needs):', '');
  for (const c of a.coldApply.componentOrder) lines.push(`- ${c.component}${c.after.length ? ` after ${c.after.join(', ')}` : ''}`);
  const broken = a.coldApply.waits.filter((w) => !w.holds);
  lines.push('', `What waits for what (${a.coldApply.waits.length - broken.length} of ${a.coldApply.waits.length} hold: the waiting side is in a later phase):`, '');
  for (const w of a.coldApply.waits) lines.push(`- ${w.holds ? 'ok' : 'BROKEN'}: ${w.waiter} (${w.waiterPhase}) waits for ${w.waitsFor} (${w.waitsForPhase}): ${w.why}`);
  section('server-side-apply');
  lines.push(`${h} Server-side apply`, '');
  lines.push(a.serverSideApply.length ? `Apply with \`kubectl apply --server-side\`: ${a.serverSideApply.join(', ')}.` : 'No object needs server-side apply.');
  section('object-counts');
  lines.push(`${h} Object counts by kind`, '', '| kind | count |', '| --- | --- |');
  for (const [k, v] of Object.entries(a.objectCounts)) lines.push(`| ${k} | ${v} |`);
  lines.push(`| total | ${Object.values(a.objectCounts).reduce((x, y) => x + y, 0)} |`);
  section('images');
  lines.push(`${h} Images to mirror`, '', '```', ...a.images, '```');
  const copied = a.mirror.filter((p) => p.source !== p.destination);
  if (copied.length) {
    lines.push('', 'From their sources (`mlplatform mirror` prints these as `skopeo copy` lines or an ImageSetConfiguration):', '',
      '| source | destination |', '| --- | --- |', ...copied.map((p) => `| \`${p.source}\` | \`${p.destination}\` |`));
  }
  section('graph');
  lines.push(`${h} Dependency graph`, '', ...graphLegendMarkdown(), '', '```mermaid', architectureMermaid(a).trimEnd(), '```');
  return only.flatMap((k, i) => (i ? ['', ...sections.get(k)!] : sections.get(k)!));
}
