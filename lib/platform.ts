import { ApiObject, App } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import type { ArchitectureDeclarations, ArchitectureFacts } from './architecture-facts';
import { CertificateProvider } from './certificates';
import { Component, CrdClaim, Prerequisite, Requirement } from './component';
import { CrdDefinition, crdName, gvkKey } from './crd';
import { Customization, PlatformCustomization } from './customization';
import { ImageSettings, ImageSpec, registryMirrorProblems, resolveImage } from './images';
import { compareKubernetesVersions, DEFAULT_KUBERNETES_VERSION, KubernetesVersion, MINIMUM_KUBERNETES_ANNOTATION, MINIMUM_KUBERNETES_FEATURE_ANNOTATION, normalizeKubernetesVersion, OLDEST_KUBERNETES_VERSION } from './kubernetes-version';
import { MetricsFence, resolveMetricsFence, sameNamespacePolicy } from './network-policy';
import type { ParityDeviation } from './parity';
import { kindRank, Phase, phaseOf, PHASES } from './phases';
import { collectsProblems, reportProblem } from './problems';
import { checkPropKeys } from './prop-keys';
import { RuntimeChange, runtimeChangesOf } from './runtime-changes';

/**
 * A platform's props: its name and what the cluster has, plus the typed customization
 * (components, images, controllers, namespaces, certificates, webhooks, patches) that every
 * platform passes through from its own props.
 */
export interface PlatformProps extends PlatformCustomization {
  /** Folder name under dist/ (a DNS label). */
  readonly name: string;
  /**
   * Infrastructure already present on the cluster (e.g. CERT_MANAGER): its kinds count as
   * provided, and components that need it are satisfied.
   * @default []
   */
  readonly prerequisites?: Prerequisite[];
  /**
   * Which component owns a CRD that several components declare: CRD name -> component id
   * (e.g. `{ 'servingruntimes.serving.kserve.io': 'kserve' }`). Ids, because components are
   * created inside the platform, after its props. `resolveCrd` does the same later.
   */
  readonly crdOwners?: Record<string, string>;
  /**
   * Namespaces that exist on the cluster already (objects may live there without a Namespace
   * object), in addition to 'default' and 'kube-system'. See also `addExistingNamespace`.
   * @default - only 'default' and 'kube-system'
   */
  readonly existingNamespaces?: string[];
  /**
   * Namespaces the platform creates (a Namespace object each, in the foundation phase), e.g.
   * tenant namespaces outside Profiles that LocalQueues or InferenceServices live in. See also
   * `addNamespace`.
   * @default []
   */
  readonly createNamespaces?: Array<string | PlatformNamespace>;
}

/** A namespace the platform creates. */
export interface PlatformNamespace {
  readonly name: string;
  /** Labels of its Namespace object. @default {} */
  readonly labels?: Record<string, string>;
}

/** Namespaces that exist on every cluster. */
export const DEFAULT_EXISTING_NAMESPACES: readonly string[] = ['default', 'kube-system'];

/** The Namespace objects components emit for one namespace, and the labels they carry. */
export interface SharedNamespace {
  /** label -> value and the component that asked for it (none: the platform's customization). */
  readonly labels: Map<string, { value: string; component?: string }>;
  readonly objects: ApiObject[];
}

/** One emitted object with everything checks and writers need. */
export interface PlatformObject {
  readonly json: any;
  readonly apiObject: ApiObject;
  readonly component: Component;
  readonly path: string;
  readonly phase: Phase;
  /** Position in apply order (phase, then component order, then declaration). */
  readonly order: number;
}

/** The resolved platform: ordered components and objects. */
export interface PlatformModel {
  readonly platform: Platform;
  readonly components: Component[];
  readonly objects: PlatformObject[];
  /** CRD name -> owner component */
  readonly crdOwners: Map<string, Component>;
  /** group/kind -> the CRD definition that serves it, for the platform's CRDs */
  readonly kinds: Map<string, CrdDefinition>;
  /** group/kind served by prerequisites */
  readonly externalKinds: Set<string>;
  /** Fields of emitted objects that controllers change at run time (for checks and GitOps ignore rules). */
  readonly runtimeChanges: RuntimeChange[];
}

/**
 * A distribution: a set of components with one certificate provider, one image policy
 * and one set of prerequisites. At synth it resolves the component graph, orders and
 * checks everything, and writes dist/<name>/<phase>/.
 */
export class Platform extends Construct {
  public static of(c: IConstruct): Platform {
    for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (s instanceof Platform) return s;
    throw new Error(`${c.node.path}: not inside a Platform`);
  }

  public readonly name: string;
  public readonly certificates: CertificateProvider;
  public readonly prerequisites: Prerequisite[];
  public readonly existingNamespaces: string[];
  /** The oldest Kubernetes the platform must run on, MAJOR.MINOR. */
  public readonly kubernetesVersion: KubernetesVersion;
  /** The validated customization; components and lib constructs read it as they are built. */
  public readonly customization: Customization;
  /** Registry mirror, overrides and versions data for every component's images. */
  public readonly imageSettings: ImageSettings;
  /** The fence on plain-HTTP metrics ports (PlatformCustomization.metricsFence). */
  public readonly metricsFence: MetricsFence;
  private declaredArchitecture?: ArchitectureDeclarations;
  private comparedArchitecture?: ArchitectureFacts;
  /** CRD name -> id of the owning component */
  private readonly explicitOwners: Map<string, string>;
  /** Components created but switched off by customization (out of the construct tree). */
  private readonly disabledComponents: Component[] = [];
  private readonly sharedNamespaces = new Map<string, SharedNamespace>();

  constructor(scope: Construct, id: string, props: PlatformProps) {
    super(scope, id);
    // Wrong values are recorded (lib/problems.ts) and reported together when the platform builds.
    // A platform class of its own (KubeflowPlatform, ...) checks its own props' keys.
    if (new.target === Platform) checkPropKeys(this, 'Platform', props);
    if (typeof props.name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.name)) {
      reportProblem(this, `name '${props.name}' must be a lower-case DNS label (it names the folder under dist/)`);
    }
    this.name = props.name;
    try {
      this.customization = new Customization(this.node.path, props);
    } catch (e) {
      if (!collectsProblems(this)) throw new Error(`${this.node.path}: invalid customization of platform '${props.name}':\n${(e as Error).message}`);
      for (const line of (e as Error).message.split('\n')) reportProblem(this, line);
      this.customization = new Customization(this.node.path, { components: props.components });
    }
    this.certificates = props.certificates ?? CertificateProvider.certManager();
    this.imageSettings = props.images ?? {};
    this.metricsFence = resolveMetricsFence(this.node.path, props.metricsFence);
    // The mirror is checked here; overrides where each image resolves (naming the image key).
    const imageProblems = this.imageSettings.registryMirror === undefined ? [] : registryMirrorProblems(this.imageSettings.registryMirror).map((p) => `images.${p}`);
    if (imageProblems.length) {
      if (!collectsProblems(this)) throw new Error(`${this.node.path}: invalid image settings of platform '${props.name}':\n${imageProblems.join('\n')}`);
      for (const p of imageProblems) reportProblem(this, p);
      this.imageSettings = { ...this.imageSettings, registryMirror: undefined };
    }
    this.prerequisites = props.prerequisites ?? [];
    // Merged with the defaults: listing one namespace must not make 'default' unknown.
    this.existingNamespaces = [...DEFAULT_EXISTING_NAMESPACES];
    for (const n of props.existingNamespaces ?? []) this.addExistingNamespace(n);
    for (const n of props.createNamespaces ?? []) this.addNamespace(typeof n === 'string' ? n : n.name, typeof n === 'string' ? {} : n.labels);
    this.kubernetesVersion = props.kubernetesVersion === undefined ? DEFAULT_KUBERNETES_VERSION
      : normalizeKubernetesVersion(props.kubernetesVersion, `${this.node.path}: kubernetesVersion`);
    if (compareKubernetesVersions(this.kubernetesVersion, OLDEST_KUBERNETES_VERSION) < 0) {
      throw new Error(`${this.node.path}: kubernetesVersion '${props.kubernetesVersion}' is older than ${OLDEST_KUBERNETES_VERSION}, the oldest Kubernetes this project models: target ${OLDEST_KUBERNETES_VERSION} or newer`);
    }
    this.explicitOwners = new Map(Object.entries(props.crdOwners ?? {}));
  }

  /**
   * Declares a namespace the platform creates: a Namespace object (with `labels`) in the
   * foundation phase, before every namespaced object. Components that create their own
   * namespace do not need this.
   */
  public addNamespace(name: string, labels: Record<string, string> = {}): void {
    checkNamespaceName(this.node.path, 'addNamespace', name);
    let holder = this.node.tryFindChild(PlatformNamespaces.ID) as PlatformNamespaces | undefined;
    if (!holder) holder = new PlatformNamespaces(this);
    holder.add(name, labels);
  }

  /**
   * Labels the Namespace objects the platform's components emit for `namespace`, as a
   * distribution labels its namespace (e.g. Kubeflow's istio-injection=enabled). Call it once
   * the components exist; a namespace no component creates is left alone. The
   * customization's labels (namespaces.labels) win; a component asking another value for a
   * label is an error.
   */
  public labelNamespace(namespace: string, labels: Readonly<Record<string, string>>): void {
    checkNamespaceName(this.node.path, 'labelNamespace', namespace);
    const custom = this.customization.namespaceLabelsOf(namespace);
    for (const c of this.components) {
      for (const o of c.node.findAll()) {
        if (!(o instanceof ApiObject) || o.kind !== 'Namespace' || o.metadata.name !== namespace) continue;
        for (const [k, v] of Object.entries(labels)) {
          if (k in custom) continue;
          const had = o.metadata.getLabel(k);
          if (had !== undefined && had !== v) {
            throw new Error(`${this.node.path}: labelNamespace: namespace '${namespace}' gets ${k}=${v} from the platform, but component '${c.componentName}' (${o.node.path}) sets ${k}=${had}; choose the value with customization namespaces.labels: { '${namespace}': { '${k}': '...' } }`);
          }
          o.metadata.addLabel(k, v);
        }
      }
    }
  }

  /**
   * Isolates a namespace, as kubeflow/manifests' common/networkpolicies isolates `kubeflow`:
   * a NetworkPolicy `default-allow-same-namespace` selects every pod there and admits the
   * namespace's own pods, so that nothing else reaches them unless a policy admits it; each
   * component in the namespace adds those (NetworkPolicyProps.namespaceIsolation: the
   * gateway's namespace to its web app, the API server to its webhook port). MLP064 then
   * fails synth for a webhook whose port no policy opens to the API server.
   */
  public isolateNamespace(namespace: string, options: IsolateNamespaceOptions = {}): void {
    checkNamespaceName(this.node.path, 'isolateNamespace', namespace);
    let holder = this.node.tryFindChild(NamespaceIsolation.ID) as NamespaceIsolation | undefined;
    if (!holder) holder = new NamespaceIsolation(this, NamespaceIsolation.ID, { namespace });
    holder.isolate(namespace, options.parityDeviations ?? []);
  }

  /** Whether the platform isolates a namespace (`isolateNamespace`). */
  public isolatesNamespace(namespace: string): boolean {
    const holder = this.node.tryFindChild(NamespaceIsolation.ID) as NamespaceIsolation | undefined;
    return !!holder && holder.isolates(namespace);
  }

  /** Declares a namespace that exists on the cluster already (no Namespace object is emitted). */
  public addExistingNamespace(name: string): void {
    checkNamespaceName(this.node.path, 'existingNamespaces', name);
    if (!this.existingNamespaces.includes(name)) this.existingNamespaces.push(name);
  }

  /** The components, in declaration order. */
  public get components(): Component[] {
    return this.node.children.filter((c): c is Component => c instanceof Component);
  }

  /**
   * Whether customization leaves the component with this id on (`components: { id: false }`
   * turns it off). Platforms may ask before creating a component; a component created while
   * off is taken out of the platform (see `Component`).
   */
  public isComponentEnabled(id: string): boolean {
    return this.customization.isComponentEnabled(id);
  }

  /**
   * The labels components ask for on a namespace's Namespace object, by key (shared by every
   * component in that namespace; see `Component.addNamespace`).
   */
  public namespaceLabels(namespace: string): SharedNamespace {
    let shared = this.sharedNamespaces.get(namespace);
    if (!shared) {
      // Labels the customization sets come first and win (no component).
      const set = this.customization.namespaceLabelsOf(namespace);
      this.sharedNamespaces.set(namespace, shared = { labels: new Map(Object.entries(set).map(([k, value]) => [k, { value }])), objects: [] });
    }
    return shared;
  }

  /** Takes a component that customization turns off out of the platform. @internal */
  public _disableComponent(c: Component): void {
    this.node.tryRemoveChild(c.node.id);
    this.disabledComponents.push(c);
  }

  /** Assigns a CRD that several components declare to one of them. */
  public resolveCrd(crd: string, owner: Component): void {
    this.explicitOwners.set(crd, owner.node.id);
  }

  /** The component that emits a CRD (undefined while it is unresolved). */
  public crdOwner(crd: string): Component | undefined {
    const explicit = this.explicitOwners.get(crd);
    if (explicit) return this.components.find((c) => c.node.id === explicit);
    return implicitOwner(this.components.filter((c) => c.crds.some((d) => d.name === crd)), crd);
  }

  public resolveImage(key: string, spec: ImageSpec): string {
    try {
      return resolveImage(key, spec, this.imageSettings);
    } catch (e) {
      throw new Error(`${this.node.path}: ${(e as Error).message}`);
    }
  }

  public hasPrerequisite(name: string): boolean {
    return this.prerequisites.some((p) => p.name === name);
  }

  /**
   * Whether the platform serves a kind: a prerequisite provides it or a component declares
   * its CRD (for objects emitted only where their kind exists, e.g. Istio policies).
   */
  public servesKind(group: string, kind: string): boolean {
    return this.prerequisites.some((p) => p.provides.some((g) => g.group === group && g.kind === kind))
      || this.components.some((c) => c.crds.some((d) => d.definition.group === group && d.definition.kind === kind));
  }

  /**
   * Resolves the component graph (requires -> provides), orders components and objects,
   * and returns the model. Throws one error listing every graph problem.
   */
  /**
   * Declares how this platform differs from the architecture document that describes it
   * (component names mapped, each difference classified; lib/architecture-compare.ts).
   * `mlplatform report --compare-architecture` and REPORT.md classify differences by it.
   */
  public declareArchitecture(declarations: ArchitectureDeclarations): void {
    this.declaredArchitecture = declarations;
  }

  /** The declared differences from the architecture: none unless the platform declares them. */
  public get architectureDeclarations(): ArchitectureDeclarations {
    return this.declaredArchitecture ?? { componentNames: [], differences: [] };
  }

  /** Adds a section to REPORT.md comparing the platform with an architecture document's facts (`architectureFactsOf`). */
  public compareWithArchitecture(facts: ArchitectureFacts): void {
    this.comparedArchitecture = facts;
  }

  /** The architecture document's facts REPORT.md compares with, if given. */
  public get architectureToCompare(): ArchitectureFacts | undefined {
    return this.comparedArchitecture;
  }

  public resolve(): PlatformModel {
    const components = this.components;
    const errors: string[] = [];
    if (!components.length) errors.push(`${this.node.path}: platform '${this.name}' has no components`);
    errors.push(...this.customization.unresolvedProblems(
      [...components, ...this.disabledComponents].flatMap((c) => Object.keys(c.images).map((k) => `${c.componentName}/${k}`)),
      components.map((c) => c.namespaceName)));

    // 1. CRD ownership: one owner per CRD.
    const crdOwners = new Map<string, Component>();
    const declared = new Map<string, Component[]>();
    for (const c of components) for (const d of c.crds) declared.set(d.name, [...(declared.get(d.name) ?? []), c]);
    for (const [name, owners] of [...declared.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const explicitId = this.explicitOwners.get(name);
      const explicit = explicitId === undefined ? undefined : owners.find((o) => o.node.id === explicitId);
      if (explicitId !== undefined && !explicit) {
        errors.push(`${this.node.path}: crdOwners assigns ${name} to '${explicitId}', which does not declare it (declared by ${owners.map((o) => `'${o.componentName}'`).join(', ')})`);
      } else if (!explicit && !implicitOwner(owners, name)) {
        const owning = owners.filter((o) => o.claimOf(name) === CrdClaim.OWNS);
        const named = owning.length > 1 ? owning : owners;
        errors.push(
          `${this.node.path}: CRD ${name} is declared by ${named.map((o) => `'${o.componentName}' (${o.node.path})`).join(' and ')}` +
            (owning.length > 1 ? '' : ', each of which only uses it (useCrd with bundledCopy)') + '; ' +
            `choose one owner: platform.resolveCrd('${name}', <component>) or crdOwners: { '${name}': '<component id>' }` +
            (owning.length > 1 ? ', or declare it with useCrd(definition, { reason, bundledCopy: true }) in the component that works with the other\'s copy' : ''),
        );
      } else {
        crdOwners.set(name, explicit ?? implicitOwner(owners, name)!);
      }
    }

    // 1b. CRDs a component uses but leaves to their owner: never its own, and the owner
    // must serve every version the user reads and writes.
    for (const c of components) {
      for (const use of c.usedCrds) {
        const name = crdName(use.definition);
        if (!use.bundledCopy && c.crds.some((d) => d.name === name)) {
          errors.push(`${c.node.path}: component '${c.componentName}' declares CRD ${name} both as its own (addCrd) and as used from another component (useCrd); keep one`);
          continue;
        }
        const owner = crdOwners.get(name);
        if (!owner || owner === c) continue; // none: reported below as a missing provider of its kind; itself: its bundled copy
        const served = new Set(owner.crds.find((d) => d.name === name)!.definition.versions.filter((v) => v.served ?? true).map((v) => v.name));
        const missing = use.definition.versions.filter((v) => (v.served ?? true) && !served.has(v.name)).map((v) => v.name);
        if (missing.length) {
          errors.push(
            `${c.node.path}: component '${c.componentName}' uses CRD ${name} at version${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, ` +
              `which its owner '${owner.componentName}' (${owner.node.path}) does not serve (serves ${[...served].sort().join(', ')}); ` +
              `use a release of '${owner.componentName}' that serves ${missing.join(', ')}, or of '${c.componentName}' that uses what it serves`,
          );
        }
      }
    }

    // 2. Providers: group/kind -> component or prerequisite.
    const kinds = new Map<string, CrdDefinition>();
    const providerOf = new Map<string, Component>();
    for (const [name, owner] of crdOwners) {
      const def = owner.crds.find((d) => d.name === name)!.definition;
      kinds.set(gvkKey(def), def);
      providerOf.set(gvkKey(def), owner);
    }
    const externalKinds = new Set<string>();
    for (const p of this.prerequisites) for (const g of p.provides) externalKinds.add(gvkKey(g));

    // 3. Edges from requirements; missing providers.
    const deps = new Map<Component, Set<Component>>(components.map((c) => [c, new Set<Component>()]));
    for (const c of components) {
      for (const r of c.requires) {
        const key = gvkKey(r);
        const provider = providerOf.get(key);
        if (provider) {
          const served = kinds.get(key)!.versions.filter((v) => v.served ?? true).map((v) => v.name);
          if (r.version && !served.includes(r.version)) errors.push(wrongVersion(this, c, r, `component '${provider.componentName}' (${provider.constructor.name})`, served));
          else if (provider !== c && !r.runtimeOnly) deps.get(c)!.add(provider);
        } else if (externalKinds.has(key)) {
          const versions = this.prerequisites.flatMap((p) => p.provides.filter((g) => gvkKey(g) === key && g.version).map((g) => g.version!));
          if (r.version && versions.length && !versions.includes(r.version)) errors.push(wrongVersion(this, c, r, 'the prerequisites', versions));
        } else {
          errors.push(missingProvider(this, c, r, this.disabledComponents));
        }
      }
      for (const infra of c.infrastructure) {
        if (!this.hasPrerequisite(infra) && !components.some((o) => o.providesInfrastructure.includes(infra))) {
          errors.push(
            `${c.node.path}: component '${c.componentName}' needs ${infra}, which the platform neither provides nor declares present; ` +
              'add it to the platform\'s prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it',
          );
        }
      }
    }

    // A component that uses another component's copy of a CRD comes after it.
    for (const [name, owner] of crdOwners) {
      for (const c of declared.get(name) ?? []) if (c !== owner && c.claimOf(name) === CrdClaim.USES) deps.get(c)!.add(owner);
    }

    // 4. Kahn's algorithm over components; ties keep declaration order.
    const ordered: Component[] = [];
    const remaining = new Map([...deps.entries()].map(([c, d]) => [c, new Set(d)]));
    while (remaining.size) {
      const ready = components.filter((c) => remaining.has(c) && [...remaining.get(c)!].every((d) => !remaining.has(d)));
      if (!ready.length) {
        errors.push(`${this.node.path}: components depend on each other in a cycle: ${describeCycle(remaining)}; break it by removing a requirement, declaring a kind as a prerequisite, or marking a requirement runtimeOnly where it is needed only at run time`);
        break;
      }
      for (const c of ready) {
        ordered.push(c);
        remaining.delete(c);
      }
    }
    if (errors.length) throw new PlatformError(errors);

    // 5. Objects in apply order, after the customization's JSON patches.
    const rank = new Map(ordered.map((c, i) => [c, i]));
    const raw: Array<Omit<PlatformObject, 'order' | 'json'> & { json: any; seq: number }> = [];
    let seq = 0;
    for (const c of ordered) {
      const gated = compareKubernetesVersions(c.kubernetes.min, OLDEST_KUBERNETES_VERSION) > 0;
      for (const obj of c.node.findAll().filter((x): x is ApiObject => x instanceof ApiObject)) {
        if (!c.emits(obj)) continue;
        const json = obj.toJson();
        if (gated && json.kind === 'CustomResourceDefinition') {
          json.metadata.annotations = { ...json.metadata.annotations, [MINIMUM_KUBERNETES_ANNOTATION]: c.kubernetes.min, [MINIMUM_KUBERNETES_FEATURE_ANNOTATION]: c.kubernetes.feature };
        }
        const group = String(json.apiVersion ?? '').includes('/') ? String(json.apiVersion).split('/')[0] : '';
        const isCr = kinds.has(`${group}/${json.kind}`);
        const servedByInfrastructure = isCr && providerOf.get(`${group}/${json.kind}`)!.providesInfrastructure.length > 0;
        const phase = phaseOf(obj, { isPlatformCustomResource: isCr, infrastructure: c.providesInfrastructure.length > 0, servedByInfrastructure });
        raw.push({ json, apiObject: obj, component: c, path: obj.node.path, phase, seq: seq++ });
      }
    }
    const patchable = raw.map((r) => ({ json: r.json, component: r.component.componentName }));
    const patchProblems = this.customization.applyPatches(patchable);
    if (patchProblems.length) throw new PlatformError(patchProblems);
    patchable.forEach((p, i) => { raw[i].json = p.json; });
    const phaseIndex = (p: Phase) => PHASES.indexOf(p);
    raw.sort((a, b) =>
      phaseIndex(a.phase) - phaseIndex(b.phase) || rank.get(a.component)! - rank.get(b.component)! || kindRank(a.json.kind) - kindRank(b.json.kind) || a.seq - b.seq);
    const objects = raw.map(({ seq: _seq, ...o }, order) => ({ ...o, order }));
    return { platform: this, components: ordered, objects, crdOwners, kinds, externalKinds, runtimeChanges: ordered.flatMap((c) => runtimeChangesOf(c)) };
  }
}

/**
 * The owner of a shared CRD without an explicit choice: the only declaring component, else
 * the only one that claims OWNS (the others use its copy); undefined when that is ambiguous.
 */
/**
 * The owner of a CRD several components declare, when the platform can tell without a
 * choice: the only declarer; else the only one that claims OWNS (the others USE its copy).
 */
function implicitOwner(declaring: Component[], crd: string): Component | undefined {
  if (declaring.length === 1) return declaring[0];
  const owning = declaring.filter((c) => c.claimOf(crd) === CrdClaim.OWNS);
  return owning.length === 1 ? owning[0] : undefined;
}

function missingProvider(platform: Platform, c: Component, r: Requirement, disabled: Component[]): string {
  const off = disabled.find((d) => d.crds.some((x) => x.definition.group === r.group && x.definition.kind === r.kind));
  const hint = off
    ? `component '${off.componentName}' provides it but customization turns it off (components: { '${off.componentName}': false }); turn it on, or turn '${c.componentName}' off too`
    : r.providedBy ? `add the ${r.providedBy.name} component to the platform` : 'add a component that provides it';
  return (
    `${c.node.path}: component '${c.componentName}' (${c.constructor.name}) requires ${r.group}/${r.kind} (${r.reason}), ` +
    `but no component of platform '${platform.name}' provides it and no prerequisite declares it; ${hint}, ` +
    `or declare it present with prerequisites: [{ name: '...', provides: [{ group: '${r.group}', kind: '${r.kind}' }] }]`
  );
}

function wrongVersion(platform: Platform, c: Component, r: Requirement, provider: string, served: string[]): string {
  const hint = r.providedBy ? `add the ${r.providedBy.name} component instead` : `use a provider that serves ${r.version}`;
  return (
    `${c.node.path}: component '${c.componentName}' (${c.constructor.name}) requires ${r.group}/${r.version}/${r.kind} (${r.reason}), ` +
    `but in platform '${platform.name}' ${r.group}/${r.kind} comes from ${provider}, which serves ${served.join(', ')}; ${hint}`
  );
}

function describeCycle(remaining: Map<Component, Set<Component>>): string {
  // Walk from any remaining node along remaining edges until a node repeats.
  const start = [...remaining.keys()][0];
  const path: Component[] = [];
  let cur: Component | undefined = start;
  while (cur && !path.includes(cur)) {
    path.push(cur);
    cur = [...remaining.get(cur)!].find((d) => remaining.has(d));
  }
  const loop = cur ? path.slice(path.indexOf(cur)).concat(cur) : path;
  return loop.map((c) => c.componentName).join(' -> ');
}

/** All problems found while resolving or checking a platform, one per line. */
export class PlatformError extends Error {
  constructor(public readonly problems: string[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'PlatformError';
  }
}

/** Options of `Platform.isolateNamespace`. */
export interface IsolateNamespaceOptions {
  /**
   * How the isolation differs from the upstream install it models, where no component of
   * the platform is the one to say so (e.g. upstream policies for applications the platform
   * does not run): declared by the `namespace-isolation` component for the parity test.
   * @default none
   */
  readonly parityDeviations?: readonly ParityDeviation[];
}

/** Every Platform in an app. */
export function platformsOf(app: App): Platform[] {
  return app.node.findAll().filter((c): c is Platform => c instanceof Platform);
}


function checkNamespaceName(where: string, prop: string, name: string): void {
  if (typeof name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63) {
    throw new Error(`${where}: ${prop}: namespace '${name}' is not a valid namespace name; use a lower-case DNS label of at most 63 characters (e.g. 'team-a')`);
  }
}

/** The component that emits the Namespaces a platform declares itself (Platform.addNamespace). */
class PlatformNamespaces extends Component {
  public static readonly ID = 'platform-namespaces';
  public readonly images = {};
  private readonly names = new Map<string, ApiObject>();

  constructor(scope: Platform) {
    super(scope, PlatformNamespaces.ID, 'default');
  }

  public add(name: string, labels: Record<string, string>): void {
    const had = this.names.get(name);
    if (had) {
      for (const [k, v] of Object.entries(labels)) {
        const existing = had.metadata.getLabel(k);
        if (existing !== undefined && existing !== v) {
          throw new Error(`${this.platform.node.path}: addNamespace: namespace '${name}' is declared twice with label ${k}=${existing} and ${k}=${v}; declare it once`);
        }
        had.metadata.addLabel(k, v);
      }
      return;
    }
    this.names.set(name, new ApiObject(this, `Namespace-${name}`, {
      apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(Object.keys(labels).length ? { labels } : {}) },
    }));
  }
}

/** The component that emits the policies isolating the namespaces a platform isolates (Platform.isolateNamespace). */
class NamespaceIsolation extends Component {
  public static readonly ID = 'namespace-isolation';
  public readonly images = {};
  private readonly namespaces = new Set<string>();

  constructor(scope: Platform, id: string, props: { readonly namespace: string }) {
    super(scope, id, props.namespace);
  }

  public isolate(namespace: string, deviations: readonly ParityDeviation[]): void {
    this.declareParityDeviations(deviations);
    if (this.namespaces.has(namespace)) return;
    this.namespaces.add(namespace);
    new ApiObject(this, `SameNamespace-${namespace}`, sameNamespacePolicy(namespace));
  }

  public isolates(namespace: string): boolean {
    return this.namespaces.has(namespace);
  }
}
