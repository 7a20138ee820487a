import type { PolicyRule } from './rbac';
import type { RuntimeChange } from './runtime-changes';
import type { LabelSelector } from './webhook-rules';

/*
 * The facts of a set of Kubernetes objects, resolved once and read by everything that needs
 * them: which workload serves each webhook (Service -> port -> selected workload -> container
 * port) and where its CA comes from, what each ServiceAccount may do, which component serves
 * each kind, which images are pulled. The synth-time checks, REPORT.md, the architecture,
 * parity, the cluster commands and `mlplatform validate` read these facts here rather than
 * deriving them again.
 *
 * An ObjectModel is built from a plain list of objects (`{ json }`: synthesized objects,
 * or documents parsed from files) plus what only a platform knows (the fields controllers
 * change at run time); `modelOf(platformModel)` (lib/platform-model.ts) is the one model of
 * a resolved platform, built once per model, with what its component graph adds (kind
 * owners). Each fact is computed when first read. This file imports no construct: the
 * validator and the cluster commands load it without cdk8s.
 */

/** An object of a model: its JSON, and whatever the reader keeps with it (path, phase, file). */
export interface ModelObject {
  readonly json: any;
}

/** How a webhook's clientConfig resolves: the Service, the workload behind it and its container port, or why not. */
export interface ResolvedBackend<T extends ModelObject = ModelObject> {
  readonly workload?: T;
  readonly service?: T;
  readonly containerPort?: number;
  /** Why the webhook does not resolve to one workload's container port, in words. */
  readonly problem?: string;
}

/** A webhook (admission or conversion), resolved. */
export interface ResolvedWebhook<T extends ModelObject = ModelObject> {
  /** The object that declares it: its webhook configuration, or the CRD it converts. */
  readonly owner: T;
  /**
   * The webhook's name. Unique only within its configuration: Kueue, AppWrapper and
   * CodeFlare all name theirs vappwrapper.kb.io. A webhook is identified by configuration
   * kind, configuration name and webhook name (see `webhookLabel` in lib/checks.ts).
   */
  readonly name: string;
  readonly type: 'validating' | 'mutating' | 'conversion';
  readonly clientConfig: any;
  readonly failurePolicy: string;
  readonly rules: any[];
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly annotations: Record<string, string>;
  readonly backend: ResolvedBackend<T>;
  /** Where its CA bundle comes from, in words (`caBundle`, `cert-manager ns/name`, ...), or undefined when nothing provides one. */
  readonly caSource?: string;
}

/**
 * A webhook as messages name it: the webhook and the configuration it belongs to, e.g.
 * `webhook vappwrapper.kb.io of ValidatingWebhookConfiguration appwrapper-validating-webhook-configuration`,
 * or `conversion webhook of CRD widgets.example.com`.
 */
export function webhookLabel(w: Pick<ResolvedWebhook, 'type' | 'name' | 'owner'>): string {
  return w.type === 'conversion'
    ? `conversion webhook of CRD ${w.owner.json.metadata.name}`
    : `webhook ${w.name} of ${w.owner.json.kind} ${w.owner.json.metadata.name}`;
}

/** A ServiceAccount: its name and namespace. */
export interface ServiceAccountRef {
  readonly name: string;
  readonly namespace: string;
}

/** What only a platform knows about its objects. */
export interface ModelOptions {
  /** Fields controllers change at run time: a caBundle patched by a self-rotating certificate is a CA source. */
  readonly runtimeChanges?: readonly RuntimeChange[];
  /**
   * How messages name the list of objects (`points at Service x, which is not in ...`).
   * @default 'the platform output'
   */
  readonly objectsName?: string;
}

/** How many times models resolved their webhooks (tests count them: one per platform and synth). */
export const modelStatistics = { webhookResolutions: 0 };

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];

const groupOf = (apiVersion: unknown): string => (typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/** The plural resource of each kind whose caBundle a rotator patches (the rotator's RBAC must allow update on it). */
const WEBHOOK_CONFIGURATION_PLURALS: Record<string, string> = {
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
  CustomResourceDefinition: 'customresourcedefinitions',
};

/** Whether every label of `selector` is on `labels` with its value. */
export function matchLabels(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Whether a label selector (matchLabels and matchExpressions) selects `labels`; no selector selects everything. */
export function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!sel) return true;
  if (sel.matchLabels && !matchLabels(sel.matchLabels, labels)) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = e.key in labels;
    const v = labels[e.key];
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
    if (e.operator === 'In' && (!has || !(e.values ?? []).includes(v))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(v)) return false;
  }
  return true;
}

/** Kinds whose pod template selectors MLP024 compares. */
const SELECTING_WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'];

/** An object that selects pods, and the selector it uses. */
export interface PodSelection {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** For a workload: its pod template's labels. */
  readonly podLabels?: Record<string, string>;
  readonly selector: LabelSelector;
}

/** The pod selector of a Service, PodDisruptionBudget, NetworkPolicy or workload; undefined when it selects nothing by label. */
function podSelectionOf(j: any): PodSelection | undefined {
  const base = { kind: String(j.kind), namespace: String(j.metadata?.namespace ?? ''), name: String(j.metadata?.name) };
  const nonEmpty = (sel: LabelSelector | undefined) => (sel && (Object.keys(sel.matchLabels ?? {}).length || (sel.matchExpressions ?? []).length) ? sel : undefined);
  if (j.kind === 'Service' && j.spec?.selector && Object.keys(j.spec.selector).length) return { ...base, selector: { matchLabels: j.spec.selector } };
  // A PDB's empty selector selects every pod of its namespace: that counts.
  if (j.kind === 'PodDisruptionBudget' && j.spec?.selector) return { ...base, selector: j.spec.selector };
  // A NetworkPolicy's empty podSelector is a namespace-wide policy on purpose.
  if (j.kind === 'NetworkPolicy') {
    const sel = nonEmpty(j.spec?.podSelector);
    return sel ? { ...base, selector: sel } : undefined;
  }
  if (SELECTING_WORKLOAD_KINDS.includes(j.kind) && j.spec?.template) {
    const podLabels = j.spec.template.metadata?.labels ?? {};
    return { ...base, podLabels, selector: j.spec.selector ?? { matchLabels: {} } };
  }
  return undefined;
}

/**
 * Selector collisions inside a namespace, in words: a Service, PodDisruptionBudget or
 * NetworkPolicy that selects the pods of more than one workload, and a workload whose
 * selector matches another workload's pod template (its controller would adopt or count
 * those pods). In a namespace several components share (Open Data Hub puts them all in
 * one), kubebuilder's default `control-plane: controller-manager` is on many operators'
 * pods: a webhook Service selecting by it alone sends calls to the wrong server.
 */
export function selectorOverlaps(objects: readonly any[]): Array<{ index: number; message: string }> {
  const selections = objects.map(podSelectionOf);
  const workloads = selections.map((s, index) => ({ s, index })).filter((x): x is { s: PodSelection; index: number } => x.s?.podLabels !== undefined);
  const out: Array<{ index: number; message: string }> = [];
  const hasSelector = (sel: LabelSelector) => Object.keys(sel.matchLabels ?? {}).length > 0 || (sel.matchExpressions ?? []).length > 0;
  selections.forEach((s, index) => {
    if (!s) return;
    const others = workloads.filter((w) => w.index !== index && w.s.namespace === s.namespace && hasSelector(s.selector) && selectorMatches(s.selector, w.s.podLabels!));
    const what = `${s.kind} ${s.namespace}/${s.name} selects ${JSON.stringify(s.selector.matchExpressions?.length ? s.selector : s.selector.matchLabels ?? {})}`;
    if (s.podLabels !== undefined) {
      for (const w of others) {
        out.push({ index, message: `${what}, which matches the pods of ${w.s.kind} ${w.s.name}; its controller would count them as its own: select on a label only its own pods carry` });
      }
    } else if (others.length > 1 || (!hasSelector(s.selector) && workloads.filter((w) => w.s.namespace === s.namespace).length > 1)) {
      const hit = hasSelector(s.selector) ? others : workloads.filter((w) => w.s.namespace === s.namespace);
      out.push({ index, message: `${what}, which matches the pods of ${hit.length} workloads (${hit.map((w) => `${w.s.kind} ${w.s.name}`).join(', ')}); select exactly one workload's pods: add a label only they carry` });
    }
  });
  return out;
}

/** The pod spec of a workload, a CronJob or a ServingRuntime (whose spec is one), or undefined. */
export function podSpecOf(json: any): any {
  return json.spec?.template?.spec ?? json.spec?.jobTemplate?.spec?.template?.spec ?? (json.kind === 'ClusterServingRuntime' || json.kind === 'ServingRuntime' ? json.spec : undefined);
}

/** lib/rbac.ts's `allows`, loaded when a CA source first needs it: rbac.ts brings cdk8s, which `mlplatform validate` does without. */
function allows(rules: readonly PolicyRule[], group: string, resource: string, verb: string, name?: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./rbac') as typeof import('./rbac')).allows(rules, group, resource, verb, name);
}

interface Index<T> {
  /** v1 Services by namespace/name (the first of a key, as a scan in order finds it). */
  readonly services: Map<string, T>;
  /** Objects of kind Service (any apiVersion) by namespace/name. */
  readonly serviceKinds: Map<string, T>;
  /** cert-manager Certificates by namespace/name. */
  readonly certificates: Map<string, T>;
  /** Deployments, StatefulSets and DaemonSets by namespace, in order. */
  readonly workloads: Map<string, T[]>;
  /** Deployments by name (any namespace). */
  readonly deployments: Map<string, T>;
  /** v1 Namespaces by name (the first of a name). */
  readonly namespaces: Map<string, T>;
  /** ServiceAccounts by namespace/name. */
  readonly serviceAccounts: Map<string, T>;
  /** Roles by namespace/name (a later object of a key wins, as the API server keeps the last applied). */
  readonly roles: Map<string, T>;
  /** ClusterRoles by name (a later one wins). */
  readonly clusterRoles: Map<string, T>;
  /** RoleBindings and ClusterRoleBindings, in order. */
  readonly bindings: T[];
}

/** The resolved facts of a list of objects. */
export class ObjectModel<T extends ModelObject = ModelObject> {
  private index?: Index<T>;
  private resolvedWebhooks?: ResolvedWebhook<T>[];
  private byOwner?: Map<T, ResolvedWebhook<T>[]>;
  private aggregated?: Map<string, PolicyRule[]>;
  private readonly held = new Map<string, PolicyRule[]>();
  private boundBy?: Map<string, T[]>;
  private imageList?: Array<{ readonly object: T; readonly image: string }>;

  constructor(public readonly objects: readonly T[], private readonly options: ModelOptions = {}) {}

  /** Lookups by kind, built in one pass. */
  private get ix(): Index<T> {
    if (this.index) return this.index;
    const ix: Index<T> = {
      services: new Map(),
      serviceKinds: new Map(),
      certificates: new Map(),
      workloads: new Map(),
      deployments: new Map(),
      namespaces: new Map(),
      serviceAccounts: new Map(),
      roles: new Map(),
      clusterRoles: new Map(),
      bindings: [],
    };
    const first = (map: Map<string, T>, key: string, o: T) => {
      if (!map.has(key)) map.set(key, o);
    };
    for (const o of this.objects) {
      const j = o.json;
      if (!j || typeof j !== 'object') continue;
      const nsName = `${j.metadata?.namespace}/${j.metadata?.name}`;
      if (j.kind === 'Service') {
        first(ix.serviceKinds, nsName, o);
        if (j.apiVersion === 'v1') first(ix.services, nsName, o);
      } else if (j.kind === 'Certificate' && groupOf(j.apiVersion) === 'cert-manager.io') {
        first(ix.certificates, nsName, o);
      } else if (WORKLOAD_KINDS.includes(j.kind)) {
        if (j.kind === 'Deployment') first(ix.deployments, String(j.metadata?.name), o);
        const list = ix.workloads.get(j.metadata?.namespace) ?? [];
        list.push(o);
        ix.workloads.set(j.metadata?.namespace, list);
      } else if (j.kind === 'Namespace' && j.apiVersion === 'v1') {
        first(ix.namespaces, String(j.metadata?.name), o);
      } else if (j.kind === 'ServiceAccount' && j.apiVersion === 'v1') {
        first(ix.serviceAccounts, nsName, o);
      } else if (groupOf(j.apiVersion) === 'rbac.authorization.k8s.io') {
        if (j.kind === 'ClusterRole') ix.clusterRoles.set(String(j.metadata?.name), o);
        else if (j.kind === 'Role') ix.roles.set(nsName, o);
        else if (j.kind === 'ClusterRoleBinding' || j.kind === 'RoleBinding') ix.bindings.push(o);
      }
    }
    return this.index = ix;
  }

  /** The v1 Service namespace/name, or undefined. */
  public service(namespace: string, name: string): T | undefined {
    return this.ix.services.get(`${namespace}/${name}`);
  }

  /** The first object of kind Service (any apiVersion) namespace/name, or undefined. */
  public serviceOfAnyVersion(namespace: string | undefined, name: string | undefined): T | undefined {
    return this.ix.serviceKinds.get(`${namespace}/${name}`);
  }

  /** The cert-manager Certificate namespace/name, or undefined. */
  public certificate(namespace: string, name: string): T | undefined {
    return this.ix.certificates.get(`${namespace}/${name}`);
  }

  /** The Deployments, StatefulSets and DaemonSets of a namespace, in order. */
  public workloadsIn(namespace: string): readonly T[] {
    return this.ix.workloads.get(namespace) ?? [];
  }

  /** The workloads of a namespace whose pod template labels carry every label of `selector` (a Service's selector). */
  public workloadsSelectedBy(namespace: string, selector: Record<string, string>): T[] {
    return this.workloadsIn(namespace).filter((o) => matchLabels(selector, o.json.spec?.template?.metadata?.labels ?? {}));
  }

  /** The first Deployment of a name (any namespace). */
  public deployment(name: string): T | undefined {
    return this.ix.deployments.get(name);
  }

  /** v1 Namespaces by name (the first of each name). */
  public get namespaces(): ReadonlyMap<string, T> {
    return this.ix.namespaces;
  }

  /** The ServiceAccount namespace/name, or undefined. */
  public serviceAccount(namespace: string, name: string): T | undefined {
    return this.ix.serviceAccounts.get(`${namespace}/${name}`);
  }

  /** The Role namespace/name, or undefined. */
  public role(namespace: string, name: string): T | undefined {
    return this.ix.roles.get(`${namespace}/${name}`);
  }

  /** The ClusterRole of a name, or undefined. */
  public clusterRole(name: string): T | undefined {
    return this.ix.clusterRoles.get(name);
  }

  /** RoleBindings and ClusterRoleBindings, in order. */
  public get bindings(): readonly T[] {
    return this.ix.bindings;
  }

  /** Every webhook and conversion webhook, in object order, each with its backend and CA source. */
  public get webhooks(): readonly ResolvedWebhook<T>[] {
    if (this.resolvedWebhooks) return this.resolvedWebhooks;
    modelStatistics.webhookResolutions++;
    const out: ResolvedWebhook<T>[] = [];
    for (const o of this.objects) {
      const j = o.json;
      if (j?.kind === 'ValidatingWebhookConfiguration' || j?.kind === 'MutatingWebhookConfiguration') {
        for (const w of Array.isArray(j.webhooks) ? j.webhooks : []) {
          out.push(this.resolve(o, {
            name: w?.name,
            type: j.kind === 'MutatingWebhookConfiguration' ? 'mutating' : 'validating',
            clientConfig: w?.clientConfig,
            failurePolicy: w?.failurePolicy ?? 'Fail',
            rules: Array.isArray(w?.rules) ? w.rules : [],
            namespaceSelector: w?.namespaceSelector,
            objectSelector: w?.objectSelector,
          }));
        }
      }
      if (j?.kind === 'CustomResourceDefinition' && j.spec?.conversion?.strategy === 'Webhook') {
        out.push(this.resolve(o, { name: j.metadata?.name, type: 'conversion', clientConfig: j.spec.conversion.webhook?.clientConfig, failurePolicy: 'Fail', rules: [] }));
      }
    }
    return this.resolvedWebhooks = out;
  }

  /** The webhooks an object declares (a webhook configuration's, or a CRD's conversion webhook). */
  public webhooksOf(owner: T): readonly ResolvedWebhook<T>[] {
    if (!this.byOwner) {
      this.byOwner = new Map();
      for (const w of this.webhooks) this.byOwner.set(w.owner, [...(this.byOwner.get(w.owner) ?? []), w]);
    }
    return this.byOwner.get(owner) ?? [];
  }

  private resolve(owner: T, w: Omit<ResolvedWebhook<T>, 'owner' | 'annotations' | 'backend' | 'caSource'>): ResolvedWebhook<T> {
    const partial = { owner, ...w, annotations: (owner.json.metadata?.annotations ?? {}) as Record<string, string> };
    const backend = this.backendOf(partial.clientConfig);
    const caSource = this.caSourceOf(partial);
    return { ...partial, backend, ...(caSource ? { caSource } : {}) };
  }

  /** Resolves a webhook's clientConfig to the workload serving it, or explains why not. */
  private backendOf(clientConfig: any): ResolvedBackend<T> {
    const svcRef = clientConfig?.service;
    if (!svcRef) {
      return clientConfig?.url ? { problem: `uses url ${clientConfig.url}; only in-cluster services can be checked, use clientConfig.service` } : { problem: 'has no clientConfig.service' };
    }
    const port = svcRef.port ?? 443;
    const service = this.service(svcRef.namespace, svcRef.name);
    if (!service) return { problem: `points at Service ${svcRef.namespace}/${svcRef.name}, which is not in ${this.options.objectsName ?? 'the platform output'}` };
    const sp = (service.json.spec?.ports ?? []).find((p: any) => p.port === port);
    if (!sp) return { service, problem: `points at port ${port} of Service ${svcRef.namespace}/${svcRef.name}, which exposes ${(service.json.spec?.ports ?? []).map((p: any) => p.port).join(', ')}` };
    const selector = service.json.spec?.selector ?? {};
    if (!Object.keys(selector).length) return { service, problem: `Service ${svcRef.name} has no selector, so no workload backs it` };
    const workloads = this.workloadsSelectedBy(svcRef.namespace, selector);
    if (!workloads.length) return { service, problem: `Service ${svcRef.name} selects ${JSON.stringify(selector)}, which matches no workload's pod labels in namespace ${svcRef.namespace}` };
    // Several workloads: the Service spreads calls over all their pods, and most go to a server that does not serve this webhook.
    if (workloads.length > 1) {
      return { service, problem: `Service ${svcRef.name} selects ${JSON.stringify(selector)}, which matches the pods of ${workloads.length} workloads in namespace ${svcRef.namespace} (${workloads.map((x) => `${x.json.kind} ${x.json.metadata.name}`).join(', ')}); select exactly the backend's pods: add a label only they carry to the selector` };
    }
    const target = sp.targetPort ?? sp.port;
    for (const wl of workloads) {
      for (const c of wl.json.spec?.template?.spec?.containers ?? []) {
        const cp = (c.ports ?? []).find((p: any) => (typeof target === 'number' ? p.containerPort === target : p.name === target));
        if (cp) return { workload: wl, service, containerPort: cp.containerPort };
      }
    }
    return { service, problem: `Service ${svcRef.name} port ${port} targets '${target}', which no container of ${workloads.map((x) => x.json.metadata.name).join(', ')} exposes` };
  }

  /** The CA source of a webhook, in words, or undefined when there is none. */
  private caSourceOf(w: Pick<ResolvedWebhook<T>, 'owner' | 'clientConfig' | 'annotations'>): string | undefined {
    if (w.clientConfig?.caBundle) return 'caBundle';
    const owner = w.owner.json;
    const change = (this.options.runtimeChanges ?? []).find((c) => c.kind === owner.kind && c.name === owner.metadata?.name && c.jsonPointers.some((p) => p.endsWith('/caBundle')));
    if (change) {
      // The bundle arrives at run time: only if the rotator may patch this object.
      const ctl = this.deployment(change.by);
      const rules = ctl ? this.rulesHeldBy({ name: ctl.json.spec.template.spec.serviceAccountName, namespace: ctl.json.metadata.namespace }) : [];
      return allows(rules, groupOf(owner.apiVersion), WEBHOOK_CONFIGURATION_PLURALS[owner.kind], 'update', owner.metadata.name) ? `self-managed by ${change.by} (caBundle patched at run time)` : undefined;
    }
    const inject = w.annotations['cert-manager.io/inject-ca-from'];
    if (inject) {
      const [ns, name] = inject.split('/');
      return this.certificate(ns, name) ? `cert-manager ${inject}` : undefined;
    }
    if (w.annotations['service.beta.openshift.io/inject-cabundle'] === 'true') {
      const svc = w.clientConfig?.service;
      const service = this.serviceOfAnyVersion(svc?.namespace, svc?.name);
      return service?.json.metadata?.annotations?.['service.beta.openshift.io/serving-cert-secret-name'] ? 'openshift service-ca' : undefined;
    }
    return undefined;
  }

  /**
   * The rules of every ClusterRole, aggregation included: a ClusterRole with an
   * aggregationRule holds its own rules plus those of every ClusterRole its selectors match,
   * repeated until nothing changes (kubeflow-admin aggregates kubeflow-edit, which aggregates
   * kubeflow-view), as Kubernetes' aggregation controller fills them in.
   */
  public get clusterRoleRules(): ReadonlyMap<string, PolicyRule[]> {
    if (this.aggregated) return this.aggregated;
    // Every ClusterRole object in order (of two with one name, the later's rules count).
    const all = this.objects.map((o) => o.json).filter((j) => j?.kind === 'ClusterRole' && groupOf(j.apiVersion) === 'rbac.authorization.k8s.io');
    const out = new Map<string, PolicyRule[]>(all.map((r) => [r.metadata.name, [...(r.rules ?? [])]]));
    const keyOf = (r: PolicyRule) => JSON.stringify(r);
    for (let changed = true; changed;) {
      changed = false;
      for (const role of all) {
        const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map((s: any) => s.matchLabels ?? {}).filter((s: object) => Object.keys(s).length);
        if (!selectors.length) continue;
        const own = out.get(role.metadata.name)!;
        const have = new Set(own.map(keyOf));
        for (const other of all) {
          if (other === role || !selectors.some((sel: Record<string, string>) => Object.entries(sel).every(([k, v]) => other.metadata.labels?.[k] === v))) continue;
          for (const r of out.get(other.metadata.name) ?? []) {
            if (!have.has(keyOf(r))) { have.add(keyOf(r)); own.push(r); changed = true; }
          }
        }
      }
    }
    return this.aggregated = out;
  }

  /** The bindings whose subjects include the ServiceAccount (by name, or through its groups or user name), in order. */
  public bindingsOf(sa: ServiceAccountRef): readonly T[] {
    if (!this.boundBy) {
      this.boundBy = new Map();
      // Subjects that name no single account (groups, users) are matched per account below.
      this.boundBy.set('', this.bindings.filter((b) => (b.json.subjects ?? []).some((s: any) => s?.kind !== 'ServiceAccount')));
      for (const b of this.bindings) {
        for (const s of b.json.subjects ?? []) {
          if (s?.kind !== 'ServiceAccount') continue;
          const key = `${s.namespace ?? b.json.metadata?.namespace}/${s.name}`;
          const list = this.boundBy.get(key) ?? [];
          if (!list.includes(b)) list.push(b);
          this.boundBy.set(key, list);
        }
      }
    }
    const key = `${sa.namespace}/${sa.name}`;
    const direct = this.boundBy.get(key) ?? [];
    const indirect = this.boundBy.get('')!.filter((b) => !direct.includes(b) && (b.json.subjects ?? []).some((s: any) => bindsAccount(s, sa)));
    if (!indirect.length) return direct;
    const set = new Set([...direct, ...indirect]);
    return this.bindings.filter((b) => set.has(b));
  }

  /**
   * The rules a ServiceAccount holds: cluster-wide (`namespace` undefined), the rules of the
   * ClusterRoles its ClusterRoleBindings reference; in a namespace, those plus the rules its
   * RoleBindings in that namespace reference. Aggregated ClusterRoles count with the rules
   * they aggregate.
   */
  public rulesHeldBy(sa: ServiceAccountRef, namespace?: string): PolicyRule[] {
    const key = `${sa.namespace}/${sa.name}/${namespace ?? ''}`;
    const known = this.held.get(key);
    if (known) return known;
    const out: PolicyRule[] = [];
    for (const o of this.bindingsOf(sa)) {
      const b = o.json;
      if (!b.roleRef) continue;
      if (b.kind === 'RoleBinding' && (namespace === undefined || b.metadata.namespace !== namespace)) continue;
      out.push(...(b.roleRef.kind === 'ClusterRole' ? this.clusterRoleRules.get(b.roleRef.name) ?? [] : this.role(b.metadata.namespace, b.roleRef.name)?.json.rules ?? []));
    }
    this.held.set(key, out);
    return out;
  }

  /** Every container image of a pod spec (workloads, CronJobs, ServingRuntimes), with its object, in object order. */
  public get images(): ReadonlyArray<{ readonly object: T; readonly image: string }> {
    if (this.imageList) return this.imageList;
    const out: Array<{ object: T; image: string }> = [];
    for (const o of this.objects) {
      const spec = o.json && typeof o.json === 'object' ? podSpecOf(o.json) : undefined;
      for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) if (c?.image) out.push({ object: o, image: c.image });
    }
    return this.imageList = out;
  }
}

/** Whether a binding subject (a group or user) takes in the ServiceAccount. */
function bindsAccount(s: any, sa: ServiceAccountRef): boolean {
  if (s?.kind === 'Group') return ['system:authenticated', 'system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`].includes(s.name);
  return s?.kind === 'User' && s.name === `system:serviceaccount:${sa.namespace}:${sa.name}`;
}

/** Object models of plain object lists (JSON), one per list: for readers handed a list rather than a platform. */
const objectModels = new WeakMap<readonly unknown[], ObjectModel<ModelObject>>();

/** The model of a list of JSON objects, built once per list (the list must not change afterwards). */
export function modelOfJson(objects: readonly unknown[]): ObjectModel<ModelObject> {
  let model = objectModels.get(objects);
  if (!model) objectModels.set(objects, model = new ObjectModel(objects.map((json) => ({ json }))));
  return model;
}
