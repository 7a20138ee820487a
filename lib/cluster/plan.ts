/**
 * `mlplatform plan`: a semantic upgrade plan between two synthesized outputs, for review in a
 * pull request; no cluster needed. Each finding has a severity: `danger` needs an
 * acknowledgement (data loss, or an apply the server refuses), `warning` changes behaviour a
 * reviewer must see, `info` is worth knowing.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ReferencedSecret, referencedSecretsFromObjects, secretKeyOf } from '../secrets';
import { describeRef, Json, objectKey, outputDocuments } from './desired';

export type Severity = 'danger' | 'warning' | 'info';

export interface PlanFinding {
  readonly severity: Severity;
  /** What kind of change (CRD_VERSION_UNSERVED, IMAGE_CHANGED, ...). */
  readonly code: string;
  /** The object concerned (`apiextensions.k8s.io/v1 CustomResourceDefinition x.y`). */
  readonly object: string;
  readonly message: string;
  /** Stable id of this finding, for `--acknowledge`. */
  readonly key: string;
}

/** Every code `plan` reports, with its severity (one table: tests make each fire). */
export const PLAN_CODES: Readonly<Record<string, Severity>> = {
  CRD_REMOVED: 'danger',
  CRD_VERSION_ADDED: 'info',
  CRD_VERSION_UNSERVED: 'danger',
  CRD_STORAGE_CHANGED: 'warning',
  SCHEMA_FIELD_REMOVED: 'danger',
  FIELD_NEWLY_REQUIRED: 'warning',
  CEL_RULES_CHANGED: 'warning',
  WEBHOOK_ADDED: 'info',
  WEBHOOK_REMOVED: 'warning',
  WEBHOOK_CHANGED: 'warning',
  WEBHOOK_FAILURE_POLICY_RELAXED: 'danger',
  RBAC_GRANT_ADDED: 'info',
  RBAC_GRANT_REMOVED: 'warning',
  RBAC_WILDCARD_GRANTED: 'danger',
  RBAC_SECRETS_READ_CLUSTER_WIDE: 'danger',
  RBAC_ESCALATION_GRANTED: 'danger',
  RBAC_WRITES_WEBHOOKS: 'danger',
  RBAC_WRITES_RBAC: 'danger',
  POD_SECURITY_LOWERED: 'danger',
  NETWORK_POLICY_REMOVED: 'danger',
  IMAGE_CHANGED: 'info',
  IMAGE_MAJOR_CHANGE: 'warning',
  OBJECT_PRUNED: 'warning',
  NAMESPACE_REMOVED: 'danger',
  SECRET_REQUIRED: 'warning',
  SECRET_KEYS_ADDED: 'warning',
  SECRET_GENERATED: 'info',
  SECRET_NO_LONGER_READ: 'info',
};

const SEVERITY_ORDER: Severity[] = ['danger', 'warning', 'info'];

/** Compares two outputs (the objects of each, in file order). */
export function planOutputs(from: readonly Json[], to: readonly Json[]): PlanFinding[] {
  const out: PlanFinding[] = [];
  const add = (code: string, o: Json, message: string, detail = '') => {
    const object = describeRef(o);
    out.push({ severity: PLAN_CODES[code], code, object, message, key: `${code}:${objectKey(o)}${detail ? `:${detail}` : ''}` });
  };
  const valid = (xs: readonly Json[]) => xs.filter((o) => o && typeof o === 'object' && o.apiVersion && o.kind && o.metadata?.name);
  const before = new Map(valid(from).map((o) => [objectKey(o), o]));
  const after = new Map(valid(to).map((o) => [objectKey(o), o]));

  // Objects that leave the output (what apply --prune deletes).
  for (const [key, o] of before) {
    if (after.has(key)) continue;
    if (o.kind === 'CustomResourceDefinition') {
      add('CRD_REMOVED', o, `CRD removed: deleting it deletes every ${o.spec?.names?.kind} on the cluster (apply --prune keeps it while custom resources remain)`);
    } else if (o.kind === 'Namespace') {
      add('NAMESPACE_REMOVED', o, 'namespace removed: pruning it deletes everything in it, including objects not from this platform');
    } else if (o.kind === 'NetworkPolicy') {
      add('NETWORK_POLICY_REMOVED', o, 'NetworkPolicy removed: apply --prune deletes it, and the pods it isolated accept traffic it denied');
    } else {
      add('OBJECT_PRUNED', o, 'no longer in the output: apply --prune deletes it');
    }
  }
  for (const [key, b] of after) {
    const a = before.get(key);
    if (!a) continue;
    if (b.kind === 'CustomResourceDefinition') crdFindings(a, b, add);
    if (b.kind === 'ValidatingWebhookConfiguration' || b.kind === 'MutatingWebhookConfiguration') webhookFindings(a, b, add);
    if (b.kind === 'Namespace') podSecurityFindings(a, b, add);
  }
  // Webhook configurations new in the output.
  for (const [key, b] of after) {
    if (before.has(key) || (b.kind !== 'ValidatingWebhookConfiguration' && b.kind !== 'MutatingWebhookConfiguration')) continue;
    for (const w of b.webhooks ?? []) add('WEBHOOK_ADDED', b, `webhook ${w.name} added (failurePolicy ${w.failurePolicy ?? 'Fail'}, backend ${backend(w)})`, w.name);
  }
  rbacFindings(valid(from), valid(to), add);
  imageFindings(before, after, add);
  secretFindings(valid(from), valid(to), add);
  return out.sort((x, y) => SEVERITY_ORDER.indexOf(x.severity) - SEVERITY_ORDER.indexOf(y.severity));
}

type Add = (code: string, o: Json, message: string, detail?: string) => void;

function crdFindings(a: Json, b: Json, add: Add): void {
  const versions = (o: Json) => new Map<string, Json>((o.spec?.versions ?? []).map((v: Json) => [String(v.name), v]));
  const va = versions(a);
  const vb = versions(b);
  for (const [name, v] of vb) if (!va.has(name)) add('CRD_VERSION_ADDED', b, `version ${name} added${v.served === false ? ' (not served)' : ''}`, name);
  for (const [name, v] of va) {
    if (v.served === false) continue;
    const now = vb.get(name);
    if (now && now.served !== false) continue;
    add('CRD_VERSION_UNSERVED', b, `served version ${name} ${now ? 'no longer served' : 'removed'}: clients of ${name} break, and objects stored as ${name} ` +
      `must be migrated first (rewrite them in the storage version, then drop ${name} from the CRD's status.storedVersions; the API server refuses to remove a version listed there)`, name);
  }
  const storage = (m: Map<string, Json>) => [...m.values()].find((v) => v.storage)?.name;
  if (storage(va) !== storage(vb)) add('CRD_STORAGE_CHANGED', b, `storage version ${storage(va)} -> ${storage(vb)}: new writes are stored as ${storage(vb)}; existing objects stay ${storage(va)} until rewritten`, `${storage(va)}->${storage(vb)}`);
  for (const [name, v] of vb) {
    const old = va.get(name);
    if (!old) continue;
    const sa = schemaFacts(old.schema?.openAPIV3Schema);
    const sb = schemaFacts(v.schema?.openAPIV3Schema);
    for (const p of sa.fields) {
      if (sb.fields.has(p) || sb.open.some((o) => p.startsWith(o ? `${o}.` : '') || p.startsWith(`${o}[]`) || p.startsWith(`${o}{}`))) continue;
      // Report the topmost removed field only.
      const parent = p.slice(0, Math.max(0, p.lastIndexOf('.'))).replace(/(\[\]|\{\})+$/, '');
      if (parent && sa.fields.has(parent) && !sb.fields.has(parent)) continue;
      add('SCHEMA_FIELD_REMOVED', b, `${name}: field ${p} removed from the schema: the API server prunes it from stored objects when they are next written`, `${name}:${p}`);
    }
    for (const r of sb.required) if (!sa.required.has(r) && sa.fields.has(r)) add('FIELD_NEWLY_REQUIRED', b, `${name}: field ${r} now required: existing objects without it fail their next update`, `${name}:${r}`);
    const paths = new Set([...sa.rules.keys(), ...sb.rules.keys()]);
    for (const p of [...paths].sort()) {
      const ra = sa.rules.get(p) ?? [];
      const rb = sb.rules.get(p) ?? [];
      const added = rb.filter((r) => !ra.includes(r));
      const removed = ra.filter((r) => !rb.includes(r));
      if (!added.length && !removed.length) continue;
      add('CEL_RULES_CHANGED', b, `${name}: CEL rules at ${p || '(root)'} changed: ${[...added.map((r) => `+ ${r}`), ...removed.map((r) => `- ${r}`)].join('; ')}` +
        (added.length ? ' (new rules apply to updates of existing objects, and must compile on the cluster\'s Kubernetes version)' : ''), `${name}:${p}`);
    }
  }
}

/** Property paths, required paths, open (preserve-unknown) paths and CEL rules by path of a schema. */
function schemaFacts(schema: Json | undefined): { fields: Set<string>; required: Set<string>; open: string[]; rules: Map<string, string[]> } {
  const fields = new Set<string>();
  const required = new Set<string>();
  const open: string[] = [];
  const rules = new Map<string, string[]>();
  const walk = (s: Json | undefined, at: string) => {
    if (!s || typeof s !== 'object') return;
    if (s['x-kubernetes-preserve-unknown-fields']) open.push(at);
    const cel = (s['x-kubernetes-validations'] ?? []).map((v: Json) => String(v.rule));
    if (cel.length) rules.set(at, cel);
    for (const r of s.required ?? []) required.add(at ? `${at}.${r}` : String(r));
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      const p = at ? `${at}.${k}` : k;
      fields.add(p);
      walk(v as Json, p);
    }
    if (s.items) walk(s.items, `${at}[]`);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${at}{}`);
  };
  walk(schema, '');
  return { fields, required, open, rules };
}

const backend = (w: Json): string => {
  const s = w.clientConfig?.service;
  return s ? `Service ${s.namespace}/${s.name}${s.path ? s.path : ''}${s.port ? `:${s.port}` : ''}` : w.clientConfig?.url ? 'a URL' : 'none';
};

const WEBHOOK_FIELDS: Array<[string, (w: Json) => unknown]> = [
  ['failurePolicy', (w) => w.failurePolicy ?? 'Fail'],
  ['rules', (w) => w.rules ?? []],
  ['namespaceSelector', (w) => w.namespaceSelector ?? {}],
  ['objectSelector', (w) => w.objectSelector ?? {}],
  ['matchConditions', (w) => w.matchConditions ?? []],
  ['backend', (w) => backend(w)],
];

function webhookFindings(a: Json, b: Json, add: Add): void {
  const byName = (o: Json) => new Map<string, Json>((o.webhooks ?? []).map((w: Json) => [String(w.name), w]));
  const wa = byName(a);
  const wb = byName(b);
  for (const [name, w] of wb) {
    const old = wa.get(name);
    if (!old) {
      add('WEBHOOK_ADDED', b, `webhook ${name} added (failurePolicy ${w.failurePolicy ?? 'Fail'}, backend ${backend(w)})`, name);
      continue;
    }
    for (const [field, get] of WEBHOOK_FIELDS) {
      const x = JSON.stringify(get(old));
      const y = JSON.stringify(get(w));
      if (x === y) continue;
      if (field === 'failurePolicy' && b.kind === 'ValidatingWebhookConfiguration' && get(old) === 'Fail' && get(w) === 'Ignore') {
        add('WEBHOOK_FAILURE_POLICY_RELAXED', b, `webhook ${name}: failurePolicy Fail -> Ignore: while its backend is down or slow, what it rejects is admitted unchecked`, `${name}:${field}`);
      } else {
        add('WEBHOOK_CHANGED', b, `webhook ${name}: ${field} ${x} -> ${y}`, `${name}:${field}`);
      }
    }
  }
  for (const name of wa.keys()) if (!wb.has(name)) add('WEBHOOK_REMOVED', b, `webhook ${name} removed: what it checked or defaulted is no longer checked or defaulted`, name);
}

/** `ns/sa` -> grants (`[scope] group/resource verb`), from the bindings and roles of an output. */
function grantsBySubject(objects: readonly Json[]): Map<string, { sa: Json; grants: Set<string> }> {
  const roles = new Map(objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));
  const out = new Map<string, { sa: Json; grants: Set<string> }>();
  for (const b of objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
    const ref = b.roleRef ?? {};
    const role = roles.get(`${ref.kind}/${ref.kind === 'Role' ? b.metadata.namespace : ''}/${ref.name}`);
    if (!role) continue; // a role the output does not define (built in, or aggregated at run time)
    const scope = b.kind === 'RoleBinding' ? `in ${b.metadata.namespace}` : 'cluster-wide';
    const grants: string[] = [];
    for (const r of role.rules ?? []) {
      for (const verb of r.verbs ?? []) {
        for (const g of r.apiGroups ?? []) for (const res of r.resources ?? []) grants.push(`${scope}: ${verb} ${g || 'core'}/${res}${r.resourceNames ? ` (${[...r.resourceNames].sort().join(',')})` : ''}`);
        for (const u of r.nonResourceURLs ?? []) grants.push(`${scope}: ${verb} ${u}`);
      }
    }
    for (const s of b.subjects ?? []) {
      if (s.kind !== 'ServiceAccount') continue;
      const key = `${s.namespace ?? b.metadata.namespace}/${s.name}`;
      const entry = out.get(key) ?? { sa: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: s.name, namespace: s.namespace ?? b.metadata.namespace } }, grants: new Set<string>() };
      for (const g of grants) entry.grants.add(g);
      out.set(key, entry);
    }
  }
  return out;
}

const RISKS: Record<string, string> = {
  RBAC_WILDCARD_GRANTED: 'a wildcard grant (every group, resource or verb, including those added later)',
  RBAC_SECRETS_READ_CLUSTER_WIDE: 'read access to Secrets in every namespace',
  RBAC_ESCALATION_GRANTED: 'escalate, bind or impersonate (a way past its own permissions)',
  RBAC_WRITES_WEBHOOKS: 'write access to admission webhook configurations (it can intercept or switch off admission)',
  RBAC_WRITES_RBAC: 'write access to RBAC (it can grant permissions)',
};
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection', '*']);

/** The dangerous-grant codes a grant (`cluster-wide: get core/secrets`) falls under. */
function riskOf(grant: string): string[] {
  const m = /^(cluster-wide|in [^:]+): (\S+) (\S+?)\/(\S+)/.exec(grant);
  if (!m) return [];
  const [, scope, verb, group, resource] = m;
  const out: string[] = [];
  if (verb === '*' || group === '*' || resource === '*') out.push('RBAC_WILDCARD_GRANTED');
  const named = / \(/.test(grant); // resourceNames: only the named objects
  if (scope === 'cluster-wide' && (group === 'core' || group === '*') && (resource === 'secrets' || resource === '*') && ['get', 'list', 'watch', '*'].includes(verb) && !named) out.push('RBAC_SECRETS_READ_CLUSTER_WIDE');
  if (['escalate', 'bind', 'impersonate', '*'].includes(verb) && (verb !== '*' || group === 'rbac.authorization.k8s.io' || group === '*')) out.push('RBAC_ESCALATION_GRANTED');
  if (WRITE_VERBS.has(verb) && (group === 'admissionregistration.k8s.io' || group === '*') && /webhookconfigurations$|^\*$/.test(resource)) out.push('RBAC_WRITES_WEBHOOKS');
  if (WRITE_VERBS.has(verb) && (group === 'rbac.authorization.k8s.io' || group === '*') && ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings', '*'].includes(resource)) out.push('RBAC_WRITES_RBAC');
  return out;
}

const POD_SECURITY_LEVELS = ['privileged', 'baseline', 'restricted'];

/** A Namespace's Pod Security enforce level lowered (a label removed means the cluster default, privileged unless configured). */
function podSecurityFindings(a: Json, b: Json, add: Add): void {
  const label = 'pod-security.kubernetes.io/enforce';
  const level = (o: Json): string | undefined => o.metadata?.labels?.[label];
  const [x, y] = [level(a), level(b)];
  if (!x || x === y) return;
  const rank = (l: string | undefined) => (l === undefined ? 0 : POD_SECURITY_LEVELS.indexOf(l));
  if (rank(y) < rank(x)) {
    add('POD_SECURITY_LOWERED', b, `${label} ${x} -> ${y ?? '(removed: the cluster default, privileged unless the admission configuration says otherwise)'}: pods the namespace refused are admitted`, `${x}->${y ?? ''}`);
  }
}

function rbacFindings(from: readonly Json[], to: readonly Json[], add: Add): void {
  const ga = grantsBySubject(from);
  const gb = grantsBySubject(to);
  for (const key of [...new Set([...ga.keys(), ...gb.keys()])].sort()) {
    const a = ga.get(key)?.grants ?? new Set<string>();
    const b = gb.get(key)?.grants ?? new Set<string>();
    const sa = (gb.get(key) ?? ga.get(key))!.sa;
    const added = [...b].filter((g) => !a.has(g)).sort();
    const removed = [...a].filter((g) => !b.has(g)).sort();
    if (added.length) add('RBAC_GRANT_ADDED', sa, `ServiceAccount ${key} gains: ${added.join('; ')}`, 'added');
    const risky = new Map<string, string[]>();
    for (const g of added) for (const code of riskOf(g)) risky.set(code, [...(risky.get(code) ?? []), g]);
    for (const [code, grants] of risky) add(code, sa, `ServiceAccount ${key} gains ${RISKS[code]}: ${grants.join('; ')}`);
    if (removed.length) add('RBAC_GRANT_REMOVED', sa, `ServiceAccount ${key} loses: ${removed.join('; ')}`, 'removed');
  }
}

/** Every container image of an object (pod templates, CronJobs, serving runtimes), by container name. */
function imagesOf(o: Json): Map<string, string> {
  const spec = o.spec?.template?.spec ?? o.spec?.jobTemplate?.spec?.template?.spec ?? (o.kind === 'ServingRuntime' || o.kind === 'ClusterServingRuntime' ? o.spec : undefined);
  const out = new Map<string, string>();
  for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) if (c?.image) out.set(String(c.name), String(c.image));
  return out;
}

function tagOf(image: string): string {
  const at = image.indexOf('@');
  if (at >= 0) return image.slice(at + 1);
  const last = image.split('/').pop() ?? '';
  return last.includes(':') ? last.slice(last.indexOf(':') + 1) : '';
}

/** major.minor.patch of a tag like v0.15.2 or 2.3.0-rc1; undefined when it is not a version. */
function semver(tag: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(tag);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** `minor jump`, `major jump`, `downgrade`... of two tags. */
export function versionJump(from: string, to: string): { text: string; major: boolean } {
  const a = semver(from);
  const b = semver(to);
  if (!a || !b) return { text: 'not comparable versions', major: false };
  const cmp = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  if (cmp > 0) return { text: 'downgrade', major: true };
  // Before 1.0, a minor version is allowed to break (semver 4): treat it as major.
  if (a[0] !== b[0] || (a[0] === 0 && a[1] !== b[1])) return { text: `major jump (${a[0]}.${a[1]} -> ${b[0]}.${b[1]})`, major: true };
  if (a[1] !== b[1]) return { text: `minor jump, ${b[1] - a[1]} minor version${b[1] - a[1] > 1 ? 's' : ''}`, major: false };
  return { text: a[2] !== b[2] ? 'patch' : 'same version', major: false };
}

function imageFindings(before: Map<string, Json>, after: Map<string, Json>, add: Add): void {
  for (const [key, b] of after) {
    const a = before.get(key);
    if (!a) continue;
    const ia = imagesOf(a);
    for (const [container, image] of imagesOf(b)) {
      const old = ia.get(container);
      if (!old || old === image) continue;
      const jump = versionJump(tagOf(old), tagOf(image));
      add(jump.major ? 'IMAGE_MAJOR_CHANGE' : 'IMAGE_CHANGED', b, `container ${container}: ${old} -> ${image} (${jump.text})`, container);
    }
  }
}

/**
 * The Secrets the platform reads but does not create (its referenced Secrets, carried in the
 * output by an annotation): one the operator must now provide, or with new keys (apply
 * refuses to start without them), one apply will now generate, one no longer read (apply
 * never deletes it).
 */
function secretFindings(from: readonly Json[], to: readonly Json[], add: Add): void {
  const read = (xs: readonly Json[]) => new Map(referencedSecretsFromObjects(xs.map((json) => ({ json }))).map((s) => [secretKeyOf(s), s]));
  const before = read(from);
  const after = read(to);
  const secret = (s: ReferencedSecret): Json => ({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: s.namespace, name: s.name } });
  const readers = (s: ReferencedSecret) => (s.neededBy.length ? s.neededBy.join(', ') : s.component);
  for (const [key, s] of after) {
    const old = before.get(key);
    if (s.source === 'user') {
      const newKeys = s.keys.filter((k) => !old || old.source !== 'user' || !old.keys.includes(k));
      if (!newKeys.length) continue;
      const what = !old ? 'newly read' : old.source !== 'user' ? 'no longer generated by apply' : `now also needs key${newKeys.length > 1 ? 's' : ''} ${newKeys.join(', ')}`;
      add('SECRET_REQUIRED', secret(s), `a Secret you provide, ${what} (${s.purpose}; read by ${readers(s)}): create it with key${s.keys.length > 1 ? 's' : ''} ` +
        `${s.keys.join(', ')} before applying, or apply refuses to start${s.hint ? ` (${s.hint})` : ''}`, newKeys.join(','));
    } else if (!old || old.source !== 'generated') {
      add('SECRET_GENERATED', secret(s), `newly read (${s.purpose}; read by ${readers(s)}): apply generates it when it is missing (key${s.keys.length > 1 ? 's' : ''} ${s.keys.join(', ')}); an existing one is kept`);
    } else {
      const newKeys = s.keys.filter((k) => !old.keys.includes(k));
      if (!newKeys.length) continue;
      add('SECRET_KEYS_ADDED', secret(s), `now also needs key${newKeys.length > 1 ? 's' : ''} ${newKeys.join(', ')} (${s.purpose}; read by ${readers(s)}): apply generates keys only in a Secret it creates, ` +
        'so where the Secret exists, add the keys or delete the Secret so that apply generates it whole; else apply refuses to start', newKeys.join(','));
    }
  }
  for (const [key, s] of before) {
    if (after.has(key)) continue;
    add('SECRET_NO_LONGER_READ', secret(s), 'no longer read by the platform: apply neither checks nor deletes it; delete it when nothing else reads it');
  }
}

/** Findings as text, most severe first, with a closing count. */
export function planText(findings: readonly PlanFinding[], acknowledged: ReadonlySet<string> = new Set()): string {
  if (!findings.length) return 'no changes that need review\n';
  const lines = findings.map((f) => `${f.severity.toUpperCase().padEnd(7)} ${f.code} ${f.object}: ${f.message}${acknowledged.has(f.key) ? ' (acknowledged)' : ''}\n        key: ${f.key}`);
  const n = (s: Severity) => findings.filter((f) => f.severity === s).length;
  lines.push(`${n('danger')} dangerous, ${n('warning')} warnings, ${n('info')} info`);
  return lines.join('\n') + '\n';
}

/** The dangerous findings not acknowledged (what fails CI). */
export function unacknowledgedDanger(findings: readonly PlanFinding[], acknowledged: ReadonlySet<string>): PlanFinding[] {
  return findings.filter((f) => f.severity === 'danger' && !acknowledged.has(f.key));
}

/** A synthesized output to compare: a folder, or a folder at a git revision (`REF:PATH`, or `REF` with the path of `defaultPath`). */
export interface OutputSource {
  readonly objects: Json[];
  /** What was read, for messages. */
  readonly label: string;
}

/**
 * Reads an output: `spec` names a folder (relative to cwd) when one exists there; otherwise
 * it is a git revision, `REF:PATH` or `REF` (then PATH is `defaultPath`), read with
 * `git archive` into a temporary folder.
 */
export function readOutput(spec: string, cwd: string, defaultPath?: string): OutputSource {
  const abs = path.resolve(cwd, spec);
  if (fs.existsSync(abs)) return { objects: outputDocuments(abs, cwd).map((d) => d.object as Json), label: spec };
  const colon = spec.indexOf(':');
  const ref = colon >= 0 ? spec.slice(0, colon) : spec;
  let rel = colon >= 0 ? spec.slice(colon + 1) : defaultPath;
  if (!rel) throw new PlanInputError(`'${spec}' is neither a folder nor REF:PATH; name the folder in the revision (e.g. main:dist/serving) or give --to`);
  const git = (args: string[], dir = cwd) => spawnSync('git', args, { cwd: dir, maxBuffer: 1024 * 1024 * 1024 });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0) throw new PlanInputError(`'${spec}' is not a folder, and ${cwd} is not in a git repository to read it from: ${top.stderr.toString().trim()}`);
  const root = top.stdout.toString().trim();
  // A path relative to the working directory, as the user typed it, taken from the repository's root.
  rel = path.relative(root, path.resolve(cwd, rel)).split(path.sep).join('/');
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root);
  if (commit.status !== 0) throw new PlanInputError(`cannot read ${rel} at ${ref}: no such revision`);
  const listed = git(['ls-tree', '-r', '--name-only', commit.stdout.toString().trim(), '--', rel], root);
  // Output that is not committed there (dist/ is usually ignored): synthesize the revision.
  if (listed.status === 0 && !listed.stdout.toString().trim()) return synthesizedAt(root, ref, rel);
  const archive = git(['archive', '--format=tar', ref, '--', rel], root);
  if (archive.status !== 0) throw new PlanInputError(`cannot read ${rel} at ${ref}: ${archive.stderr.toString().trim()}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-plan-'));
  try {
    const untar = spawnSync('tar', ['-x', '-C', tmp], { input: archive.stdout, maxBuffer: 1024 * 1024 * 1024 });
    if (untar.status !== 0) throw new PlanInputError(`cannot unpack ${rel} at ${ref}: ${untar.stderr.toString().trim()}`);
    return { objects: outputDocuments(path.join(tmp, rel), tmp).map((d) => d.object as Json), label: `${ref}:${rel}` };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The output at `rel` of revision `ref`, synthesized there: a detached git worktree of the
 * revision in a temporary folder, sharing the repository's node_modules, runs the `app` its
 * cdk8s.yaml names with CDK8S_OUTDIR at its `output` folder (default dist), as `cdk8s synth`
 * would, without the cdk8s CLI (no upgrade check, nothing fetched). The worktree is removed after.
 */
export function synthesizedAt(root: string, ref: string, rel: string): OutputSource {
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-plan-rev-'));
  const worktree = path.join(tmp, 'worktree');
  const added = git(['worktree', 'add', '--detach', '--quiet', worktree, ref]);
  if (added.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new PlanInputError(`${rel} is not committed at ${ref}, and a worktree to synthesize it cannot be made: ${added.stderr.toString().trim()}`);
  }
  try {
    const configFile = path.join(worktree, 'cdk8s.yaml');
    if (!fs.existsSync(configFile)) throw new PlanInputError(`${rel} is not committed at ${ref}, and ${ref} has no cdk8s.yaml to synthesize it with: commit the output, or give --from DIR`);
    const config = YAML.parse(fs.readFileSync(configFile, 'utf8')) as { app?: unknown; output?: unknown } | null;
    if (typeof config?.app !== 'string' || !config.app.trim()) throw new PlanInputError(`cdk8s.yaml at ${ref} names no app to synthesize ${rel} with`);
    const output = typeof config.output === 'string' && config.output ? config.output : 'dist';
    if (fs.existsSync(path.join(root, 'node_modules')) && !fs.existsSync(path.join(worktree, 'node_modules'))) {
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(worktree, 'node_modules'), 'dir');
    }
    const env: NodeJS.ProcessEnv = { ...process.env, CDK8S_OUTDIR: path.join(worktree, output), CDK8S_CHECK_UPGRADE: 'false' };
    delete env.MLP_OUTDIR;
    const run = spawnSync('sh', ['-c', config.app], { cwd: worktree, env, maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) {
      const tail = `${run.stderr?.toString() ?? ''}${run.stdout?.toString() ?? ''}`.trim().split('\n').slice(-12).join('\n');
      throw new PlanInputError(`synthesizing ${ref} to read ${rel} failed (${config.app}, exit ${run.status ?? run.signal}):\n${tail}`);
    }
    const dir = path.join(worktree, rel);
    if (!fs.existsSync(dir)) throw new PlanInputError(`synthesizing ${ref} wrote no ${rel} (its app writes to ${output}/): name the output folder the revision writes`);
    return { objects: outputDocuments(dir, worktree).map((d) => d.object as Json), label: `${ref}:${rel} (synthesized)` };
  } finally {
    git(['worktree', 'remove', '--force', worktree]);
    fs.rmSync(tmp, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
}

/** An output that cannot be read (exit 2). */
export class PlanInputError extends Error {}
