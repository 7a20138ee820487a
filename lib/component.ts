import { ApiObject, Chart } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { IConstruct } from 'constructs';
import { CrdDefinition, CustomResourceDefinition, CustomResourceDefinitionProps, Gvk } from './crd';
import { DashboardLinks, dashboardLinkProblems } from './dashboard';
import { ImageSpec } from './images';
import { BASELINE_KUBERNETES_SUPPORT, KubernetesSupport, normalizeKubernetesVersion } from './kubernetes-version';
import { ParityDeviation, parityDeviationProblems } from './parity';
import type { Platform } from './platform';
import { reportProblem } from './problems';
import { checkPropKeys } from './prop-keys';
import { RuntimeWebhook, validateRuntimeWebhook } from './runtime-webhooks';
import { ReferencedSecret, resolveSecretDeclaration, SecretDeclaration, secretDeclarationProblems } from './secrets';
import { VersionsTable } from './versions';

/** A kind a component watches or creates but does not own. */
export interface Requirement {
  readonly group: string;
  readonly kind: string;
  /**
   * The version it uses, when it matters: the provider's CRD must serve it (two upstreams
   * may ship one kind at different versions, e.g. kubeflow.org MPIJob v1 and v2beta1).
   * @default - any served version
   */
  readonly version?: string;
  /** Why the component needs it (shown in errors and reports). */
  readonly reason: string;
  /** The component class that provides it, named in the error when nothing does. */
  readonly providedBy?: abstract new (...args: any[]) => Component;
  /**
   * Needed only once the platform runs, not to apply this component: the kind must be
   * served in the platform (or by a prerequisite), but it sets no apply order. Use it
   * where the provider depends on this component in turn, e.g. AppWrapper's Kueue
   * integration needs Kueue's Workloads while Kueue watches AppWrappers; an ordering
   * requirement both ways would be a cycle.
   * @default false
   */
  readonly runtimeOnly?: boolean;
}

/**
 * Infrastructure a component needs that is not one of our components: cert-manager,
 * Istio, Knative... A platform satisfies it with a component or declares it present.
 */
export interface Prerequisite {
  /** e.g. cert-manager */
  readonly name: string;
  /** The kinds it serves (its CRDs), so that objects of those kinds are accounted for. */
  readonly provides: Gvk[];
  /** What it is and which release the platform expects (REPORT.md's Prerequisites section). @default none */
  readonly description?: string;
}

/**
 * A setting a component needs of a prerequisite the platform does not install (e.g. an
 * extension provider in Istio's mesh config): apply checks the prerequisite's APIs, not its
 * settings, so REPORT.md lists these for the platform team.
 */
export interface PrerequisiteSetting {
  /** The prerequisite's name (e.g. istio). */
  readonly prerequisite: string;
  /** The setting, precisely enough to configure it (names, values). */
  readonly setting: string;
}

/** cert-manager, when it is already installed on the cluster. */
export const CERT_MANAGER: Prerequisite = {
  name: 'cert-manager',
  provides: [
    { group: 'cert-manager.io', version: 'v1', kind: 'Certificate' },
    { group: 'cert-manager.io', version: 'v1', kind: 'Issuer' },
    { group: 'cert-manager.io', version: 'v1', kind: 'ClusterIssuer' },
  ],
};

/**
 * A CRD a component's upstream install ships a copy of, but which another component owns
 * (see `Component.useCrd`, the one way to declare a shared CRD).
 */
export interface CrdUse {
  /** The definition as this component knows it: the versions it reads and writes. */
  readonly definition: CrdDefinition;
  /** Why the component needs it (shown in errors and reports). */
  readonly reason: string;
  /** The component class that owns and emits it. */
  readonly providedBy?: abstract new (...args: any[]) => Component;
  /**
   * Whether the component emits its bundled copy when no component of the platform owns the
   * CRD (its claim is then CrdClaim.USES). Either way, the owner's copy wins when present,
   * the component comes after the owner, and the owner must serve every version it uses.
   * @default false: never emitted by this component; the platform needs the owner
   */
  readonly bundledCopy?: boolean;
}

/**
 * How a component declares a CRD that another component may ship too (KServe and ModelMesh
 * both ship InferenceService; KServe's schema is the newer one).
 */
export enum CrdClaim {
  /**
   * The component emits the CRD. Two components that both claim OWNS conflict: the platform
   * fails until crdOwners (or resolveCrd) picks one.
   */
  OWNS = 'owns',
  /**
   * The component works with another component's copy of the CRD: when a component of the
   * platform claims OWNS, that one emits it; when the component is alone with it, it emits
   * its own copy.
   */
  USES = 'uses',
}

/** Options of `Component.addCrd`: the component owns the CRD (a shared one is declared with `useCrd`). */
export interface AddCrdOptions extends Omit<CustomResourceDefinitionProps, 'definition'> {}

/** The Prometheus Operator, when it is already installed (ServiceMonitor, PodMonitor...). */
export const PROMETHEUS_OPERATOR: Prerequisite = {
  name: 'prometheus-operator',
  provides: [
    { group: 'monitoring.coreos.com', version: 'v1', kind: 'ServiceMonitor' },
    { group: 'monitoring.coreos.com', version: 'v1', kind: 'PodMonitor' },
    { group: 'monitoring.coreos.com', version: 'v1', kind: 'PrometheusRule' },
  ],
};

/** The Gateway API CRDs, when a gateway implementation already installed them. */
export const GATEWAY_API: Prerequisite = {
  name: 'gateway-api',
  provides: [
    { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'Gateway' },
    { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'GatewayClass' },
    { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'HTTPRoute' },
    { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'GRPCRoute' },
  ],
};

/**
 * A label that namespaces must carry for a component to act on the workloads users run
 * there, e.g. Katib injects its metrics collector only into pods of namespaces labelled
 * katib.kubeflow.org/metrics-collector-injection=enabled. Tenancy components (the profile
 * controller) check that every tenant namespace carries it.
 */
export interface TenantNamespaceLabel {
  readonly key: string;
  readonly value: string;
  /** What depends on it (shown in errors). */
  readonly reason: string;
}

export interface ComponentProps {
  /**
   * The namespace the component's controllers run in.
   * @default the component's own default (e.g. kserve)
   */
  readonly namespace?: string;
}

/**
 * One upstream component (an operator, its CRDs, controllers, RBAC and webhooks), as a
 * cdk8s Chart inside a Platform. What it provides and requires is data the platform reads
 * to order, wire and check the whole.
 */
export abstract class Component extends Chart {
  /**
   * `x instanceof SomeComponent` by prototype chain. cdk8s's Chart answers `instanceof`
   * with `Chart.isChart`, which every subclass inherits: without this, any chart would be
   * "an instance" of every component class (e.g. a dashboard looking for the profile
   * controller among the platform's components would find itself).
   */
  public static [Symbol.hasInstance](o: unknown): o is Component {
    return Function.prototype[Symbol.hasInstance].call(this, o);
  }

  /** The component's name: its id, used for file names in dist/. */
  public readonly componentName: string;
  /**
   * The namespace its controllers run in. (Not `namespace`: cdk8s would make it the
   * default namespace of every object in the chart, cluster-scoped ones included.)
   */
  public readonly namespaceName: string;
  /** The CRDs this component declares (whether or not the platform assigns them to it). */
  public readonly crds: CustomResourceDefinition[] = [];
  /** CRDs it shares with their owner (`useCrd`), with or without a bundled copy. */
  public readonly usedCrds: CrdUse[] = [];
  /** Kinds it needs from other components. */
  public readonly requires: Requirement[] = [];
  /** Constructs emitted only when their condition holds (`omitUnless`). */
  private readonly conditions = new Map<IConstruct, () => boolean>();
  /** How this component claims each CRD it declares, by CRD name (OWNS unless declared otherwise). */
  private readonly claims = new Map<string, CrdClaim>();
  /** Infrastructure it needs (by prerequisite name, e.g. cert-manager). */
  public readonly infrastructure: string[] = [];
  /** Settings it needs of prerequisites (declared with `expectOfPrerequisite`; REPORT.md lists them). */
  public readonly prerequisiteSettings: PrerequisiteSetting[] = [];
  /** Labels tenant namespaces must carry for this component to work in them. */
  public readonly tenantNamespaceLabels: TenantNamespaceLabel[] = [];
  /** Webhook configurations its operator creates at run time (not in the output). */
  public readonly runtimeWebhooks: RuntimeWebhook[] = [];
  /**
   * Secrets its workloads read that the output does not contain (declared with
   * `referenceSecret`): generated by `mlplatform apply`, or provided by the user.
   */
  public readonly referencedSecrets: ReferencedSecret[] = [];
  /**
   * Infrastructure it is (by prerequisite name, e.g. cert-manager): it satisfies other
   * components' need for it, and its objects apply in the infrastructure phases, before
   * every other component's objects (see Phase.INFRASTRUCTURE).
   */
  public readonly providesInfrastructure: string[] = [];
  /** Every image it runs, by key: its versions table. */
  public abstract readonly images: Readonly<Record<string, ImageSpec>>;

  /**
   * The upstream release the construct models (its CRD schemas, RBAC and flags), e.g. 'v0.19.2':
   * what `mlplatform list components`, `graph` and `report` show as its version. Declared by
   * each construct (an image tag is not it: a component also runs databases and sidecars).
   * @default - none declared
   */
  public get release(): string | undefined {
    return undefined;
  }
  /**
   * Links it contributes to a central dashboard, if the platform has one (none by default).
   * Declared with `addDashboardLinks`, read by the dashboard at synth.
   */
  public readonly dashboardLinks: DashboardLinks[] = [];
  /**
   * Where this component differs from upstream's default install on purpose, and why
   * (declared with `declareParityDeviations`; the parity test holds them to upstream's
   * facts, REPORT.md lists them).
   */
  public readonly parityDeviations: ParityDeviation[] = [];

  /**
   * The Kubernetes versions this component's upstream release supports. Components whose
   * release or CRDs need more than the oldest modelled version declare it with
   * `requireKubernetes`; a platform that targets an older Kubernetes fails synth (MLP070).
   */
  public get kubernetes(): KubernetesSupport {
    return this.kubernetesSupport ?? BASELINE_KUBERNETES_SUPPORT;
  }

  private kubernetesSupport?: KubernetesSupport;
  /** Keys of the versions table image() was asked for. */
  private readonly imageKeysUsed = new Set<string>();

  /**
   * @param props the component's props, when its class passes them: their keys are checked
   * against the keys its props type declares (lib/prop-keys.ts), so that a misspelled prop
   * fails where nothing type-checks it (plain JavaScript, props read from YAML)
   */
  constructor(scope: Platform, id: string, namespace: string, props?: object) {
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(id) || id.length > 63) {
      throw new Error(`${scope.node.path}/${id}: component id '${id}' must be a lower-case DNS label of at most 63 characters (it names the component's files in dist/ and crdOwners refer to it)`);
    }
    super(scope, id, { disableResourceNameHashes: true });
    this.componentName = id;
    // The platform's customization places components (namespaces) and may turn them off.
    this.namespaceName = scope.customization.namespaceOf(id, namespace);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(this.namespaceName) || this.namespaceName.length > 63) {
      reportProblem(this, `namespace '${this.namespaceName}' is not a valid namespace name (lower-case DNS label, at most 63 characters), e.g. '${dnsLabelFrom(this.namespaceName)}'`);
    }
    if (props !== undefined) checkPropKeys(this, new.target.name, props);
    // Off: the component is still built (its props are still checked, its ids stay known to
    // the customization) but out of the construct tree, so it emits nothing.
    if (!scope.isComponentEnabled(id)) scope._disableComponent(this);
  }

  /** Declares the Kubernetes range of the upstream release (data: the minimum, the feature behind it, the source). */
  protected requireKubernetes(support: KubernetesSupport): void {
    for (const v of [support.min, ...(support.max ? [support.max] : [])]) normalizeKubernetesVersion(v, `${this.node.path}: requireKubernetes`);
    this.kubernetesSupport = support;
  }

  /** The platform this component belongs to (also while customization has it off). */
  public get platform(): Platform {
    return this.node.scope as Platform;
  }

  /** Whether the platform's customization leaves this component on. */
  public get enabled(): boolean {
    return this.platform.isComponentEnabled(this.componentName);
  }

  /** The CRDs this component owns in its platform (shared CRDs resolved to one owner). */
  public get providedCrds(): CrdDefinition[] {
    return this.crds.filter((c) => this.platform.crdOwner(c.name) === this).map((c) => c.definition);
  }

  /** The image reference for `key`, after the platform's mirror and overrides. */
  public image(key: string): string {
    const image = this.resolvedImage(key);
    this.imageKeysUsed.add(key);
    return image;
  }

  /**
   * The keys of the versions table the component asked for (image()): the images it runs or
   * hands to what it starts at run time, not those of features turned off (KServe's LocalModel
   * images with localModel: false). What REPORT.md lists and `mlplatform mirror` copies.
   */
  public get usedImageKeys(): string[] {
    return Object.keys(this.images).filter((k) => this.imageKeysUsed.has(k)).sort();
  }

  /** The image of a versions table key, resolved (versions.json, the platform's mirror and overrides), without counting it as used. */
  public resolvedImage(key: string): string {
    const spec = this.images[key];
    if (!spec) {
      throw new Error(`${this.node.path}: no image '${key}' in the versions table (has ${Object.keys(this.images).sort().join(', ')})`);
    }
    // versions.json (tags Renovate bumps) over the TypeScript table; the platform's overrides last.
    const versions = this.platform.imageSettings.versions ?? VersionsTable.DEFAULT;
    return this.platform.resolveImage(`${this.componentName}/${key}`, versions.resolve(this, key, spec).spec);
  }

  /** Declares differences from upstream's default install that the component makes on purpose. */
  protected declareParityDeviations(deviations: readonly ParityDeviation[]): void {
    const problems = deviations.flatMap(parityDeviationProblems);
    if (problems.length) throw new Error(`${this.node.path}: parity deviations: ${problems.join('; ')}`);
    this.parityDeviations.push(...deviations);
  }

  /** Declares a CRD of this component. */
  protected addCrd(definition: CrdDefinition, options: AddCrdOptions = {}): CustomResourceDefinition {
    return this.declareCrd(definition, options, CrdClaim.OWNS);
  }

  private declareCrd(definition: CrdDefinition, props: AddCrdOptions, claim: CrdClaim): CustomResourceDefinition {
    const crd = new CustomResourceDefinition(this, definition.kind + (this.crds.some((c) => c.definition.kind === definition.kind) ? definition.group : ''), {
      ...props,
      definition,
    });
    this.crds.push(crd);
    this.claims.set(crd.name, claim);
    return crd;
  }

  /** Declares a setting this component needs of a prerequisite the platform does not install. */
  protected expectOfPrerequisite(prerequisite: string, setting: string): void {
    if (!prerequisite.trim() || !setting.trim()) throw new Error(`${this.node.path}: expectOfPrerequisite needs a prerequisite name and the setting`);
    this.prerequisiteSettings.push({ prerequisite, setting });
  }

  /**
   * Declares a Secret this component's workloads (or a person) read that the output does not
   * contain (lib/secrets.ts): `mlplatform apply` generates its keys when it is missing
   * (`generate`), or refuses to start without it (`userProvided`, a hint how to create it).
   * REPORT.md lists it. Public, so that a platform can declare a Secret it references through
   * props or patches.
   */
  public referenceSecret(declaration: SecretDeclaration): ReferencedSecret {
    const d = { ...declaration, namespace: declaration.namespace ?? this.namespaceName };
    // The component's own namespace is checked (and reported) where it is set.
    const problems = secretDeclarationProblems(d, { checkNamespace: declaration.namespace !== undefined });
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);
    const resolved = resolveSecretDeclaration(d, this.componentName);
    const i = this.referencedSecrets.findIndex((x) => x.namespace === d.namespace && x.name === d.name);
    if (i >= 0) this.referencedSecrets.splice(i, 1);
    this.referencedSecrets.push(resolved);
    return resolved;
  }

  /** Declares links this component contributes to a central dashboard. */
  protected addDashboardLinks(links: DashboardLinks): void {
    const problems = dashboardLinkProblems(links);
    if (problems.length) throw new Error(`${this.node.path}: dashboard links: ${problems.join('; ')}`);
    this.dashboardLinks.push(links);
  }

  /**
   * Declares a CRD this component shares with the component that owns it (upstream bundles
   * a copy). The platform checks that the owner serves every version this component uses,
   * and orders the owner first. Without `bundledCopy` the component never emits it and the
   * CRD's kind becomes a requirement; with it, the component emits its copy when no
   * component of the platform owns the CRD (and returns that copy).
   */
  protected useCrd(definition: CrdDefinition, use: Omit<CrdUse, 'definition'> & { readonly bundledCopy: true }): CustomResourceDefinition;
  protected useCrd(definition: CrdDefinition, use: Omit<CrdUse, 'definition'>): CustomResourceDefinition | undefined;
  protected useCrd(definition: CrdDefinition, use: Omit<CrdUse, 'definition'>): CustomResourceDefinition | undefined {
    if (!use.reason.trim()) throw new Error(`${this.node.path}: useCrd ${definition.plural}.${definition.group}: reason is empty; say why the component needs the CRD`);
    this.usedCrds.push({ definition, ...use });
    if (use.bundledCopy) return this.declareCrd(definition, {}, CrdClaim.USES);
    this.require({ group: definition.group, kind: definition.kind, reason: use.reason, providedBy: use.providedBy });
    return undefined;
  }

  /** How this component claims a CRD it declares (undefined when it does not declare it). */
  public claimOf(crd: string): CrdClaim | undefined {
    return this.claims.get(crd);
  }

  /** Declares that this component needs a kind another component provides. */
  protected require(req: Requirement): void {
    this.requires.push(req);
  }

  /** Declares a label that tenant namespaces must carry for this component to work in them. */
  protected requireTenantNamespaceLabel(label: TenantNamespaceLabel): void {
    this.tenantNamespaceLabels.push(label);
  }

  /** Declares a webhook configuration the component's operator creates at run time. */
  protected declareRuntimeWebhook(w: RuntimeWebhook): void {
    validateRuntimeWebhook(this.node.path, w);
    this.runtimeWebhooks.push(w);
  }

  /**
   * A Namespace object for the component's namespace (the platform dedupes). Every
   * component in a namespace (its default one, or where the customization places it) emits
   * the same object: the customization's labels, then the union of the components'; two
   * values for one label are an error.
   */
  protected addNamespace(labels: Record<string, string> = {}): ApiObject {
    // Labels are pooled in every namespace: components that share one (by default, like
    // Kubeflow's, or placed there by the customization) emit the same Namespace object, so
    // no component's label is lost to another's copy. A component that is off adds nothing.
    if (!this.enabled) {
      return new k8s.KubeNamespace(this, 'Namespace', { metadata: { name: this.namespaceName, labels: Object.keys(labels).length ? labels : undefined } });
    }
    const shared = this.platform.namespaceLabels(this.namespaceName);
    for (const [k, v] of Object.entries(labels)) {
      const had = shared.labels.get(k);
      if (had && had.component === undefined) continue; // set by the platform's customization: it wins
      if (had && had.value !== v) {
        throw new Error(
          `${this.node.path}: namespace '${this.namespaceName}' needs label ${k}=${v}, but component '${had.component}' in the same namespace needs ${k}=${had.value}; ` +
            `choose the value with customization namespaces.labels: { '${this.namespaceName}': { '${k}': '...' } }, or put the two components in different namespaces (namespaces.components)`,
        );
      }
      shared.labels.set(k, { value: v, component: this.componentName });
    }
    const ns = new k8s.KubeNamespace(this, 'Namespace', { metadata: { name: this.namespaceName } });
    shared.objects.push(ns);
    // Every Namespace object of the namespace carries the union so far (they stay identical).
    for (const o of shared.objects) for (const [k, { value }] of shared.labels) o.metadata.addLabel(k, value);
    return ns;
  }


  /**
   * Leaves a construct of this component out of the output unless `condition` holds when
   * the platform resolves (e.g. an Istio AuthorizationPolicy on a platform without Istio).
   */
  public omitUnless(construct: IConstruct, condition: () => boolean): void {
    this.conditions.set(construct, condition);
  }

  /** Whether an object of this component is emitted (a CRD owned by another component is not). */
  public emits(obj: IConstruct): boolean {
    for (let c: IConstruct | undefined = obj; c && c !== this; c = c.node.scope) {
      const condition = this.conditions.get(c);
      if (condition && !condition()) return false;
      if (c instanceof CustomResourceDefinition) return this.platform.crdOwner(c.name) === this;
    }
    return true;
  }
}

/** A DNS label close to a name (lower-case, runs of other characters as '-'), for error messages. */
export function dnsLabelFrom(name: string): string {
  const label = String(name).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return label || 'my-namespace';
}
