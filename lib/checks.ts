import { contentDigest } from './cache';
import { Component } from './component';
import { Controller } from './controller';
import { CrdDefinition, gvkKey } from './crd';
import { checkIstioPolicySidecars, checkMeshAuthentication } from './istio';
import { compareKubernetesVersions } from './kubernetes-version';
import { PodSelection, ResolvedWebhook, selectorMatches, selectorOverlaps, webhookLabel } from './model';
import { policyTargetsOf } from './network-policy';
import { PHASES } from './phases';
import { PlatformModel, PlatformObject } from './platform';
import { modelOf } from './platform-model';
import { allows, describeRule, PolicyRule, uncoveredRules } from './rbac';
import { runtimeGrantProblem, runtimeRbacCreators } from './runtime-rbac';
import { SecurityCheck, securityException } from './security';
import { isSharedJson } from './shared-json';
import { isBuiltinGroup, isBuiltinKind } from './validation/builtin-kinds';
import type { ValidationIssue } from './validation/issues';
import { Verdicts } from './validation/verdicts';
import { LabelSelector } from './webhook-server';
import { Workload } from './workload';

/** How bad a finding is: errors fail synth; warnings are listed in REPORT.md. */
export type Severity = 'error' | 'warning';

/** One finding: the rule it breaks, where, and what to do. */
export interface Finding {
  readonly rule: string;
  readonly path: string;
  readonly message: string;
  /** @default 'error' */
  readonly severity?: Severity;
}

export interface CheckRule {
  readonly id: string;
  readonly title: string;
  readonly check: (m: PlatformModel) => Finding[];
}

/** The synth-time checks, as data: each has an id, a title and a test that makes it fire. */
export const CHECKS: CheckRule[] = [
  { id: 'MLP001', title: 'built-in objects match the Kubernetes API schema (strict fields) and the API server\'s RBAC validation', check: checkBuiltins },
  { id: 'MLP002', title: 'custom resources match the CRD the platform emits, CEL rules included', check: checkCustomResources },
  { id: 'MLP003', title: 'every CEL rule of every CRD compiles, as the API server of the platform\'s kubernetesVersion compiles it (scopes, string escapes, libraries, cost budgets)', check: checkCelCompiles },
  { id: 'MLP070', title: 'no component needs a newer Kubernetes than the platform targets (kubernetesVersion)', check: checkKubernetesVersions },
  { id: 'MLP004', title: 'no two objects share kind, namespace and name', check: checkDuplicates },
  { id: 'MLP010', title: 'every custom resource is served by a CRD applied in an earlier phase, or by a prerequisite', check: checkCrdOrder },
  { id: 'MLP011', title: 'every namespaced object has its Namespace in an earlier phase, or an existing one', check: checkNamespaces },
  { id: 'MLP020', title: 'every webhook and conversion clientConfig resolves to Service -> port -> selected workload -> container port', check: checkWebhookBackends },
  { id: 'MLP021', title: 'every webhook and conversion webhook has a CA source', check: checkCaSources },
  { id: 'MLP022', title: 'no object a fail-closed webhook intercepts is applied before that webhook backend is up', check: checkInterception },
  { id: 'MLP023', title: 'objects that an infrastructure component\'s webhooks intercept are applied after those webhooks are configured', check: checkInfrastructureWebhooksFirst },
  { id: 'MLP024', title: 'no Service, PodDisruptionBudget, NetworkPolicy or workload selector picks the pods of another workload in its namespace', check: checkSelectorOverlaps },
  { id: 'MLP030', title: 'RBAC covers every resource a controller owns and watches', check: checkRbac },
  { id: 'MLP031', title: 'a controller\'s ServiceAccount may create every role and binding it creates at run time (it holds their rules, or escalate/bind, as the API server\'s escalation check compares them), and holds its direct client calls and its SubjectAccessReview-checked verbs', check: checkRuntimeNeeds },
  { id: 'MLP040', title: 'no Secret carries literal credentials (passwords, secret or access keys): reference a Secret the user provides', check: checkLiteralCredentials },
  { id: 'MLP050', title: 'every pod template passes Pod Security "restricted", or declares an exception with a reason', check: checkPodSecurity },
  { id: 'MLP051', title: 'no \'*\' in RBAC verbs, resources or API groups, unless the role declares an exception with a reason', check: checkRbacWildcards },
  { id: 'MLP052', title: 'every image is pinned: a release tag (not latest) or a sha256 digest, in pod templates, custom resources and ConfigMaps', check: checkImagesPinned },
  { id: 'MLP053', title: 'fail-closed webhooks on built-in namespaced resources exclude kube-system and their backend\'s namespace', check: checkWebhookNamespaces },
  { id: 'MLP054', title: 'every container of a Deployment, StatefulSet or DaemonSet requests cpu and memory', check: checkResourceRequests },
  { id: 'MLP055', title: 'CRDs over 256 KiB are flagged for server-side apply (warning)', check: checkLargeCrds },
  { id: 'MLP056', title: 'no object exceeds the 1.5 MiB etcd stores per object (1 MiB of ConfigMap or Secret data is MLP001, as the API server checks it)', check: checkObjectSizes },
  { id: 'MLP060', title: 'every NetworkPolicy and AuthorizationPolicy a component declares selects exactly the pods of the workloads it names, never another workload\'s', check: checkPolicySelectors },
  { id: 'MLP061', title: 'every Istio AuthorizationPolicy, PeerAuthentication and RequestAuthentication selects pods that get a sidecar (a policy without selector: its namespace injects sidecars)', check: checkIstioPolicySidecars },
  { id: 'MLP062', title: 'every workload that relies on Istio to authenticate its callers has an AuthorizationPolicy enforced by its sidecar, or NetworkPolicies that restrict who reaches it', check: checkMeshAuthentication },
  { id: 'MLP063', title: 'every NetworkPolicy selects the pods of a workload in its namespace (a namespace-wide one, or one over pods made at run time, excepted), and every port it admits is a container port of those pods', check: checkNetworkPolicyReach },
  { id: 'MLP064', title: 'every webhook whose backend pods a NetworkPolicy isolates is admitted on its port from every source (the API server calls from outside the pod network)', check: checkWebhookIngress },
];

export function runChecks(m: PlatformModel): Finding[] {
  // Each object is serialized once per run: for its size (MLP055, MLP056) and, with verdicts
  // kept, its content digest (a CRD is a built-in object, the CEL rules' owner and its custom
  // resources' context). Never across runs: an object may change between them.
  const keyed = !!Verdicts.fromEnvironment();
  const sizes = new Map<PlatformObject, JsonSize>();
  digests = new Map();
  if (keyed) lastDigests.set(m, digests);
  else lastDigests.delete(m);
  for (const o of m.objects) {
    const text = JSON.stringify(o.json);
    sizes.set(o, { length: text.length, bytes: Buffer.byteLength(text, 'utf8') });
    if (keyed) digests.set(o.json, contentDigest(o.json, text));
  }
  jsonSizes.set(m, sizes);
  try {
    return CHECKS.flatMap((c) => c.check(m));
  } finally {
    digests = undefined;
    Verdicts.fromEnvironment()?.flush();
  }
}

let digests: Map<unknown, string | undefined> | undefined;
const lastDigests = new WeakMap<PlatformModel, ReadonlyMap<unknown, string | undefined>>();

/**
 * The content digest (lib/cache.ts) of each object's JSON of a model, as its last runChecks
 * took them (with the synth's caches on; undefined otherwise): for work on the same objects
 * right after the checks (buildPlatform's rendering), while they stay unchanged.
 */
export function contentDigestsOf(m: PlatformModel): ReadonlyMap<unknown, string | undefined> | undefined {
  return lastDigests.get(m);
}

function digestOnce(value: unknown): string | undefined {
  if (!digests) return contentDigest(value);
  if (!digests.has(value)) digests.set(value, contentDigest(value));
  return digests.get(value);
}

/**
 * The validators (ajv, the CEL library, the Kubernetes schemas), loaded when a check first
 * needs one: a synth whose verdicts are all known does without them.
 */
function validators(): typeof import('./validation') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./validation');
}

/**
 * Runs a validation through the verdicts the environment keeps (lib/validation/verdicts.ts):
 * items validated before, with the same code, are not validated again.
 */
function withVerdicts<T>(kind: string, context: unknown, items: readonly T[], validate: (items: T[]) => ValidationIssue[][]): ValidationIssue[][] {
  const verdicts = Verdicts.fromEnvironment();
  return verdicts ? verdicts.of(kind, context, items, validate, digestOnce) : validate([...items]);
}

/**
 * Whether a finding or a validation issue fails synth: every one but a warning does (a
 * large CRD; a CEL rule the validator cannot evaluate, which `mlplatform validate` shows).
 */
export function isError(f: { readonly severity?: string }): boolean {
  return f.severity !== 'warning';
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
const keyOf = (o: any): string => `${groupOf(o.apiVersion)}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
const phaseIdx = (o: PlatformObject): number => PHASES.indexOf(o.phase);

function isCr(o: PlatformObject): boolean {
  return !isBuiltinKind(o.json.apiVersion, o.json.kind);
}

function checkBuiltins(m: PlatformModel): Finding[] {
  // Validated together: objects of one kind share one validator.
  const builtins = m.objects.filter((o) => isBuiltinKind(o.json.apiVersion, o.json.kind));
  const results = withVerdicts('builtin', '', builtins.map((o) => o.json), (objs) => validators().validateBuiltins(objs));
  return builtins.flatMap((o, k) => results[k].filter(isError).map((i) => ({ rule: 'MLP001', path: o.path, message: `${o.json.kind} ${o.json.metadata?.name}: ${i.path ? i.path + ': ' : ''}${i.message}` })));
}

function crdObjects(m: PlatformModel): Map<string, PlatformObject> {
  const out = new Map<string, PlatformObject>();
  for (const o of m.objects) {
    if (o.json.kind === 'CustomResourceDefinition') out.set(`${o.json.spec.group}/${o.json.spec.names.kind}`, o);
  }
  return out;
}

function checkCustomResources(m: PlatformModel): Finding[] {
  const crds = crdObjects(m);
  // Objects of one CRD are validated together: its schema is compiled once for all of them.
  const byCrd = new Map<PlatformObject, PlatformObject[]>();
  for (const o of m.objects) {
    if (!isCr(o)) continue;
    const crd = crds.get(`${groupOf(o.json.apiVersion)}/${o.json.kind}`);
    if (!crd) continue; // served by a prerequisite (or reported by MLP010)
    let list = byCrd.get(crd);
    if (!list) byCrd.set(crd, list = []);
    list.push(o);
  }
  const issues = new Map<PlatformObject, ValidationIssue[]>();
  for (const [crd, objs] of byCrd) {
    // A custom resource's verdict holds for the CRD it was validated against: the CRD is its context.
    const results = withVerdicts('custom-resource', crd.json, objs.map((o) => o.json), (xs) => validators().validateCustomResources(xs, crd.json));
    objs.forEach((o, i) => issues.set(o, results[i]));
  }
  const out: Finding[] = [];
  for (const o of m.objects) {
    for (const i of (issues.get(o) ?? []).filter(isError)) {
      out.push({ rule: 'MLP002', path: o.path, message: `${o.json.kind} ${o.json.metadata?.name}: ${i.path ? i.path + ': ' : ''}${i.message}` });
    }
  }
  return out;
}

/** Components whose declared minimum Kubernetes is newer than the platform's (MLP070). */
function tooNew(m: PlatformModel): Component[] {
  return m.components.filter((c) => compareKubernetesVersions(c.kubernetes.min, m.platform.kubernetesVersion) > 0);
}

function checkKubernetesVersions(m: PlatformModel): Finding[] {
  const target = m.platform.kubernetesVersion;
  const out: Finding[] = tooNew(m).map((c) => ({
    rule: 'MLP070',
    path: c.node.path,
    message: `component ${c.componentName} (${c.constructor.name}) needs Kubernetes ${c.kubernetes.min} or newer for ${c.kubernetes.feature} (${c.kubernetes.source}), `
      + `but the platform's kubernetesVersion is ${target}: set kubernetesVersion to '${c.kubernetes.min}' or newer, or turn the component off (components: { '${c.componentName}': false })`,
  }));
  for (const c of m.components) {
    const max = c.kubernetes.max;
    if (max && compareKubernetesVersions(target, max) > 0) {
      out.push({ rule: 'MLP070', path: c.node.path, message: `component ${c.componentName} (${c.constructor.name}) supports Kubernetes up to ${max}, but the platform's kubernetesVersion is ${target}: target ${max} or older, or turn the component off` });
    }
  }
  return out;
}

function checkCelCompiles(m: PlatformModel): Finding[] {
  // The CRDs of a component MLP070 already stops would only repeat why.
  const stopped = new Set(tooNew(m));
  return m.objects
    .filter((o) => o.json.kind === 'CustomResourceDefinition' && !stopped.has(o.component))
    .flatMap((o) => withVerdicts('cel', m.platform.kubernetesVersion, [o.json], ([crd]) => [validators().compileCelRules(crd, m.platform.kubernetesVersion)])[0].map((i) => ({ rule: 'MLP003', path: o.path, message: `CRD ${o.json.metadata.name}: ${i.path ? i.path + ': ' : ''}${i.message}` })));
}

function checkDuplicates(m: PlatformModel): Finding[] {
  const seen = new Map<string, PlatformObject>();
  const out: Finding[] = [];
  for (const o of m.objects) {
    const k = keyOf(o.json);
    const prev = seen.get(k);
    if (prev && !(o.json.kind === 'Namespace' && JSON.stringify(o.json) === JSON.stringify(prev.json))) {
      out.push({ rule: 'MLP004', path: o.path, message: `${o.json.kind} ${o.json.metadata?.namespace ? o.json.metadata.namespace + '/' : ''}${o.json.metadata?.name} is also emitted by ${prev.path}; remove one or rename it` });
    } else {
      seen.set(k, o);
    }
  }
  return out;
}

function checkCrdOrder(m: PlatformModel): Finding[] {
  const crds = crdObjects(m);
  const out: Finding[] = [];
  for (const o of m.objects) {
    if (!isCr(o)) continue;
    const gk = `${groupOf(o.json.apiVersion)}/${o.json.kind}`;
    const crd = crds.get(gk);
    if (!crd) {
      if (!m.externalKinds.has(gk)) {
        out.push({ rule: 'MLP010', path: o.path, message: `${o.json.kind} ${o.json.metadata?.name} (${o.json.apiVersion}) is served by no CRD in the platform and no prerequisite; add the component that owns ${gk} or declare it in prerequisites` });
        continue;
      }
      // Served by a prerequisite: at one of the versions it declares (when it declares any).
      const versions = [...new Set(m.platform.prerequisites.flatMap((p) => p.provides.filter((g) => `${g.group}/${g.kind}` === gk && g.version).map((g) => g.version!)))];
      if (versions.length && !versions.includes(o.json.apiVersion.split('/')[1])) {
        out.push({ rule: 'MLP010', path: o.path, message: `${o.json.kind} ${o.json.metadata?.name} uses ${o.json.apiVersion}, which the platform's prerequisites do not serve (they serve ${gk} as ${versions.join(', ')}); use one of those versions` });
      }
      continue;
    }
    if (phaseIdx(crd) >= phaseIdx(o)) {
      out.push({ rule: 'MLP010', path: o.path, message: `${o.json.kind} ${o.json.metadata?.name} is in phase ${o.phase}, not after its CRD ${crd.json.metadata.name} (phase ${crd.phase}); put it in a later phase (setPhase(obj, Phase.RESOURCES))` });
    }
    const version = o.json.apiVersion.split('/')[1];
    const v = (crd.json.spec.versions as Array<{ name: string; served: boolean }>).find((x) => x.name === version);
    if (!v || !v.served) {
      out.push({ rule: 'MLP010', path: o.path, message: `${o.json.kind} ${o.json.metadata?.name} uses ${o.json.apiVersion}, which CRD ${crd.json.metadata.name} does not serve (serves ${(crd.json.spec.versions as Array<{ name: string; served: boolean }>).filter((x) => x.served).map((x) => x.name).join(', ')})` });
    }
  }
  return out;
}

function namespaceObjects(m: PlatformModel): ReadonlyMap<string, PlatformObject> {
  // The first Namespace of a name counts: later identical copies are deduplicated on write.
  return modelOf(m).namespaces;
}

function checkNamespaces(m: PlatformModel): Finding[] {
  const namespaces = namespaceObjects(m);
  const out: Finding[] = [];
  for (const o of m.objects) {
    const ns = o.json.metadata?.namespace;
    if (!ns) continue;
    const nsObj = namespaces.get(ns);
    if (nsObj) {
      if (nsObj.order > o.order) out.push({ rule: 'MLP011', path: o.path, message: `${o.json.kind} ${o.json.metadata.name} comes before its Namespace ${ns}` });
    } else if (!m.platform.existingNamespaces.includes(ns)) {
      out.push({ rule: 'MLP011', path: o.path, message: `${o.json.kind} ${o.json.metadata.name} is in namespace '${ns}', which the platform neither creates nor lists in existingNamespaces; add the namespace or list it` });
    }
  }
  return out;
}

/** A webhook (admission or conversion) of a platform, resolved (lib/model.ts): its backend and CA source included. */
export type WebhookRef = ResolvedWebhook<PlatformObject>;

export { selectorMatches, selectorOverlaps, webhookLabel };
export type { PodSelection };

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];

function checkWebhookBackends(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const w of modelOf(m).webhooks) {
    if (w.backend.problem) out.push({ rule: 'MLP020', path: w.owner.path, message: `${webhookLabel(w)} ${w.backend.problem}` });
  }
  return out;
}

function checkSelectorOverlaps(m: PlatformModel): Finding[] {
  // A policy declared through lib/network-policy.ts names its targets: MLP060 holds its
  // selector to exactly those (and allows pods made at run time), so it is not judged twice.
  return selectorOverlaps(m.objects.map((o) => o.json))
    .filter((f) => !policyTargetsOf(m.objects[f.index].apiObject))
    .map((f) => ({ rule: 'MLP024', path: m.objects[f.index].path, message: f.message }));
}

function checkCaSources(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const w of modelOf(m).webhooks) {
    if (!w.caSource) {
      const inject = w.annotations['cert-manager.io/inject-ca-from'];
      const selfManaged = m.runtimeChanges.some((c) => c.kind === w.owner.json.kind && c.name === w.owner.json.metadata.name);
      out.push({
        rule: 'MLP021',
        path: w.owner.path,
        message: selfManaged
          ? `${webhookLabel(w)}: its caBundle is patched at run time by a self-managed rotator, but that controller's RBAC does not allow update on ${w.owner.json.kind} ${w.owner.json.metadata.name}; grant it (WebhookServer adds the rotator's roles)`
          : inject
            ? `${webhookLabel(w)}: cert-manager.io/inject-ca-from names Certificate ${inject}, which is not in the platform output`
            : `${webhookLabel(w)} has no CA source: no caBundle, no cert-manager injection, no OpenShift service-ca (with the Service's serving-cert annotation)`,
      });
    }
  }
  return out;
}

/** The plural resource of an object, for matching webhook rules. */
function resourceOf(m: PlatformModel, json: any): string | undefined {
  const gk = `${groupOf(json.apiVersion)}/${json.kind}`;
  const def: CrdDefinition | undefined = m.kinds.get(gk);
  if (def) return def.plural;
  return BUILTIN_PLURALS[json.kind];
}

const BUILTIN_PLURALS: Record<string, string> = {
  Pod: 'pods',
  Service: 'services',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  ServiceAccount: 'serviceaccounts',
  Namespace: 'namespaces',
  Deployment: 'deployments',
  StatefulSet: 'statefulsets',
  DaemonSet: 'daemonsets',
  Job: 'jobs',
  CronJob: 'cronjobs',
  Role: 'roles',
  ClusterRole: 'clusterroles',
  RoleBinding: 'rolebindings',
  ClusterRoleBinding: 'clusterrolebindings',
  CustomResourceDefinition: 'customresourcedefinitions',
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  NetworkPolicy: 'networkpolicies',
  PodDisruptionBudget: 'poddisruptionbudgets',
  HorizontalPodAutoscaler: 'horizontalpodautoscalers',
  Ingress: 'ingresses',
  Lease: 'leases',
};

function ruleMatches(rule: any, group: string, version: string, resource: string, namespaced: boolean): boolean {
  const inList = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
  const scope = rule.scope ?? '*';
  return (
    inList(rule.apiGroups, group) &&
    inList(rule.apiVersions, version) &&
    // '*/*' is every resource and subresource (cert-manager's webhook uses it).
    (inList(rule.resources, resource) || (rule.resources ?? []).includes('*/*')) &&
    inList(rule.operations, 'CREATE') &&
    (scope === '*' || (scope === 'Namespaced') === namespaced)
  );
}

/** Objects a webhook would see on create: each object, plus the pods of each workload. */
function admissionSubjects(m: PlatformModel): Array<{ obj: PlatformObject; json: any; what: string }> {
  const out: Array<{ obj: PlatformObject; json: any; what: string }> = [];
  for (const o of m.objects) {
    if (o.json.kind === 'ValidatingWebhookConfiguration' || o.json.kind === 'MutatingWebhookConfiguration') continue;
    out.push({ obj: o, json: o.json, what: `${o.json.kind} ${o.json.metadata?.name}` });
    const tpl = WORKLOAD_KINDS.includes(o.json.kind) ? o.json.spec?.template : undefined;
    if (tpl) {
      out.push({ obj: o, json: { apiVersion: 'v1', kind: 'Pod', metadata: { ...tpl.metadata, namespace: o.json.metadata.namespace } }, what: `pods of ${o.json.kind} ${o.json.metadata.name}` });
    }
  }
  return out;
}

/**
 * Whether webhook `w` sees `json` on create: its rules match the object's group, version,
 * resource and scope, and its namespace and object selectors match (namespace labels from
 * the platform's Namespace objects, plus kubernetes.io/metadata.name).
 */
function intercepts(
  m: PlatformModel,
  w: Pick<WebhookRef, 'rules' | 'namespaceSelector' | 'objectSelector'>,
  json: any,
  namespaces: ReadonlyMap<string, PlatformObject>,
  target: AdmissionTarget = admissionTarget(m, json),
): boolean {
  const { group, version, resource } = target;
  const ns = json.metadata?.namespace;
  if (!resource || !w.rules.some((r) => ruleMatches(r, group, version, resource, !!ns))) return false;
  if (ns) {
    const nsLabels = { 'kubernetes.io/metadata.name': ns, ...(namespaces.get(ns)?.json.metadata.labels ?? {}) };
    if (!selectorMatches(w.namespaceSelector, nsLabels)) return false;
  }
  return selectorMatches(w.objectSelector, json.metadata?.labels ?? {});
}

/** What webhook rules match an object on (computed once per object by the interception check). */
interface AdmissionTarget {
  readonly group: string;
  readonly version: string;
  readonly resource: string | undefined;
}

function admissionTarget(m: PlatformModel, json: any): AdmissionTarget {
  return {
    group: groupOf(json.apiVersion),
    version: json.apiVersion.includes('/') ? json.apiVersion.split('/')[1] : json.apiVersion,
    resource: resourceOf(m, json),
  };
}

/**
 * The admission webhooks of the platform that would intercept `json` when it is created,
 * e.g. a Pod in a tenant namespace: `interceptingWebhooks(model, { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'team-a' } })`.
 */
export function interceptingWebhooks(m: PlatformModel, json: any): WebhookRef[] {
  const namespaces = namespaceObjects(m);
  return modelOf(m).webhooks.filter((w) => w.rules.length && intercepts(m, w, json, namespaces));
}

/**
 * Runtime-created webhooks: the operator creates the configuration (and its backend)
 * once it runs, so an object of an intercepted kind applied after the operator's phase
 * may meet a live, fail-closed webhook whose backend is not up.
 */
function checkRuntimeInterception(m: PlatformModel, namespaces: ReadonlyMap<string, PlatformObject>, subjects: Array<ReturnType<typeof admissionSubjects>[number] & AdmissionTarget>): Finding[] {
  const out: Finding[] = [];
  for (const c of m.components) {
    for (const w of c.runtimeWebhooks) {
      const label = `runtime-created webhook ${w.name} of ${w.type === 'mutating' ? 'Mutating' : 'Validating'}WebhookConfiguration ${w.configurationName}`;
      const creator = m.objects.find((o) => o.component === c && WORKLOAD_KINDS.includes(o.json.kind) && o.json.metadata.name === w.createdBy);
      if (!creator) {
        out.push({ rule: 'MLP022', path: c.node.path, message: `${label} is created by ${w.createdBy}, which is not a workload of ${c.componentName} in the output; name the operator's Deployment in createdBy` });
        continue;
      }
      if ((w.failurePolicy ?? 'Fail') !== 'Fail') continue;
      for (const s of subjects) {
        if (phaseIdx(s.obj) <= phaseIdx(creator) || !intercepts(m, w, s.json, namespaces, s)) continue;
        out.push({
          rule: 'MLP022',
          path: s.obj.path,
          message: `${s.what} (phase ${s.obj.phase}) is intercepted by fail-closed ${label}, which ${w.createdBy} (phase ${creator.phase}) creates at run time (${w.when}) with a backend not in the output; create it after the operator reports ready, not in the platform output`,
        });
      }
    }
  }
  return out;
}

function checkInterception(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const webhooks = modelOf(m).webhooks.filter((w) => w.failurePolicy === 'Fail' && w.rules.length);
  if (!webhooks.length && !m.components.some((c) => c.runtimeWebhooks.length)) return out;
  const namespaces = namespaceObjects(m);
  // What a webhook rule matches on, computed once per subject rather than once per webhook and subject.
  const subjects = admissionSubjects(m).map((s) => ({ ...s, ...admissionTarget(m, s.json) }));
  out.push(...checkRuntimeInterception(m, namespaces, subjects));
  for (const w of webhooks) {
    const backend = w.backend.workload;
    for (const s of subjects) {
      if (!intercepts(m, w, s.json, namespaces, s)) continue;
      if (backend && s.obj === backend && s.json.kind === 'Pod') {
        out.push({ rule: 'MLP022', path: w.owner.path, message: `fail-closed ${webhookLabel(w)} intercepts the pods of its own backend ${backend.json.kind} ${backend.json.metadata.name}: after a restart no pod can be created; exclude them with namespaceSelector/objectSelector` });
        continue;
      }
      // Intercepted only if the webhook configuration is live when the object is applied.
      if (phaseIdx(s.obj) <= phaseIdx(w.owner)) continue;
      if (!backend || phaseIdx(backend) >= phaseIdx(s.obj)) {
        out.push({ rule: 'MLP022', path: s.obj.path, message: `${s.what} (phase ${s.obj.phase}) is intercepted by fail-closed ${webhookLabel(w)}, whose backend ${backend ? `${backend.json.metadata.name} is in phase ${backend.phase}` : 'is not in the output'}; apply it in a later phase than the backend` });
      }
    }
  }
  return out;
}

/**
 * Infrastructure components (e.g. cert-manager) validate and default the objects other
 * components create of their kinds: those must reach the cluster only once the
 * infrastructure's webhooks are configured (MLP022 then proves their backends are up).
 */
function checkInfrastructureWebhooksFirst(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const namespaces = namespaceObjects(m);
  const subjects = admissionSubjects(m).filter((s) => s.json.kind !== 'Pod');
  for (const w of modelOf(m).webhooks) {
    if (w.type === 'conversion' || !w.owner.component.providesInfrastructure.length) continue;
    for (const s of subjects.filter((x) => intercepts(m, w, x.json, namespaces))) {
      if (phaseIdx(s.obj) > phaseIdx(w.owner)) continue;
      out.push({
        rule: 'MLP023',
        path: s.obj.path,
        message: `${s.what} (phase ${s.obj.phase}) would reach the cluster before ${webhookLabel(w)} (phase ${w.owner.phase}) of infrastructure component '${w.owner.component.componentName}' is configured; apply it in a later phase`,
      });
    }
  }
  return out;
}

function checkRbac(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const c of m.components) {
    for (const ctl of c.node.findAll().filter((x): x is Controller => x instanceof Controller)) {
      const rules = boundRules(m, ctl);
      for (const def of ctl.owns) {
        for (const [resource, verbs] of [[def.plural, ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']], [`${def.plural}/status`, ['get', 'update', 'patch']], [`${def.plural}/finalizers`, ['update']]] as const) {
          const missing = verbs.filter((v) => !allows(rules, def.group, resource, v));
          if (missing.length) {
            out.push({ rule: 'MLP030', path: ctl.node.path, message: `controller ${ctl.name} owns ${gvkKey(def)} but its RBAC does not allow ${missing.join(', ')} on ${def.group}/${resource}; grant it through the Controller's owns/rules` });
          }
        }
      }
      for (const w of ctl.watches) {
        const missing = ['get', 'list', 'watch'].filter((v) => !allows(rules, w.group, w.resource, v));
        if (missing.length) {
          out.push({ rule: 'MLP030', path: ctl.node.path, message: `controller ${ctl.name} watches ${w.group || 'core'}/${w.resource} but its RBAC does not allow ${missing.join(', ')} on it; grant it through the Controller's rules (Rbac.read)` });
        }
      }
    }
  }
  return out;
}

function checkRuntimeNeeds(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const model = modelOf(m);
  for (const creator of runtimeRbacCreators(m)) {
    const ctl = creator.creator;
    const sa = `${creator.serviceAccount.namespace}/${creator.serviceAccount.name}`;
    const what = ctl instanceof Controller ? 'Controller' : 'Workload';
    for (const g of creator.grants) {
      const problem = runtimeGrantProblem(model, creator, g);
      if (problem) {
        out.push({
          rule: 'MLP031',
          path: ctl.node.path,
          message: `component ${creator.component.componentName}: ${what.toLowerCase()} ${ctl.name} creates ${g.kind} ${g.name} at run time (${g.createdFor}) as ServiceAccount ${sa}, and the API server refuses it: ${problem}. ` +
            `Keep the ${g.kind} in the ${what}'s grants (the rules of roles, and of bindings that carry them, are derived from them), grant what it lacks in the component's RBAC, and do not leave it out or patch it away`,
        });
      }
    }
  }
  for (const c of m.components) {
    for (const ctl of c.node.findAll().filter((x): x is Controller | Workload => x instanceof Controller || x instanceof Workload)) {
      if (!ctl.clientCalls.length && !ctl.accessReviews.length) continue;
      const held = model.rulesHeldBy({ name: ctl.serviceAccountName, namespace: ctl.namespace });
      const sa = `${ctl.namespace}/${ctl.serviceAccountName}`;
      const missing = (wanted: PolicyRule[]) => [...new Set(uncoveredRules(held, wanted).map(describeRule))];
      for (const [what, list] of [['calls directly', ctl.clientCalls], ['is checked by SubjectAccessReview for', ctl.accessReviews]] as const) {
        for (const n of list) {
          const lacking = missing([n.rule]);
          if (lacking.length) out.push({ rule: 'MLP031', path: ctl.node.path, message: `${ctl instanceof Controller ? 'controller' : 'workload'} ${ctl.name} ${what} ${lacking.join('; ')} (${n.reason}), which its ServiceAccount ${sa} does not hold cluster-wide; keep it in the ${ctl instanceof Controller ? 'Controller' : 'Workload'}'s ${what === 'calls directly' ? 'clientCalls' : 'accessReviews'}` });
        }
      }
    }
  }
  return out;
}

function checkPolicySelectors(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const model = modelOf(m);
  for (const o of m.objects) {
    const targets = policyTargetsOf(o.apiObject);
    if (!targets) continue;
    const j = o.json;
    const selector: LabelSelector | undefined = j.kind === 'NetworkPolicy' ? j.spec?.podSelector : j.spec?.selector;
    const what = `${j.kind} ${j.metadata.namespace}/${j.metadata.name}`;
    const matched = model.workloadsIn(j.metadata.namespace).filter((w) => selectorMatches(selector, w.json.spec?.template?.metadata?.labels ?? {}));
    const intended = new Set(targets.filter((t) => !t.runtimePods).map((t) => t.name));
    for (const w of matched) {
      if (!intended.has(w.json.metadata.name)) {
        out.push({ rule: 'MLP060', path: o.path, message: `${what} selects the pods of ${w.json.kind} ${w.json.metadata.name} (${w.path}), which it does not name as a target; narrow its selector with a label only its targets' pods carry` });
      }
    }
    for (const name of intended) {
      if (!matched.some((w) => w.json.metadata.name === name)) {
        out.push({ rule: 'MLP060', path: o.path, message: `${what} names ${name} as a target, but selects no pod of a workload ${name} in namespace ${j.metadata.namespace}; use the workload's selector labels` });
      }
    }
  }
  return out;
}

/** Whether a label selector is empty (it selects every pod of its namespace). */
function emptySelector(sel: LabelSelector | undefined): boolean {
  return !Object.keys(sel?.matchLabels ?? {}).length && !(sel?.matchExpressions ?? []).length;
}

/** Whether a NetworkPolicy isolates the pods it selects for ingress. */
function isolatesIngress(np: any): boolean {
  return (np.spec?.policyTypes ?? ['Ingress']).includes('Ingress');
}

/** The container ports of a workload's pods (init containers included: sidecars). */
function podPorts(w: PlatformObject): Array<{ name?: string; containerPort: number; protocol?: string }> {
  const spec = w.json.spec?.template?.spec ?? {};
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])].flatMap((c: any) => c.ports ?? []);
}

function checkNetworkPolicyReach(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const model = modelOf(m);
  for (const o of m.objects) {
    const j = o.json;
    if (j.kind !== 'NetworkPolicy') continue;
    // Pods an operator makes at run time are not in the output (lib/network-policy.ts PolicyTarget.runtimePods).
    const targets = policyTargetsOf(o.apiObject);
    if (targets?.some((t) => t.runtimePods)) continue;
    const what = `NetworkPolicy ${j.metadata.namespace}/${j.metadata.name}`;
    const sel: LabelSelector | undefined = j.spec?.podSelector;
    const pods = model.workloadsIn(j.metadata.namespace).filter((w) => selectorMatches(sel ?? {}, w.json.spec?.template?.metadata?.labels ?? {}));
    if (!pods.length) {
      // A namespace-wide policy also covers pods made later (a tenant's notebooks); a policy
      // declared with its targets is MLP060's, which names the target it misses.
      if (!emptySelector(sel) && !targets) {
        out.push({ rule: 'MLP063', path: o.path, message: `${what} selects ${JSON.stringify(sel)}, which matches the pods of no workload in namespace ${j.metadata.namespace}: it isolates nothing it is meant for. Select by the pod labels of the workload it protects (its selector labels), or leave the policy out` });
      }
      continue;
    }
    if (!isolatesIngress(j)) continue;
    const ports = pods.flatMap(podPorts);
    for (const [i, r] of (j.spec?.ingress ?? []).entries()) {
      for (const p of r.ports ?? []) {
        if (p.port === undefined) continue;
        const protocol = p.protocol ?? 'TCP';
        const ok = ports.some((c) => (c.protocol ?? 'TCP') === protocol && (typeof p.port === 'string'
          ? c.name === p.port
          : c.containerPort >= p.port && c.containerPort <= (p.endPort ?? p.port)));
        if (!ok) {
          const have = [...new Set(ports.map((c) => `${c.name ? `${c.name}=` : ''}${c.containerPort}/${c.protocol ?? 'TCP'}`))].sort().join(', ') || 'none';
          out.push({ rule: 'MLP063', path: o.path, message: `${what} ingress[${i}] admits port ${p.port}/${protocol}, which no container of the pods it selects (${pods.map((w) => `${w.json.kind} ${w.json.metadata.name}`).join(', ')}) declares (their ports: ${have}); name a port they serve` });
        }
      }
    }
  }
  return out;
}

/** Whether an ingress rule admits a port from every source (no `from`, or a peer of every address). */
function admitsFromEverywhere(r: any, port: number, name: string | undefined): boolean {
  const everywhere = !r.from?.length || r.from.some((f: any) => /\/0$/.test(f.ipBlock?.cidr ?? '') && !f.ipBlock?.except?.length);
  const onPort = !r.ports?.length || r.ports.some((p: any) => p.port === undefined || p.port === port || (name !== undefined && p.port === name)
    || (typeof p.port === 'number' && p.endPort !== undefined && port >= p.port && port <= p.endPort));
  return everywhere && onPort;
}

function checkWebhookIngress(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const policies = m.objects.filter((o) => o.json.kind === 'NetworkPolicy' && isolatesIngress(o.json));
  if (!policies.length) return out;
  for (const w of modelOf(m).webhooks) {
    const wl = w.backend.workload;
    const port = w.backend.containerPort;
    if (!wl || port === undefined) continue;
    const labels = wl.json.spec?.template?.metadata?.labels ?? {};
    const ns = wl.json.metadata.namespace;
    const isolating = policies.filter((p) => p.json.metadata.namespace === ns && selectorMatches(p.json.spec?.podSelector ?? {}, labels));
    if (!isolating.length) continue;
    const name = podPorts(wl).find((c) => c.containerPort === port)?.name;
    if (isolating.some((p) => (p.json.spec?.ingress ?? []).some((r: any) => admitsFromEverywhere(r, port, name)))) continue;
    out.push({
      rule: 'MLP064',
      path: w.owner.path,
      message: `${webhookLabel(w)}: its backend ${wl.json.kind} ${ns}/${wl.json.metadata.name} is isolated by NetworkPolicy ${isolating.map((p) => p.json.metadata.name).join(', ')}, none of which admits port ${port}${name ? ` (${name})` : ''} from every source; `
        + `the API server calls webhooks from outside the pod network, so every call would fail (failurePolicy ${w.failurePolicy}). Add a policy over its pods admitting that port with no 'from' (NetworkPolicyProps.namespaceIsolation, as kubeflow/manifests' webhook policies)`,
    });
  }
  return out;
}

/** The cluster-wide rules bound to a controller's ServiceAccount in the output. */
function boundRules(m: PlatformModel, ctl: Controller): PolicyRule[] {
  // Owned kinds are cluster-wide, so only ClusterRoleBindings count for them.
  return modelOf(m).rulesHeldBy({ name: ctl.serviceAccountName, namespace: ctl.namespace });
}

/** Keys of Secret data that hold a credential, e.g. password, MYSQL_ROOT_PASSWORD, secretkey, accesskey, AWS_SECRET_ACCESS_KEY. */
const CREDENTIAL_KEY = /pass(word|wd)?|secret|access[-_]?key|token|credential|api[-_]?key|private[-_]?key/i;

function checkLiteralCredentials(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const o of m.objects) {
    if (o.json.apiVersion !== 'v1' || o.json.kind !== 'Secret') continue;
    for (const field of ['data', 'stringData'] as const) {
      const keys = Object.entries(o.json[field] ?? {}).filter(([k, v]) => CREDENTIAL_KEY.test(k) && v !== '' && v !== undefined && v !== null).map(([k]) => k);
      if (keys.length) {
        out.push({
          rule: 'MLP040',
          path: o.path,
          message: `Secret ${o.json.metadata?.namespace ? o.json.metadata.namespace + '/' : ''}${o.json.metadata?.name} carries literal credentials in ${field} (${keys.sort().join(', ')}); never ship a password in output: reference a Secret the user creates (secretKeyRef) instead`,
        });
      }
    }
  }
  return out;
}

/** A pod template of an emitted object: its spec and how messages name it. */
interface PodTemplate {
  readonly obj: PlatformObject;
  readonly spec: any;
}

/** The pod template of a built-in workload kind (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, Pod). */
function podTemplateOf(o: PlatformObject): PodTemplate | undefined {
  const j = o.json;
  if (!isBuiltinKind(j.apiVersion, j.kind)) return undefined;
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(j.kind)) return j.spec?.template?.spec ? { obj: o, spec: j.spec.template.spec } : undefined;
  if (j.kind === 'CronJob') return j.spec?.jobTemplate?.spec?.template?.spec ? { obj: o, spec: j.spec.jobTemplate.spec.template.spec } : undefined;
  if (j.kind === 'Pod') return j.spec ? { obj: o, spec: j.spec } : undefined;
  return undefined;
}

const allContainers = (spec: any): any[] => [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];

/** Volume types Pod Security "restricted" admits. */
const RESTRICTED_VOLUME_TYPES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

/** What Pod Security "restricted" finds wrong with a pod spec, by control (each a list of reasons). */
export function podSecurityViolations(spec: any): Map<SecurityCheck, string[]> {
  const out = new Map<SecurityCheck, string[]>();
  const add = (check: SecurityCheck, what: string) => out.set(check, [...(out.get(check) ?? []), what]);
  const psc = spec.securityContext ?? {};
  for (const f of ['hostNetwork', 'hostPID', 'hostIPC'] as const) if (spec[f] === true) add(f, `${f}: true`);
  for (const v of spec.volumes ?? []) {
    if (v.hostPath) {add('hostPath', `hostPath volume '${v.name}' (${v.hostPath.path})`);} else {
      const type = Object.keys(v).find((k) => k !== 'name');
      if (type && !RESTRICTED_VOLUME_TYPES.includes(type)) add('volumeTypes', `${type} volume '${v.name}'`);
    }
  }
  const podSeccomp = psc.seccompProfile?.type;
  if (podSeccomp && !['RuntimeDefault', 'Localhost'].includes(podSeccomp)) add('seccompProfile', `pod seccompProfile ${podSeccomp}`);
  if (psc.runAsUser === 0) add('runAsNonRoot', 'pod runAsUser 0');
  for (const c of allContainers(spec)) {
    const sc = c.securityContext ?? {};
    const name = `container '${c.name}'`;
    if (sc.privileged === true) add('privileged', `${name} is privileged`);
    if (sc.allowPrivilegeEscalation !== false) add('allowPrivilegeEscalation', `${name} does not set allowPrivilegeEscalation: false`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) add('capabilities', `${name} does not drop ALL capabilities`);
    const added = (sc.capabilities?.add ?? []).filter((x: string) => x !== 'NET_BIND_SERVICE');
    if (added.length) add('capabilities', `${name} adds ${added.join(', ')}`);
    if (sc.runAsNonRoot === false || (sc.runAsNonRoot !== true && psc.runAsNonRoot !== true)) add('runAsNonRoot', `${name} may run as root (runAsNonRoot not true)`);
    if (sc.runAsUser === 0) add('runAsNonRoot', `${name} sets runAsUser 0`);
    const seccomp = sc.seccompProfile?.type ?? podSeccomp;
    if (!seccomp) add('seccompProfile', `${name} has no seccompProfile (pod or container)`);
    else if (sc.seccompProfile?.type && !['RuntimeDefault', 'Localhost'].includes(sc.seccompProfile.type)) add('seccompProfile', `${name} seccompProfile ${sc.seccompProfile.type}`);
    for (const p of c.ports ?? []) if (p.hostPort) add('hostPorts', `${name} uses hostPort ${p.hostPort}`);
  }
  return out;
}

/** The construct that carries an object's exceptions: the ApiObject itself. */
const exceptionOf = (o: PlatformObject, check: SecurityCheck, subject?: string) => securityException(o.apiObject, check, subject);

function checkPodSecurity(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const o of m.objects) {
    const t = podTemplateOf(o);
    if (!t) continue;
    for (const [check, what] of podSecurityViolations(t.spec)) {
      if (exceptionOf(o, check)) continue;
      out.push({
        rule: 'MLP050',
        path: o.path,
        message: `${o.json.kind} ${o.json.metadata.namespace}/${o.json.metadata.name} fails Pod Security "restricted" (${check}): ${what.join('; ')}; ` +
          `fix the pod spec, or declare securityExceptions: [{ check: '${check}', reason: '...' }] on the Controller/Workload (declareSecurityExceptions for other objects)`,
      });
    }
  }
  return out;
}

function checkRbacWildcards(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const o of m.objects) {
    if (o.json.kind !== 'Role' && o.json.kind !== 'ClusterRole') continue;
    if (exceptionOf(o, 'wildcardRbac')) continue;
    for (const r of o.json.rules ?? []) {
      const fields = (['verbs', 'resources', 'apiGroups'] as const).filter((f) => (r[f] ?? []).includes('*'));
      if (!fields.length) continue;
      out.push({
        rule: 'MLP051',
        path: o.path,
        message: `${o.json.kind} ${o.json.metadata.namespace ? `${o.json.metadata.namespace}/` : ''}${o.json.metadata.name} grants '*' in ${fields.join(', ')} (${JSON.stringify(r)}); ` +
          'list what the role needs, or declare securityExceptions: [{ check: \'wildcardRbac\', reason: \'...\' }] with upstream\'s reason',
      });
    }
  }
  return out;
}

/** Why an image reference is not pinned, or undefined when it is: a sha256 digest, or a tag other than latest. */
export function unpinnedImage(ref: string): string | undefined {
  const at = ref.indexOf('@');
  if (at >= 0) return /^sha256:[a-f0-9]{64}$/.test(ref.slice(at + 1)) ? undefined : `digest '${ref.slice(at + 1)}' is not sha256:<64 hex characters>`;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  if (colon < 0) return 'it has no tag or digest';
  const tag = last.slice(colon + 1);
  if (tag === 'latest') return 'its tag is latest';
  if (!/^[\w][\w.-]{0,127}$/.test(tag)) return `tag '${tag}' is malformed`;
  return undefined;
}

/** Shared subtrees in which imagesIn found no image. */
const withoutImages = new WeakSet<object>();

/**
 * Image references in an object: `image` strings of containers anywhere in it (pod
 * templates, custom resources such as ClusterServingRuntimes), and in ConfigMap values
 * that hold JSON (KServe's inferenceservice-config), with where each was found.
 */
function imagesIn(json: any): Array<{ where: string; ref: string }> {
  const out: Array<{ where: string; ref: string }> = [];
  // The path is kept as segments (a string: a key; a number: an index; the first as written)
  // and joined only for an image found: most of what is walked (CRD schemas among it) has none.
  const segments: Array<string | number> = [];
  const joined = () => segments.map((s, i) => (i === 0 ? s : typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
  const walk = (v: any): void => {
    // A shared subtree (lib/shared-json.ts) found without images once is skipped after.
    if (isSharedJson(v)) {
      if (withoutImages.has(v)) return;
      const before = out.length;
      walkIn(v);
      if (out.length === before) withoutImages.add(v);
      return;
    }
    walkIn(v);
  };
  const walkIn = (v: any): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        segments.push(i);
        walk(v[i]);
        segments.pop();
      }
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (k !== 'image' || typeof x !== 'string') {
          if (x && typeof x === 'object') {
            segments.push(k);
            walk(x);
            segments.pop();
          }
        // KServe's configuration keeps the repository in image and the tag in defaultImageVersion.
        } else if (typeof v.defaultImageVersion === 'string' && !x.includes('@') && !x.slice(x.lastIndexOf('/') + 1).includes(':')) {
          out.push({ where: `${joined()}.${k}`, ref: `${x}:${v.defaultImageVersion}` });
        } else {
          out.push({ where: `${joined()}.${k}`, ref: x });
        }
      }
    }
  };
  if (json.apiVersion === 'v1' && json.kind === 'ConfigMap') {
    for (const [k, v] of Object.entries(json.data ?? {})) {
      if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        continue; // not JSON: nothing we can read images from
      }
      segments.push(`data.${k}`);
      walk(parsed);
      segments.pop();
    }
    return out;
  }
  segments.push('spec');
  walk(json.spec);
  return out;
}

/**
 * Why a tag is a moving one (the image behind it can change: a stream such as `odh-stable`,
 * `mariadb-105:1` or an OpenShift minor `4.19`), or undefined for a version: major.minor.patch
 * somewhere in the tag (`v0.20.0`, `v2.3.0-gpu`), a git commit (7 to 40 hex digits) or a
 * build date (8 digits). A reference with a digest is pinned whatever its tag.
 */
export function movingTag(ref: string): string | undefined {
  if (ref.includes('@')) return undefined;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  const tag = last.slice(last.indexOf(':') + 1);
  if (last.indexOf(':') < 0 || /\d+\.\d+\.\d+/.test(tag) || /(^|[^0-9a-z])(sha-)?[0-9a-f]{7,40}($|[^0-9a-z])/.test(tag) && /\d/.test(tag) || /(^|\D)\d{8}(\D|$)/.test(tag)) return undefined;
  return `tag '${tag}' is not a version (major.minor.patch, a commit or a build date): the image behind it can change`;
}

function checkImagesPinned(m: PlatformModel): Finding[] {
  // Walking whole objects (CRD schemas too) is most of this check's time: kept as verdicts.
  const found = withVerdicts('image-refs', '', m.objects.map((o) => o.json), (jsons) => jsons.map((json) => imagesIn(json).map(({ where, ref }) => {
    const why = unpinnedImage(ref);
    return why ? { path: where, message: `image '${ref}' at ${where} is not pinned (${why})` } : { path: where, message: ref, severity: 'warning' as const };
  })));
  const errors = m.objects.flatMap((o, i) => found[i].filter(isError).map((issue) => ({
    rule: 'MLP052',
    path: o.path,
    message: `${o.json.kind} ${o.json.metadata.namespace ? `${o.json.metadata.namespace}/` : ''}${o.json.metadata.name}: ${issue.message}; pin a release tag or a sha256 digest in the component's versions table`,
  })));
  // Moving tags: every image a component uses (its versions table, which also holds images it
  // hands over in env values and ConfigMaps) and every pinned image an object names, once each.
  const moving = new Map<string, string>();
  for (const c of m.components) for (const key of c.usedImageKeys) if (!moving.has(c.resolvedImage(key))) moving.set(c.resolvedImage(key), c.node.path);
  m.objects.forEach((o, i) => found[i].filter((f) => !isError(f)).forEach((f) => moving.has(f.message) || moving.set(f.message, o.path)));
  const warnings = [...moving].flatMap(([ref, where]) => {
    const why = movingTag(ref);
    return why ? [{
      rule: 'MLP052',
      severity: 'warning' as const,
      path: where,
      message: `image '${ref}' is pinned by a moving tag (${why}); pin its digest (versions.json \`digest\`, or images.overrides) to deploy the same image every time`,
    }] : [];
  });
  return [...errors, ...warnings];
}

/** Whether a selector matches only objects carrying a label: no unlabelled object matches it. */
function optIn(sel: LabelSelector | undefined): boolean {
  return !selectorMatches(sel, {});
}

function checkWebhookNamespaces(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const namespaces = namespaceObjects(m);
  const labelsOf = (ns: string) => ({ 'kubernetes.io/metadata.name': ns, ...(namespaces.get(ns)?.json.metadata.labels ?? {}) });
  const customGroups = new Set([...[...m.kinds.values()].map((d) => d.group), ...[...m.externalKinds].map((k) => k.split('/')[0])]);
  // Built-in namespaced resources (or '*'): what kube-system's own machinery creates. Kinds
  // served by CRDs are the component's own business: excluding its namespace there would
  // only skip validating its own custom resources.
  const builtinGroup = (g: string) => g === '*' || (isBuiltinGroup(g ? `${g}/v1` : 'v1') && !customGroups.has(g));
  for (const w of modelOf(m).webhooks) {
    if (w.type === 'conversion' || w.failurePolicy !== 'Fail' || exceptionOf(w.owner, 'webhookNamespaces', w.name)) continue;
    // An opt-in webhook (its objectSelector requires a label, e.g. KFP's cache webhook on
    // pipelines.kubeflow.org/cache_enabled=true) intercepts only objects that ask for it.
    if (optIn(w.objectSelector)) continue;
    const builtin = w.rules.filter((r) => (r.scope ?? '*') !== 'Cluster' && (r.resources ?? []).length && (r.apiGroups ?? []).some(builtinGroup));
    if (!builtin.length) continue;
    const backend = w.backend.workload;
    const backendNs: string | undefined = w.clientConfig?.service?.namespace;
    // Its own backend's pods are MLP022's finding: not repeated here.
    const ownPods = backend && intercepts(m, w, { apiVersion: 'v1', kind: 'Pod', metadata: { ...backend.json.spec.template.metadata, namespace: backend.json.metadata.namespace } }, namespaces);
    const candidates = ['kube-system', ...(backendNs && backendNs !== 'kube-system' && !ownPods ? [backendNs] : [])];
    const reached = candidates.filter((ns) => selectorMatches(w.namespaceSelector, labelsOf(ns)));
    if (!reached.length) continue;
    const exclude = ['kube-system', ...(backendNs && backendNs !== 'kube-system' ? [backendNs] : [])];
    out.push({
      rule: 'MLP053',
      path: w.owner.path,
      message: `fail-closed ${webhookLabel(w)} intercepts ${[...new Set(builtin.flatMap((r) => r.resources))].join(', ')} in ${reached.map((n) => `namespace ${n}`).join(' and ')}: while its backend is down nothing matching can be created there; ` +
        `exclude them with namespaceSelector: excludingNamespaces([${exclude.map((n) => `'${n}'`).join(', ')}]) (lib/webhook-server.ts), ` +
        'or declare securityExceptions: [{ check: \'webhookNamespaces\', reason: \'...\' }] on the webhook',
    });
  }
  return out;
}

function checkResourceRequests(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  for (const o of m.objects) {
    if (!WORKLOAD_KINDS.includes(o.json.kind)) continue;
    const t = podTemplateOf(o);
    if (!t) continue;
    for (const c of [...(t.spec.initContainers ?? []), ...(t.spec.containers ?? [])]) {
      const missing = ['cpu', 'memory'].filter((r) => c.resources?.requests?.[r] === undefined);
      if (!missing.length) continue;
      out.push({
        rule: 'MLP054',
        path: o.path,
        message: `${o.json.kind} ${o.json.metadata.namespace}/${o.json.metadata.name}: container '${c.name}' has no ${missing.join(' or ')} request; the scheduler cannot place it by need: set resources.requests (${missing.join(', ')})`,
      });
    }
  }
  return out;
}

/** Above this size a CRD no longer fits kubectl's last-applied annotation: apply server-side. */
export const SERVER_SIDE_APPLY_BYTES = 256 * 1024;

/** The size of an object's JSON: in UTF-16 code units (`length`, as MLP055 has always counted) and in UTF-8 bytes. */
interface JsonSize {
  readonly length: number;
  readonly bytes: number;
}

const jsonSizes = new WeakMap<PlatformModel, Map<PlatformObject, JsonSize>>();

/** The JSON size of every object of a model, as its last runChecks measured it (once, for MLP055, MLP056 and synth's list of large CRDs). */
function jsonSizesOf(m: PlatformModel): Map<PlatformObject, JsonSize> {
  let sizes = jsonSizes.get(m);
  if (sizes) return sizes;
  sizes = new Map();
  for (const o of m.objects) {
    const text = JSON.stringify(o.json);
    sizes.set(o, { length: text.length, bytes: Buffer.byteLength(text, 'utf8') });
  }
  jsonSizes.set(m, sizes);
  return sizes;
}

/** CRDs over SERVER_SIDE_APPLY_BYTES of JSON, in apply order. */
export function largeCrds(m: PlatformModel): PlatformObject[] {
  const sizes = jsonSizesOf(m);
  return m.objects.filter((o) => o.json.kind === 'CustomResourceDefinition' && sizes.get(o)!.length > SERVER_SIDE_APPLY_BYTES);
}

function checkLargeCrds(m: PlatformModel): Finding[] {
  const sizes = jsonSizesOf(m);
  return largeCrds(m).map((o) => ({
    rule: 'MLP055',
    severity: 'warning' as const,
    path: o.path,
    message: `CRD ${o.json.metadata.name} is ${sizes.get(o)!.length} bytes, over the ${SERVER_SIDE_APPLY_BYTES} of kubectl's last-applied annotation: apply it with kubectl apply --server-side (Argo CD: ServerSideApply=true)`,
  }));
}

/** etcd's default request limit (--max-request-bytes): no object larger than this is stored. */
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;

function checkObjectSizes(m: PlatformModel): Finding[] {
  const out: Finding[] = [];
  const sizes = jsonSizesOf(m);
  for (const o of m.objects) {
    const j = o.json;
    const size = sizes.get(o)!.bytes;
    if (size > MAX_OBJECT_BYTES) {
      const name = `${j.kind} ${j.metadata?.namespace ? `${j.metadata.namespace}/` : ''}${j.metadata?.name}`;
      out.push({ rule: 'MLP056', path: o.path, message: `${name} is ${size} bytes, over the ${MAX_OBJECT_BYTES} etcd stores per object; split it (e.g. several ConfigMaps) or mount the content from an image or a volume` });
    }
  }
  return out;
}
