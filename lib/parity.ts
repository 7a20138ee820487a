/**
 * Parity with upstream: the facts of a component's run-time wiring (webhooks, RBAC per
 * workload, containers with their env values, args, probes and resources, volumes,
 * Services, monitors, ConfigMap values, the texts inside custom resources, NetworkPolicies), extracted from a set of
 * Kubernetes objects, and the typed differences between two such sets.
 *
 * The same extraction runs on upstream's rendered install (scripts/extract-upstream-facts.ts
 * writes the result into test/parity/facts/, so nothing reads upstream's files at test
 * time) and on a component's synthesized objects: both sides are reduced the same way.
 * Namespaces are left out of every fact (platforms place components in their own
 * namespaces); a grant in another namespace keeps that namespace's name.
 */

import * as crypto from 'crypto';
import * as YAML from 'yaml';
import { ObjectModel, selectorMatches } from './model';
import { parseQuantity } from './resources';

/**
 * Version of the extraction below. Facts files record it; the parity test refuses files
 * written by another version (regenerate them with `npx projen gen:parity-facts`).
 */
export const PARITY_FACTS_VERSION = 4;

/** What a fact is about. */
export enum FactKind {
  /** An admission webhook, by type and name (value: its configuration's name). */
  WEBHOOK = 'webhook',
  /** A field of an admission webhook: service (name:port), path, failurePolicy, sideEffects. */
  WEBHOOK_FIELD = 'webhook-field',
  /** One rule tuple of a webhook: operation|group|version|resource|scope. */
  WEBHOOK_RULE = 'webhook-rule',
  /** A CRD's conversion webhook: service (name:port) and path. */
  CONVERSION = 'conversion',
  /** A Deployment, StatefulSet or DaemonSet, by kind/name. */
  WORKLOAD = 'workload',
  /** A pod volume no container mounts, by its source (e.g. configMap:foo, emptyDir). */
  VOLUME = 'volume',
  /** A container (init containers as `init:<name>`). */
  CONTAINER = 'container',
  /** A container's command (value: the list as JSON, a long one as its digest, see factValue). */
  COMMAND = 'command',
  /** One container argument, as written (flags with their values; a long one as its digest, see factValue). */
  ARG = 'arg',
  /** One env variable, by name (value: `value <v>`, or the source of valueFrom: `configMapKeyRef <name>/<key>`...). */
  ENV = 'env',
  /** One container port, by number/protocol. */
  PORT = 'port',
  /** One volume mount, by mount path (value: the volume's source, e.g. secret:foo, emptyDir). */
  MOUNT = 'mount',
  /** The ServiceAccount of a workload (value: its name): the subject of the RBAC facts. */
  RBAC_SUBJECT = 'rbac-subject',
  /** One triple group|resource|verb the workload's ServiceAccount may use (value: the scope). */
  RBAC = 'rbac',
  /** A Service, by name (value: its type). */
  SERVICE = 'service',
  /** One selector label of a Service (value: the label's value). */
  SERVICE_SELECTOR = 'service-selector',
  /** One Service port, by port/protocol (value: the target port, a named one resolved through the backend). */
  SERVICE_PORT = 'service-port',
  /** A ConfigMap, by name. */
  CONFIGMAP = 'configmap',
  /** One key of a ConfigMap, data and binaryData (value: its value, see factValue). */
  CONFIGMAP_KEY = 'configmap-key',
  /** A container's envFrom source, by source (configMap:<name>, secret:<name>, with its prefix). */
  ENV_FROM = 'env-from',
  /** A container's probe, by type (liveness, readiness, startup; value: its handler). */
  PROBE = 'probe',
  /** A threshold of a probe, by `<type> <field>` (value: the number, Kubernetes' default when unset). */
  PROBE_FIELD = 'probe-field',
  /** A container's request or limit, by `requests.<resource>` or `limits.<resource>` (value: the quantity, normalized). */
  RESOURCE = 'resource',
  /** A ServiceMonitor or PodMonitor, by kind/name. */
  MONITOR = 'monitor',
  /** A field of a monitor: `selector` (its labels), `endpoint <port>` (value: scheme and path). */
  MONITOR_FIELD = 'monitor-field',
  /** A custom resource upstream ships (a default runtime, a config template), by kind/name. */
  CUSTOM_RESOURCE = 'custom-resource',
  /** A script, command, args or long text inside a custom resource, by its path (value: see factValue). */
  CUSTOM_RESOURCE_TEXT = 'custom-resource-text',
  /**
   * A NetworkPolicy, by `NetworkPolicy/<name>` (value: the pods it selects and its policy
   * types). Unlike other objects, one we add where upstream has none counts: it changes who
   * reaches the pods it selects.
   */
  NETWORK_POLICY = 'network-policy',
  /**
   * One source and port a NetworkPolicy admits, `ingress from <peer> to <port>` (or egress):
   * rules are split into (peer, port) pairs, so that one rule listing two sources and two
   * rules with one each are one set of facts; a named port is resolved through the selected pods.
   */
  NETWORK_POLICY_RULE = 'network-policy-rule',
}

/**
 * Kinds whose `differs` differences compare values that a deviation must state: a deviation
 * covering one names upstream's value it replaces (`upstream`), so that it goes stale when
 * upstream's value changes.
 */
export const VALUE_FACT_KINDS: readonly FactKind[] = [
  FactKind.COMMAND, FactKind.ENV, FactKind.PROBE, FactKind.PROBE_FIELD, FactKind.RESOURCE, FactKind.MONITOR_FIELD,
  FactKind.CONFIGMAP_KEY, FactKind.CUSTOM_RESOURCE_TEXT, FactKind.NETWORK_POLICY,
];

/**
 * Values up to this many characters, on one line, are facts as written (flags, numbers,
 * names, URLs, booleans); longer or multi-line values (scripts, JSON or YAML documents) are
 * facts as `sha256:<hex>` of their normalized text, so that no upstream text is copied.
 */
export const LITERAL_VALUE_MAX = 160;

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * A text normalized for its digest: a JSON or YAML document (object or list) as canonical
 * JSON (keys sorted, no formatting), other text with line ends unified, trailing spaces
 * dropped and leading and trailing blank lines removed.
 */
export function normalizeText(text: string): string {
  const t = text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/^\n+|\n+$/g, '');
  if (/^\s*[[{]/.test(t)) {
    try {
      return canonicalJson(JSON.parse(t));
    } catch { /* not JSON */ }
  }
  if (t.includes('\n')) {
    try {
      const v: unknown = YAML.parse(t);
      if (v && typeof v === 'object') return canonicalJson(v);
    } catch { /* not YAML */ }
  }
  return t;
}

/** A value as a fact: short one-line values as written, others as the digest of their normalized text (LITERAL_VALUE_MAX). */
export function factValue(value: unknown): string {
  // A list's strings (command and args) are normalized one by one, as a lone text would be:
  // a trailing space inside an argument changes nothing a shell or program sees.
  const v = Array.isArray(value) ? value.map((x) => (typeof x === 'string' ? normalizeText(x) : x)) : value;
  const text = typeof v === 'string' ? v : canonicalJson(v);
  if (text.length <= LITERAL_VALUE_MAX && !text.includes('\n')) return text;
  return `sha256:${crypto.createHash('sha256').update(normalizeText(text)).digest('hex')}`;
}

/** A quantity as one spelling (1Gi, 1024Mi and 1073741824 are one value; 0.1 and 100m too). */
export function normalizeQuantity(q: unknown): string {
  const v = parseQuantity(q);
  if (v === undefined) return String(q);
  for (const [suffix, n] of [['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) if (v >= n && v % n === 0) return `${v / n}${suffix}`;
  if (Number.isInteger(v)) return String(v);
  const milli = Math.round(v * 1e6) / 1e3;
  return `${milli}m`;
}

/** One fact: what (kind), about which object, which item of it, and its value. */
export interface Fact {
  readonly kind: FactKind;
  /** e.g. `Deployment/kueue-controller-manager`, `Deployment/x container manager`, `mutating mpod.kb.io`. */
  readonly object: string;
  /** The item within the object (an env name, an arg, a triple), when the fact is one. */
  readonly item?: string;
  /** The value compared, when there is one beyond presence. */
  readonly value?: string;
}

/** Where upstream's facts came from, and how they were extracted. */
export interface ParitySource {
  /** The install's name (its file name), e.g. kueue or kubeflow-pipelines-multi-user. */
  readonly install: string;
  /** owner/name on GitHub. */
  readonly repository: string;
  /** The git ref rendered (a release tag, or a branch pinned by commit). */
  readonly tag: string;
  readonly commit: string;
  /** How the install was rendered (folder, kustomize command). */
  readonly renderedFrom: string;
  readonly postProcessing?: string;
  /** Images the install deploys (repository:tag). */
  readonly images: readonly string[];
}

/** A facts file: test/parity/facts/<install>.json. */
export interface ParityFactsFile {
  readonly source: ParitySource;
  readonly extractor: { readonly script: string; readonly version: number };
  readonly facts: readonly Fact[];
}

export type DifferenceStatus = 'missing' | 'extra' | 'differs';

/** One difference between upstream's facts and ours. */
export interface ParityDifference extends Fact {
  /** missing: upstream has it, we do not; extra: we add it; differs: both, other values. */
  readonly status: DifferenceStatus;
  readonly expected?: string;
  readonly actual?: string;
}

/** A relation between upstream's value and ours that a deviation requires (see ParityDeviation.values). */
export type ValueRelation = 'same-image';

const IMAGE_REF = /^(?:value )?((?:[a-z0-9.-]+(?::\d+)?\/)?(?:[a-z0-9._-]+\/)*([a-z0-9._-]+))(?::[\w.-]+)?(?:@sha256:[0-9a-f]{64})?$/;

/** The image name (last part of the repository) of a value that is an image reference with a registry path and a tag or digest, or undefined. */
export function imageName(value: string | undefined): string | undefined {
  const m = value === undefined ? null : IMAGE_REF.exec(value);
  if (!m || !m[1].includes('/') || !/[:@]/.test(value!.slice(value!.indexOf(m[1]) + m[1].length))) return undefined;
  return m[2];
}

function relationHolds(r: ValueRelation, d: ParityDifference): boolean {
  switch (r) {
    case 'same-image': {
      const up = imageName(d.expected);
      return up !== undefined && up === imageName(d.actual);
    }
  }
}

/** Why a component differs from upstream on purpose. */
export enum DeviationCategory {
  /** Pod Security restricted, read-only root filesystems, secure metrics, narrower webhooks. */
  HARDENING = 'hardening',
  /** RBAC narrowed to what the controller uses (least privilege). */
  SCOPED_RBAC = 'scoped-rbac',
  /** Wiring the platform provides instead (certificates, namespaces, shared Services). */
  PLATFORM_INTEGRATION = 'platform-integration',
  /** A fix upstream made after the pinned tag, taken early. */
  NEWER_UPSTREAM_FIX = 'newer-upstream-fix',
  /** A part of upstream's install the construct leaves out or makes optional. */
  NOT_INSTALLED = 'not-installed',
  /**
   * A script or text the project writes itself where upstream ships one (upstream's text does
   * not carry over, only its behaviour): the deviation states upstream's digest, so a new
   * upstream text shows as stale, and a test runs ours to hold it to upstream's behaviour.
   */
  OWN_TEXT = 'own-text',
}

/**
 * Which differences an entry covers: kind and object, optionally item, status and our
 * value. Object, item and value may hold `*` (any run of characters; `\\*` is a literal `*`).
 */
export interface DifferencePattern {
  readonly kind: FactKind;
  readonly object: string;
  /** @default - any item (and facts without one) */
  readonly item?: string;
  /** @default - any status */
  readonly status?: DifferenceStatus;
  /**
   * Our value, for a difference that has one (e.g. `namespace*` for a grant narrowed to a
   * namespace).
   * @default - any value
   */
  readonly actual?: string;
  /**
   * Upstream's value the difference replaces (or lacks). A deviation covering a `differs`
   * difference of a VALUE_FACT_KINDS kind must state it, so that it goes stale (and fails)
   * when upstream's facts change.
   * @default - any value
   */
  readonly upstream?: string;
}

/** A difference from upstream a construct makes on purpose, declared as data. */
export interface ParityDeviation {
  readonly fact: DifferencePattern;
  /**
   * How our value relates to upstream's, beyond the pattern: `same-image` covers only a
   * difference whose two values are references to the same image (by its name: the last
   * part of its repository) in another registry, tag or digest.
   * @default - no relation required
   */
  readonly values?: ValueRelation;
  readonly category: DeviationCategory;
  /** One sentence: why. */
  readonly reason: string;
}

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

const keyOf = (f: Fact) => `${f.kind}\u0000${f.object}\u0000${f.item ?? ''}`;

/** The presence fact a fact belongs to (its parent), or undefined for top-level facts. */
function parentOf(f: Fact): Fact | undefined {
  switch (f.kind) {
    case FactKind.WEBHOOK_FIELD:
    case FactKind.WEBHOOK_RULE:
      return { kind: FactKind.WEBHOOK, object: f.object };
    case FactKind.VOLUME:
    case FactKind.CONTAINER:
    case FactKind.RBAC_SUBJECT:
      return { kind: FactKind.WORKLOAD, object: f.object };
    case FactKind.COMMAND:
    case FactKind.ARG:
    case FactKind.ENV:
    case FactKind.ENV_FROM:
    case FactKind.PORT:
    case FactKind.PROBE:
    case FactKind.RESOURCE:
    case FactKind.MOUNT: {
      const i = f.object.indexOf(' container ');
      return { kind: FactKind.CONTAINER, object: f.object.slice(0, i), item: f.object.slice(i + ' container '.length) };
    }
    case FactKind.RBAC:
      return { kind: FactKind.RBAC_SUBJECT, object: f.object };
    case FactKind.SERVICE_SELECTOR:
    case FactKind.SERVICE_PORT:
      return { kind: FactKind.SERVICE, object: f.object };
    case FactKind.CONFIGMAP_KEY:
      return { kind: FactKind.CONFIGMAP, object: f.object };
    case FactKind.PROBE_FIELD:
      return { kind: FactKind.PROBE, object: f.object, item: f.item!.split(' ')[0] };
    case FactKind.MONITOR_FIELD:
      return { kind: FactKind.MONITOR, object: f.object };
    case FactKind.CUSTOM_RESOURCE_TEXT:
      return { kind: FactKind.CUSTOM_RESOURCE, object: f.object };
    case FactKind.NETWORK_POLICY_RULE:
      return { kind: FactKind.NETWORK_POLICY, object: f.object };
    default:
      return undefined;
  }
}

const labelsMatch = (sel: Record<string, string>, labels: Record<string, string> = {}) => Object.entries(sel).every(([k, v]) => labels[k] === v);

/**
 * A ConfigMap or Secret name without the content hash kustomize's generators append
 * (`-` and ten characters of its alphabet): the program reads the object by its base name
 * through the reference kustomize rewrites, so the hash is not part of the fact.
 */
export function withoutGeneratorHash(name: string): string {
  return name.replace(/-[bcdfghkmt2456789]{10}$/, '');
}

function volumeSource(v: any): string {
  if (v.configMap) return `configMap:${withoutGeneratorHash(v.configMap.name)}`;
  if (v.secret) return `secret:${withoutGeneratorHash(v.secret.secretName)}`;
  if (v.persistentVolumeClaim) return `persistentVolumeClaim:${v.persistentVolumeClaim.claimName}`;
  if (v.projected) return 'projected';
  if (v.emptyDir) return 'emptyDir';
  if (v.hostPath) return `hostPath:${v.hostPath.path}`;
  if (v.csi) return `csi:${v.csi.driver}`;
  if (v.downwardAPI) return 'downwardAPI';
  if (v.ephemeral) return 'ephemeral';
  const other = Object.keys(v).filter((k) => k !== 'name');
  return other.join(',') || 'emptyDir';
}

/** Why the API server would reject a policy rule (such a role grants nothing), or undefined. */
function invalidRule(r: any, namespaced: boolean): string | undefined {
  if (!r.verbs?.length) return 'verbs required';
  if (r.nonResourceURLs?.length) return namespaced || r.apiGroups?.length || r.resources?.length ? 'non-resource URLs mixed with resources or in a Role' : undefined;
  if (!r.apiGroups?.length) return 'apiGroups required';
  if (!r.resources?.length) return 'resources required';
  return undefined;
}

/** Triples group|resource|verb a workload's ServiceAccount may use, with their scope. */
function grantsOf(model: ObjectModel, objs: any[], wl: any): { sa: string; grants: Map<string, Set<string>> } {
  const spec = wl.spec?.template?.spec ?? {};
  const sa: string = spec.serviceAccountName ?? spec.serviceAccount ?? 'default';
  const wns = wl.metadata?.namespace;
  const grants = new Map<string, Set<string>>();
  const add = (k: string, scope: string) => {
    if (!grants.has(k)) grants.set(k, new Set());
    grants.get(k)!.add(scope);
  };
  const clusterRoles = objs.filter((o) => o.kind === 'ClusterRole');
  const rulesOf = (kind: string, name: string, bns: string | undefined): any[] => {
    const role = kind === 'ClusterRole'
      ? clusterRoles.find((o) => o.metadata?.name === name)
      : objs.find((o) => o.kind === 'Role' && o.metadata?.name === name && o.metadata?.namespace === bns);
    if (!role) return [];
    if ((role.rules ?? []).some((r: any) => invalidRule(r, role.kind === 'Role'))) return [];
    let rules: any[] = role.rules ?? [];
    for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
      for (const cr of clusterRoles) {
        if (cr !== role && labelsMatch(sel.matchLabels ?? {}, cr.metadata?.labels)) rules = rules.concat(cr.rules ?? []);
      }
    }
    return rules;
  };
  // The bindings of the account (lib/model.ts), as subjects that name it: groups do not count here.
  for (const b of model.bindingsOf({ name: sa, namespace: wns }).map((o) => o.json)) {
    const bns = b.metadata?.namespace;
    const bound = (b.subjects ?? []).some((x: any) => x.kind === 'ServiceAccount' && x.name === sa && (x.namespace ?? bns) === wns);
    if (!bound) continue;
    const scope = b.kind === 'ClusterRoleBinding' ? 'cluster' : bns === wns ? 'namespace' : `namespace ${bns}`;
    for (const r of rulesOf(b.roleRef?.kind, b.roleRef?.name, bns)) {
      const names = r.resourceNames?.length ? ` names ${[...r.resourceNames].sort().join(',')}` : '';
      for (const v of (r.verbs ?? []).flatMap((x: string) => (x === '*' ? VERBS : [x]))) {
        for (const u of r.nonResourceURLs ?? []) add(`nonResourceURL|${u}|${v}`, 'cluster');
        for (const g of r.apiGroups ?? []) for (const res of r.resources ?? []) add(`${g}|${res}|${v}`, scope + names);
      }
    }
  }
  return { sa, grants };
}

/** The scope of a triple: the widest grant wins; otherwise every grant, sorted. */
function scopeOf(scopes: Set<string>): string {
  return scopes.has('cluster') ? 'cluster' : scopes.has('namespace') ? 'namespace' : [...scopes].sort().join('; ');
}

const MONITOR_KINDS = ['ServiceMonitor', 'PodMonitor'];
/** Kubernetes' own API groups: objects of other groups are custom resources. */
const BUILT_IN_GROUP = /^$|^(apps|batch|policy|autoscaling|networking\.k8s\.io|rbac\.authorization\.k8s\.io|admissionregistration\.k8s\.io|apiextensions\.k8s\.io|apiregistration\.k8s\.io|scheduling\.k8s\.io|storage\.k8s\.io|coordination\.k8s\.io|node\.k8s\.io|discovery\.k8s\.io|flowcontrol\.apiserver\.k8s\.io|certificates\.k8s\.io|events\.k8s\.io)$/;
/** Custom resources compared otherwise (monitors) or not at all (certificates and issuers, which the platform provides). */
const NOT_COMPARED_GROUP = /^(monitoring\.coreos\.com|cert-manager\.io)$/;

function isCustomResource(o: any): boolean {
  const api = String(o.apiVersion ?? '');
  const group = api.includes('/') ? api.slice(0, api.indexOf('/')) : '';
  return !BUILT_IN_GROUP.test(group) && !NOT_COMPARED_GROUP.test(group);
}

/**
 * The texts of a custom resource's spec that a program runs or reads: every `command` and
 * `args` list, and every string longer than LITERAL_VALUE_MAX or on several lines, by path
 * (list items by their name where they have one).
 */
function textsOf(v: any, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(v)) {
    v.forEach((x, i) => textsOf(x, `${at}[${x && typeof x === 'object' && typeof x.name === 'string' ? x.name : i}]`, out));
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'command' || k === 'args') && Array.isArray(x)) out.push([`${at}.${k}`, factValue(x.map(String))]);
      else textsOf(x, `${at}.${k}`, out);
    }
  } else if (typeof v === 'string' && (v.length > LITERAL_VALUE_MAX || v.includes('\n'))) {
    out.push([at, factValue(v)]);
  }
  return out;
}

const PROBE_DEFAULTS: Record<string, number> = { initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3, successThreshold: 1 };

/** A probe's handler: httpGet scheme :port path, tcpSocket :port, grpc :port, or exec with its command (a named port resolved through the container). */
function probeHandler(p: any, c: any): string {
  const port = (x: unknown) => (typeof x === 'string' && !/^\d+$/.test(x) ? (c.ports ?? []).find((cp: any) => cp.name === x)?.containerPort ?? x : x);
  if (p.httpGet) return `httpGet ${p.httpGet.scheme ?? 'HTTP'} :${port(p.httpGet.port)}${p.httpGet.path ?? '/'}`;
  if (p.tcpSocket) return `tcpSocket :${port(p.tcpSocket.port)}`;
  if (p.grpc) return `grpc :${p.grpc.port}${p.grpc.service ? ` ${p.grpc.service}` : ''}`;
  if (p.exec) return `exec ${factValue((p.exec.command ?? []).map(String))}`;
  return 'none';
}

/** An env variable's value, or the source its valueFrom names. */
function envValue(e: any): string {
  const f = e.valueFrom;
  if (!f) return `value ${factValue(String(e.value ?? ''))}`;
  if (f.configMapKeyRef) return `configMapKeyRef ${withoutGeneratorHash(f.configMapKeyRef.name)}/${f.configMapKeyRef.key}`;
  if (f.secretKeyRef) return `secretKeyRef ${withoutGeneratorHash(f.secretKeyRef.name)}/${f.secretKeyRef.key}`;
  if (f.fieldRef) return `fieldRef ${f.fieldRef.fieldPath}`;
  if (f.resourceFieldRef) return `resourceFieldRef ${f.resourceFieldRef.resource}${f.resourceFieldRef.divisor ? ` / ${f.resourceFieldRef.divisor}` : ''}`;
  return Object.keys(f).join(',');
}

/** A label selector as text: labels k=v and expressions, sorted. */
function selectorText(sel: any): string {
  const labels = Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  const exprs = (sel?.matchExpressions ?? []).map((e: any) => `${e.key} ${e.operator} ${[...(e.values ?? [])].sort().join(',')}`.trim());
  return [...labels, ...exprs].sort().join(', ') || '(everything)';
}

/** A label selector as text, one expression `k In (v)` written as the label `k=v` it means; `(every pod)` when empty. */
function policySelectorText(sel: any): string {
  const parts = new Set<string>(Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`));
  for (const e of sel?.matchExpressions ?? []) {
    const values = [...new Set<string>(e.values ?? [])].sort();
    parts.add(e.operator === 'In' && values.length === 1 ? `${e.key}=${values[0]}` : `${e.key} ${e.operator} ${values.join(',')}`.trim());
  }
  return [...parts].sort().join(', ') || '(every pod)';
}

/**
 * A NetworkPolicy peer as texts, one per source it admits: a namespace selector that names
 * namespaces by kubernetes.io/metadata.name gives one text per namespace.
 */
function policyPeerTexts(peer: any): string[] {
  if (peer.ipBlock) return [`ipBlock ${peer.ipBlock.cidr}${peer.ipBlock.except?.length ? ` except ${[...peer.ipBlock.except].sort().join(',')}` : ''}`];
  const pods = peer.podSelector ? `pods ${policySelectorText(peer.podSelector)}` : '';
  if (!peer.namespaceSelector) return [pods || 'nothing'];
  const ns = peer.namespaceSelector;
  const byName = (ns.matchExpressions ?? []).find((e: any) => e.key === 'kubernetes.io/metadata.name' && e.operator === 'In');
  const onlyName = byName && !Object.keys(ns.matchLabels ?? {}).length && ns.matchExpressions.length === 1;
  const nsTexts = onlyName ? [...new Set<string>(byName.values ?? [])].sort().map((n) => `namespace ${n}`)
    : Object.keys(ns.matchLabels ?? {}).length === 1 && Object.keys(ns.matchLabels)[0] === 'kubernetes.io/metadata.name' && !(ns.matchExpressions ?? []).length
      ? [`namespace ${ns.matchLabels['kubernetes.io/metadata.name']}`]
      : [`namespaces ${policySelectorText(ns).replace('(every pod)', '(every namespace)')}`];
  return nsTexts.map((n) => (pods ? `${pods} in ${n}` : n));
}

/** The facts of one NetworkPolicy (named ports resolved through the pods it selects among `workloads`). */
function networkPolicyFacts(np: any, workloads: readonly any[], add: (f: Fact) => void): void {
  const object = `NetworkPolicy/${np.metadata?.name}`;
  const sel = np.spec?.podSelector ?? {};
  const types: string[] = np.spec?.policyTypes ?? (np.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress']);
  add({ kind: FactKind.NETWORK_POLICY, object, value: `${policySelectorText(sel)} (${[...types].sort().join(', ')})` });
  const selected = workloads.filter((w) => w.metadata?.namespace === np.metadata?.namespace && selectorMatches(sel, w.spec?.template?.metadata?.labels ?? {}));
  const cports = selected.flatMap((w) => [...(podTemplate(w).initContainers ?? []), ...(podTemplate(w).containers ?? [])]).flatMap((c: any) => c.ports ?? []);
  const portText = (p: any) => {
    let port = p.port;
    if (typeof port === 'string' && !/^\d+$/.test(port)) port = cports.find((c: any) => c.name === port)?.containerPort ?? port;
    return `${port}${p.endPort ? `-${p.endPort}` : ''}/${p.protocol ?? 'TCP'}`;
  };
  for (const [dir, rules, peersKey] of [['ingress', np.spec?.ingress, 'from'], ['egress', np.spec?.egress, 'to']] as const) {
    if (!types.includes(dir === 'ingress' ? 'Ingress' : 'Egress')) continue;
    for (const r of rules ?? []) {
      const peers: string[] = r[peersKey]?.length ? r[peersKey].flatMap(policyPeerTexts) : ['any source'];
      const ports: string[] = r.ports?.length ? r.ports.map(portText) : ['any port'];
      for (const peer of peers) for (const port of ports) add({ kind: FactKind.NETWORK_POLICY_RULE, object, item: `${dir} ${dir === 'ingress' ? 'from' : 'to'} ${peer} ${dir === 'ingress' ? 'to' : 'on'} ${port}` });
    }
  }
}

function podTemplate(w: any): any {
  return w.spec?.template?.spec ?? {};
}

/**
 * The facts of a set of objects (one component's, or one upstream install's), sorted.
 * `crds` are the CRDs whose conversion webhooks count (default: the CRDs among objs).
 */
export function extractFacts(objs: readonly any[], crds: readonly any[] = objs.filter((o) => o?.kind === 'CustomResourceDefinition')): Fact[] {
  const all = objs.filter((o) => o && typeof o === 'object' && o.kind);
  const out = new Map<string, Fact>();
  const add = (f: Fact) => {
    const k = keyOf(f);
    const had = out.get(k);
    // Two objects of one kind and name (e.g. webhooks in two configurations): first wins, as in the API.
    if (!had) out.set(k, f);
  };
  const opt = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  const model = new ObjectModel(all.map((json) => ({ json })));
  // Admission webhooks.
  for (const cfg of all.filter((o) => o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration')) {
    const type = cfg.kind.startsWith('Validating') ? 'validating' : 'mutating';
    for (const w of cfg.webhooks ?? []) {
      const object = `${type} ${w.name}`;
      add({ kind: FactKind.WEBHOOK, object, value: cfg.metadata?.name });
      const svc = w.clientConfig?.service;
      add({ kind: FactKind.WEBHOOK_FIELD, object, item: 'service', value: svc ? `${svc.name}:${svc.port ?? 443}` : `url ${w.clientConfig?.url}` });
      add({ kind: FactKind.WEBHOOK_FIELD, object, item: 'path', value: svc?.path ?? '/' });
      add({ kind: FactKind.WEBHOOK_FIELD, object, item: 'failurePolicy', value: w.failurePolicy ?? 'Fail' });
      add({ kind: FactKind.WEBHOOK_FIELD, object, item: 'sideEffects', value: opt(w.sideEffects) });
      for (const r of w.rules ?? []) {
        for (const op of r.operations ?? []) {
          for (const g of r.apiGroups ?? []) {
            for (const v of r.apiVersions ?? []) {
              for (const res of r.resources ?? []) add({ kind: FactKind.WEBHOOK_RULE, object, item: `${op}|${g}|${v}|${res}|${r.scope ?? '*'}` });
            }
          }
        }
      }
    }
  }
  // Conversion webhooks.
  for (const crd of crds) {
    const conv = crd.spec?.conversion;
    if (conv?.strategy !== 'Webhook') continue;
    const svc = conv.webhook?.clientConfig?.service;
    add({ kind: FactKind.CONVERSION, object: crd.metadata?.name, value: svc ? `${svc.name}:${svc.port ?? 443}${svc.path ?? '/'}` : `url ${conv.webhook?.clientConfig?.url}` });
  }
  // Workloads: containers, volumes, and RBAC through their ServiceAccount.
  const workloads = all.filter((o) => WORKLOAD_KINDS.includes(o.kind));
  for (const w of workloads) {
    const wl = `${w.kind}/${w.metadata?.name}`;
    const spec = podTemplate(w);
    add({ kind: FactKind.WORKLOAD, object: wl });
    // Volumes by what they hold, not by name (names are local to the pod): unmounted ones here,
    // mounted ones as the mounts' values.
    const volumes = new Map<string, string>((spec.volumes ?? []).map((v: any) => [v.name, volumeSource(v)]));
    const mounted = new Set<string>();
    const containers = [
      ...(spec.initContainers ?? []).map((c: any) => [`init:${c.name}`, c]),
      ...(spec.containers ?? []).map((c: any) => [c.name, c]),
    ] as Array<[string, any]>;
    for (const [name, c] of containers) {
      add({ kind: FactKind.CONTAINER, object: wl, item: name });
      const object = `${wl} container ${name}`;
      if (c.command?.length) add({ kind: FactKind.COMMAND, object, value: factValue(c.command.map(String)) });
      for (const a of c.args ?? []) add({ kind: FactKind.ARG, object, item: factValue(String(a)) });
      for (const e of c.env ?? []) add({ kind: FactKind.ENV, object, item: e.name, value: envValue(e) });
      for (const e of c.envFrom ?? []) {
        const source = e.configMapRef ? `configMap:${withoutGeneratorHash(e.configMapRef.name)}` : e.secretRef ? `secret:${withoutGeneratorHash(e.secretRef.name)}` : Object.keys(e).join(',');
        add({ kind: FactKind.ENV_FROM, object, item: source + (e.prefix ? ` prefix ${e.prefix}` : '') });
      }
      for (const p of c.ports ?? []) add({ kind: FactKind.PORT, object, item: `${p.containerPort}/${p.protocol ?? 'TCP'}` });
      for (const type of ['liveness', 'readiness', 'startup']) {
        const probe = c[`${type}Probe`];
        if (!probe) continue;
        add({ kind: FactKind.PROBE, object, item: type, value: probeHandler(probe, c) });
        for (const [field, dflt] of Object.entries(PROBE_DEFAULTS)) add({ kind: FactKind.PROBE_FIELD, object, item: `${type} ${field}`, value: String(probe[field] ?? dflt) });
      }
      for (const field of ['requests', 'limits']) {
        for (const [res, q] of Object.entries(c.resources?.[field] ?? {})) add({ kind: FactKind.RESOURCE, object, item: `${field}.${res}`, value: normalizeQuantity(q) });
      }
      for (const m of c.volumeMounts ?? []) {
        mounted.add(m.name);
        add({ kind: FactKind.MOUNT, object, item: m.mountPath + (m.subPath ? ` (subPath ${m.subPath})` : ''), value: volumes.get(m.name) ?? `no volume ${m.name}` });
      }
    }
    for (const [name, source] of volumes) if (!mounted.has(name)) add({ kind: FactKind.VOLUME, object: wl, item: source });
    const { sa, grants } = grantsOf(model, all, w);
    add({ kind: FactKind.RBAC_SUBJECT, object: wl, value: sa });
    for (const [triple, scopes] of grants) add({ kind: FactKind.RBAC, object: wl, item: triple, value: scopeOf(scopes) });
  }
  // Services: selector and ports (named target ports resolved through the selected workload).
  for (const svc of all.filter((o) => o.kind === 'Service')) {
    const object = svc.metadata?.name;
    const sel: Record<string, string> = svc.spec?.selector ?? {};
    add({ kind: FactKind.SERVICE, object, value: svc.spec?.type ?? 'ClusterIP' });
    for (const [k, v] of Object.entries(sel)) add({ kind: FactKind.SERVICE_SELECTOR, object, item: k, value: String(v) });
    const backend = Object.keys(sel).length ? model.workloadsSelectedBy(svc.metadata?.namespace, sel)[0]?.json : undefined;
    const cports = (podTemplate(backend ?? {}).containers ?? []).flatMap((c: any) => c.ports ?? []);
    for (const p of svc.spec?.ports ?? []) {
      let tp = p.targetPort ?? p.port;
      if (typeof tp === 'string' && !/^\d+$/.test(tp)) tp = cports.find((c: any) => c.name === tp)?.containerPort ?? tp;
      add({ kind: FactKind.SERVICE_PORT, object, item: `${p.port}/${p.protocol ?? 'TCP'}`, value: String(tp) });
    }
  }
  // ConfigMaps: names, keys and values (programs read them by name and key at run time).
  for (const cm of all.filter((o) => o.kind === 'ConfigMap')) {
    const object = withoutGeneratorHash(cm.metadata?.name);
    add({ kind: FactKind.CONFIGMAP, object });
    for (const [k, v] of [...Object.entries(cm.data ?? {}), ...Object.entries(cm.binaryData ?? {})]) add({ kind: FactKind.CONFIGMAP_KEY, object, item: k, value: factValue(String(v)) });
  }
  // Monitors: which Services or pods they scrape, on which port, path and scheme.
  for (const mon of all.filter((o) => MONITOR_KINDS.includes(o.kind))) {
    const object = `${mon.kind}/${mon.metadata?.name}`;
    add({ kind: FactKind.MONITOR, object });
    add({ kind: FactKind.MONITOR_FIELD, object, item: 'selector', value: selectorText(mon.spec?.selector) });
    for (const ep of (mon.kind === 'ServiceMonitor' ? mon.spec?.endpoints : mon.spec?.podMetricsEndpoints) ?? []) {
      add({ kind: FactKind.MONITOR_FIELD, object, item: `endpoint ${ep.port ?? ep.targetPort ?? ep.portNumber ?? '(none)'}`, value: `${ep.scheme ?? 'http'} ${ep.path ?? '/metrics'}` });
    }
  }
  // NetworkPolicies: the pods they select, and each source and port they admit.
  for (const np of all.filter((o) => o.kind === 'NetworkPolicy')) networkPolicyFacts(np, workloads, add);
  // Custom resources: their scripts, commands, args and long texts (templates, embedded documents).
  for (const cr of all.filter(isCustomResource)) {
    const object = `${cr.kind}/${cr.metadata?.name}`;
    add({ kind: FactKind.CUSTOM_RESOURCE, object });
    for (const [item, value] of textsOf(cr.spec ?? {}, 'spec')) add({ kind: FactKind.CUSTOM_RESOURCE_TEXT, object, item, value });
  }
  return [...out.values()].sort(compareFact);
}

function compareFact(a: Fact, b: Fact): number {
  const x = keyOf(a), y = keyOf(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Differences of `actual` (ours) from `expected` (upstream's): every upstream fact we lack
 * or hold with another value, and every fact we add under an object upstream has (an arg
 * of an upstream container, a triple of an upstream workload...). Objects upstream does not
 * have count only when they are webhooks or conversion webhooks (they intercept the API) or
 * NetworkPolicies (they change who reaches pods).
 */
export function compareFacts(expected: readonly Fact[], actual: readonly Fact[]): ParityDifference[] {
  const out: ParityDifference[] = [];
  // A workload whose one container upstream names otherwise: compare what is in it under
  // upstream's name (the name itself is one difference), rather than report it all missing.
  const containersOf = (fs: readonly Fact[]) => {
    const m = new Map<string, string[]>();
    for (const f of fs) if (f.kind === FactKind.CONTAINER && !f.item!.startsWith('init:')) m.set(f.object, [...(m.get(f.object) ?? []), f.item!]);
    return m;
  };
  const ec = containersOf(expected), acs = containersOf(actual);
  const renames = new Map<string, string>();
  for (const [wl, names] of ec) {
    const ours = acs.get(wl) ?? [];
    const onlyUp = names.filter((n) => !ours.includes(n)), onlyOurs = ours.filter((n) => !names.includes(n));
    if (onlyUp.length !== 1 || onlyOurs.length !== 1) continue;
    renames.set(`${wl} container ${onlyOurs[0]}`, `${wl} container ${onlyUp[0]}`);
    out.push({ kind: FactKind.CONTAINER, object: wl, item: onlyUp[0], status: 'differs', expected: `named ${onlyUp[0]}`, actual: `named ${onlyOurs[0]}` });
  }
  const renamed = actual.map((f) => {
    if (f.kind === FactKind.CONTAINER && renames.has(`${f.object} container ${f.item}`)) return { ...f, item: renames.get(`${f.object} container ${f.item}`)!.split(' container ')[1] };
    return renames.has(f.object) ? { ...f, object: renames.get(f.object)! } : f;
  });
  const ex = new Map(expected.map((f) => [keyOf(f), f]));
  const ac = new Map(renamed.map((f) => [keyOf(f), f]));
  for (const [k, f] of ex) {
    const a = ac.get(k);
    if (!a) {
      out.push({ ...f, status: 'missing', expected: f.value });
    } else if (f.kind !== FactKind.WEBHOOK && f.kind !== FactKind.RBAC_SUBJECT && (f.value ?? '') !== (a.value ?? '')) {
      out.push({ ...f, status: 'differs', expected: f.value, actual: a.value });
    }
  }
  for (const [k, f] of ac) {
    if (ex.has(k)) continue;
    const parent = parentOf(f);
    const counts = parent ? ex.has(keyOf(parent)) : f.kind === FactKind.WEBHOOK || f.kind === FactKind.CONVERSION || f.kind === FactKind.NETWORK_POLICY;
    if (counts) out.push({ ...f, status: 'extra', actual: f.value });
  }
  return withoutImplied(out).sort((a, b) => compareFact(a, b) || (a.status < b.status ? -1 : a.status > b.status ? 1 : 0));
}

/** Drops what a missing object implies: the missing facts of a missing webhook, workload, container, Service or ConfigMap. */
function withoutImplied(diffs: readonly ParityDifference[]): ParityDifference[] {
  const missing = new Set(diffs.filter((d) => d.status === 'missing').map(keyOf));
  return diffs.filter((d) => {
    if (d.status !== 'missing') return true;
    const p = parentOf(d);
    return !p || !missing.has(keyOf(p));
  });
}

const globCache = new Map<string, RegExp>();
function glob(pattern: string): RegExp {
  let re = globCache.get(pattern);
  if (!re) {
    const literal = (x: string) => x.replace(/\\\*/g, '*').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(`^${pattern.split(/(?<!\\)\*/).map(literal).join('.*')}$`, 's');
    globCache.set(pattern, re);
  }
  return re;
}

/** Whether a pattern covers a difference. */
export function patternMatches(p: DifferencePattern, d: ParityDifference): boolean {
  return p.kind === d.kind
    && glob(p.object).test(d.object)
    && (p.item === undefined || (d.item !== undefined && glob(p.item).test(d.item)))
    && (p.status === undefined || p.status === d.status)
    && (p.actual === undefined || (d.actual !== undefined && glob(p.actual).test(d.actual)))
    && (p.upstream === undefined || (d.expected !== undefined && glob(p.upstream).test(d.expected)));
}

/** Whether a deviation covers a difference: its pattern matches, and a value it replaces is stated where VALUE_FACT_KINDS require one. */
export function deviationCovers(dev: ParityDeviation, d: ParityDifference): boolean {
  if (d.status === 'differs' && VALUE_FACT_KINDS.includes(d.kind) && dev.fact.upstream === undefined) return false;
  if (dev.values && !relationHolds(dev.values, d)) return false;
  return patternMatches(dev.fact, d);
}

/** A text as a pattern that matches exactly that text. */
export function literalPattern(text: string): string {
  return text.replace(/\*/g, '\\*');
}

/** One line naming a difference: kind, object, item, status and the values. */
export function describeDifference(d: ParityDifference): string {
  const values = d.status === 'differs' ? `: upstream ${d.expected ?? '(none)'}, ours ${d.actual ?? '(none)'}`
    : d.status === 'missing' && d.expected !== undefined ? ` (upstream ${d.expected})`
      : d.status === 'extra' && d.actual !== undefined ? ` (ours ${d.actual})` : '';
  return `${d.kind} ${d.object}${d.item !== undefined ? ` [${d.item}]` : ''} ${d.status}${values}`;
}

/** A pattern's text, as REPORT.md and test failures show it. */
export function describePattern(p: DifferencePattern): string {
  const values = [p.upstream !== undefined ? `upstream ${p.upstream}` : '', p.actual !== undefined ? `ours ${p.actual}` : ''].filter(Boolean).join(', ');
  return `${p.kind} ${p.object}${p.item !== undefined ? ` [${p.item}]` : ''}${p.status ? ` ${p.status}` : ''}${values ? ` (${values})` : ''}`;
}

/** Problems of a deviation declaration (an empty reason, a pattern that matches everything). */
export function parityDeviationProblems(d: ParityDeviation): string[] {
  const out: string[] = [];
  if (!d.reason.trim()) out.push(`deviation ${describePattern(d.fact)}: reason is empty; say in one sentence why the component differs from upstream`);
  if (!d.fact.object.replace(/\*/g, '')) out.push(`deviation ${describePattern(d.fact)}: object '${d.fact.object}' matches every object; name the object (a '*' may stand for part of it)`);
  if (d.fact.status === 'differs' && VALUE_FACT_KINDS.includes(d.fact.kind) && d.fact.upstream === undefined) {
    out.push(`deviation ${describePattern(d.fact)}: a ${d.fact.kind} value deviation must state upstream's value it replaces (fact.upstream)`);
  }
  if (d.fact.upstream !== undefined && !d.fact.upstream.replace(/\*/g, '') && !d.values) {
    out.push(`deviation ${describePattern(d.fact)}: upstream '${d.fact.upstream}' matches every value; state the value upstream's facts hold`);
  }
  if (!Object.values(DeviationCategory).includes(d.category)) out.push(`deviation ${describePattern(d.fact)}: category '${d.category}' is not one of ${Object.values(DeviationCategory).join(', ')}`);
  return out;
}

/** Differences classified by the entries that cover them. */
export interface ParityClassification<K> {
  /** Differences covered by a declared deviation. */
  readonly declared: ParityDifference[];
  /** Differences covered by a tolerated entry (known defects), by entry. */
  readonly tolerated: Map<K, ParityDifference[]>;
  /** Differences nothing covers. */
  readonly undeclared: ParityDifference[];
  /** Deviations that cover no difference (stale). */
  readonly staleDeviations: ParityDeviation[];
  /** Tolerated entries that cover no difference (stale). */
  readonly staleTolerated: K[];
}

/** Sorts differences into declared deviations, tolerated entries and the rest; finds stale entries. */
export function classifyDifferences<K extends { readonly fact: DifferencePattern }>(
  diffs: readonly ParityDifference[], deviations: readonly ParityDeviation[], tolerated: readonly K[],
): ParityClassification<K> {
  const usedDev = new Set<ParityDeviation>();
  const tol = new Map<K, ParityDifference[]>();
  const declared: ParityDifference[] = [];
  const undeclared: ParityDifference[] = [];
  for (const d of diffs) {
    const devs = deviations.filter((x) => deviationCovers(x, d));
    const tols = tolerated.filter((x) => patternMatches(x.fact, d));
    devs.forEach((x) => usedDev.add(x));
    for (const t of tols) tol.set(t, [...(tol.get(t) ?? []), d]);
    if (devs.length) declared.push(d);
    else if (!tols.length) undeclared.push(d);
  }
  return {
    declared,
    tolerated: tol,
    undeclared,
    staleDeviations: deviations.filter((x) => !usedDev.has(x)),
    staleTolerated: tolerated.filter((x) => !tol.has(x)),
  };
}

/**
 * Differences every component makes, because a lib/ mechanism makes them (Controller,
 * WebhookServer): declared once here rather than by each component.
 */
export const FRAMEWORK_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  {
    fact: { kind: FactKind.ENV, object: '* container *', item: 'POD_NAMESPACE', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'lib/controller.ts gives every controller its namespace through the downward API as POD_NAMESPACE; a program that does not read it is unaffected.',
  },
  {
    fact: { kind: FactKind.PORT, object: '* container *', item: '8081/TCP', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'lib/controller.ts declares the health probe port as a named container port, so that probes and checks refer to a declared port.',
  },
  {
    fact: { kind: FactKind.PORT, object: '* container *', item: '8443/TCP', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'lib/controller.ts declares the secure metrics endpoint as a named container port, which its Service and the checks refer to.',
  },
  {
    fact: { kind: FactKind.NETWORK_POLICY, object: 'NetworkPolicy/*-metrics-fence', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'lib/controller.ts fences a controller\'s plain-HTTP metrics port: a NetworkPolicy admits it only from the platform\'s monitoring namespace (PlatformCustomization.metricsFence).',
  },
  {
    fact: { kind: FactKind.SERVICE_SELECTOR, object: '*', item: 'app.kubernetes.io/name', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'Services select their backend by all of its selector labels, so that in a namespace shared by several operators they reach only its pods.',
  },
  ...['admissionregistration.k8s.io|mutatingwebhookconfigurations|*', 'admissionregistration.k8s.io|validatingwebhookconfigurations|*'].map((item) => ({
    fact: { kind: FactKind.RBAC, object: '*', item, status: 'differs' as const, actual: 'cluster names *' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'the webhook certificate rotator (lib/webhook-server.ts) may write only its own webhook configurations (resourceNames).',
  })),
  {
    fact: { kind: FactKind.RBAC, object: '*', item: '|secrets|*', status: 'differs', actual: 'namespace*' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'the webhook certificate rotator (lib/webhook-server.ts) reads Secrets of its own namespace only and writes only its own Secret (resourceNames).',
  },
  ...['admissionregistration.k8s.io|mutatingwebhookconfigurations|*', 'admissionregistration.k8s.io|validatingwebhookconfigurations|*', 'apiextensions.k8s.io|customresourcedefinitions|*', '|secrets|*'].map((item) => ({
    fact: { kind: FactKind.RBAC, object: '*', item, status: 'extra' as const },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'the webhook certificate rotator (lib/webhook-server.ts) patches caBundle and its Secret, limited by resourceNames to its own objects.',
  })),
  {
    fact: { kind: FactKind.RBAC, object: '*', item: 'coordination.k8s.io|leases|*', status: 'differs', actual: 'namespace' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'leader election uses Leases in the controller\'s own namespace only (lib/controller.ts): a Role, where upstream binds a ClusterRole.',
  },
  {
    fact: { kind: FactKind.RBAC, object: '*', item: 'coordination.k8s.io|leases|*', status: 'extra' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'leader election manages Leases in the controller\'s own namespace (lib/controller.ts), every verb but only there.',
  },
  {
    fact: { kind: FactKind.RBAC, object: '*', item: '|events|*', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'a controller with leader election may record events in its own namespace (lib/controller.ts).',
  },
  // Values the platform sets the same way for every component. These hold for any upstream
  // value (the reason is lib's mechanism), so they state upstream's value as '*'.
  {
    fact: { kind: FactKind.RESOURCE, object: '* container *', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'where upstream sets no request or limit, lib/controller.ts and lib/workload.ts give every container requests (and controllers limits), sized by the component\'s resources props and customization, so that pods are admitted in namespaces with a ResourceQuota and the scheduler reserves their share.',
  },
  ...[FactKind.ENV, FactKind.CONFIGMAP_KEY].map((kind) => ({
    fact: { kind, object: '*', status: 'differs' as const, upstream: '*' },
    values: 'same-image' as const,
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'an image a program is told to run (env, ConfigMap value) comes from the versions table (registry mirror, pinned tag or digest), like the containers\' own images.',
  })),
  ...([['liveness', { initialDelaySeconds: 15, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 5 }], ['readiness', { initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 5 }]] as const)
    .flatMap(([type, fields]) => Object.entries(fields).map(([field, value]) => ({
      fact: { kind: FactKind.PROBE_FIELD, object: '* container *', item: `${type} ${field}`, status: 'differs' as const, upstream: '*', actual: String(value) },
      category: DeviationCategory.PLATFORM_INTEGRATION,
      reason: 'lib/controller.ts probes every controller with one timing (liveness after 15 s every 20 s, readiness after 5 s every 10 s, 5 s timeout, 5 failures: a slower answer and more failures tolerated than Kubernetes\' defaults).',
    }))),
  ...['initialDelaySeconds 5', 'timeoutSeconds 5'].flatMap((fv) => ['liveness', 'readiness'].map((type) => ({
    fact: { kind: FactKind.PROBE_FIELD, object: '* container *', item: `${type} ${fv.split(' ')[0]}`, status: 'differs' as const, upstream: '*', actual: fv.split(' ')[1] },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'lib/workload.ts fills a probe\'s unset start and timeout with one default (after 5 s, 5 s timeout: a slower answer tolerated than Kubernetes\' 1 s).',
  }))),
  ...['authentication.k8s.io|tokenreviews|create', 'authorization.k8s.io|subjectaccessreviews|create'].map((item) => ({
    fact: { kind: FactKind.RBAC, object: '*', item, status: 'extra' as const },
    category: DeviationCategory.HARDENING,
    reason: 'authenticated metrics (lib/controller.ts) check each scrape\'s token and its permission on /metrics.',
  })),
];

/**
 * REPORT.md's "Deviations from upstream": the framework's, then each component's, one line
 * per category and reason with the facts it covers.
 */
export function deviationReportLines(components: ReadonlyArray<{ readonly componentName: string; readonly parityDeviations: readonly ParityDeviation[] }>): string[] {
  const lines = ['Differences from upstream\'s default installs made on purpose (the parity test holds each to the facts of upstream\'s install at the release modelled):', ''];
  const group = (who: string, list: readonly ParityDeviation[]) => {
    const byReason = new Map<string, ParityDeviation[]>();
    for (const d of list) {
      const k = `${d.category}\u0000${d.reason}`;
      byReason.set(k, [...(byReason.get(k) ?? []), d]);
    }
    for (const [k, ds] of byReason) {
      const [category, reason] = k.split('\u0000');
      lines.push(`- ${who} (${category}): ${ds.map((d) => describePattern(d.fact)).join('; ')}: ${reason}`);
    }
  };
  group('every component', FRAMEWORK_PARITY_DEVIATIONS);
  for (const c of components) group(c.componentName, c.parityDeviations);
  return lines;
}
