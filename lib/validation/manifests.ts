import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve, sep } from 'path';
import { deserialize, serialize } from 'v8';
import { parseAllDocuments, Tags } from 'yaml';
import { builtinKinds, isBuiltinGroup, isBuiltinKind, validateBuiltins } from './builtin';
import { crossObjectIssues } from './cross-objects';
import { compileCelRules, validateCustomResources } from './custom-resource';
import { ecosystemCrd, EcosystemSource } from './ecosystem';
import { ValidationIssue } from './issues';
import { ParsedFiles } from './parsed-files';
import { ruleOf, WARNING_RULES } from './rules';
import { DEFAULT_KUBERNETES_VERSION, KubernetesVersion } from '../kubernetes-version';

/**
 * Validation of manifest files (a GitOps repository, our own dist/): every Kubernetes
 * object in the YAML and JSON files under the given paths, built-in kinds against the
 * Kubernetes v1.32 API as the API server checks them with strict field validation, custom
 * resources against the CRDs found in the input and in the CRD folders. The library
 * behind `mlplatform validate`.
 */

/** One problem in one object of one file. */
export interface ManifestFinding {
  /** The file, relative to the folder given (or as given, for a file). */
  readonly file: string;
  /** The document's index in the file, from 0 (every `---` document counts, empty ones too). */
  readonly index: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** A rule id of RULES (lib/validation/rules.ts). */
  readonly rule: string;
  readonly severity: 'error' | 'warning';
  /** `field.path: what is wrong`. */
  readonly message: string;
}

/** Input that cannot be read or parsed: the command exits 2. */
export class ManifestInputError extends Error {}

export interface ManifestOptions {
  /** Folders (or files) whose CustomResourceDefinitions serve the custom resources of the input. */
  readonly crds?: readonly string[];
  /** What relative paths are resolved against (default: the process's working directory). */
  readonly cwd?: string;
  /** Filled with the Helm chart folders that were not read (templates are not manifests until rendered). */
  readonly skippedCharts?: string[];
  /**
   * A custom resource whose CRD is neither in the input nor under `crds` is an error
   * (K8S-NO-CRD), or only a warning with `'warning'` (CRDs installed by another repository,
   * e.g. Argo CD's or Flux's own).
   * @default 'error'
   */
  readonly missingCrds?: 'error' | 'warning';
  /**
   * The Kubernetes version whose API server CRDs are compiled for (CEL scopes, libraries and
   * cost budgets differ by version).
   * @default DEFAULT_KUBERNETES_VERSION
   */
  readonly kubernetesVersion?: KubernetesVersion;
  /**
   * Also check the input as a whole (crossObjectFindings): webhook backends and CA sources,
   * role references, ServiceAccounts, selectors. `mlplatform validate` does.
   * @default false
   */
  readonly crossObjects?: boolean;
}

/** A document of a file. */
export interface ManifestDocument {
  readonly file: string;
  readonly index: number;
  /** For an item of a `kind: List` document: `items[3]`. */
  readonly prefix: string;
  readonly object: unknown;
}

const EXTENSIONS = /\.(ya?ml|json)$/i;

/** The YAML 1.1 tags but the timestamp (see readManifest). */
const withoutTimestamps = (tags: Tags): Tags => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp');
const SKIPPED = /^kustomization\.ya?ml$|^Kustomization$/;

/**
 * The manifest files under a path (itself, if a file), in a deterministic order: sorted by
 * path, folders walked depth first. A folder holding a Chart.yaml is a Helm chart, whose
 * templates are not manifests until rendered: it is left out and added to `skipped`.
 */
export function manifestFiles(path: string, skipped: string[] = []): string[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new ManifestInputError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`);
  }
  if (st.isFile()) return [path];
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw new ManifestInputError(`cannot read folder ${dir}: ${(e as Error).message}`);
    }
    if (entries.some((x) => x.name === 'Chart.yaml' && x.isFile())) {
      skipped.push(dir);
      return;
    }
    for (const entry of entries.map((x) => x.name).sort()) {
      if (entry.startsWith('.')) continue; // .git, .github, editor files
      const full = join(dir, entry);
      const s = statSync(full);
      if (s.isDirectory()) walk(full);
      else if (EXTENSIONS.test(entry) && !SKIPPED.test(entry)) out.push(full);
    }
  };
  walk(path);
  return out;
}


/** The documents of a manifest file; a `kind: List` document gives its items. YAML 1.1, as kubectl reads it. */
export function readManifest(abs: string, display: string): ManifestDocument[] {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    throw new ManifestInputError(`cannot read ${display}: ${(e as Error).message}`);
  }
  const key = ParsedFiles.digest(text);
  let bytes = PARSED.get(key);
  if (bytes) {
    // Most recently used last.
    PARSED.delete(key);
    PARSED.set(key, bytes);
    // A copy: callers own (and may change) what they get.
    return (deserialize(bytes) as ManifestDocument[]).map((d) => ({ ...d, file: display }));
  }
  // Parsed by another process (lib/validation/parsed-files.ts), or here.
  const store = ParsedFiles.fromEnvironment(__filename);
  bytes = store?.get(key, text.length);
  let docs: ManifestDocument[] | undefined;
  if (bytes) {
    try {
      docs = deserialize(bytes) as ManifestDocument[];
    } catch {
      bytes = undefined;
    }
  }
  if (!docs || !bytes) {
    docs = parseText(text, display);
    bytes = serialize(docs);
    store?.put(key, text.length, bytes);
  }
  remember(key, bytes);
  return docs.map((d) => ({ ...d, file: display }));
}

/**
 * Files parsed in this process, by the SHA-256 of their text, most recently used last, as
 * v8.serialize writes their documents (each read deserializes a copy of its own): YAML
 * parsing is most of the cost of reading an output (about 1.5 s of CPU for a platform's 4 MB),
 * and `mlplatform plan` reads two outputs in which most files are the same. A file that does
 * not parse is not kept (its error is thrown again). At most PARSED_MAX_BYTES.
 */
const PARSED = new Map<string, Buffer>();
const PARSED_MAX_BYTES = 64 * 1024 * 1024;
let parsedBytes = 0;

/** Forgets the files parsed in this process: the next read of each is as another process's (tests). */
export function forgetParsedFiles(): void {
  PARSED.clear();
  parsedBytes = 0;
}

function remember(key: string, entry: Buffer): void {
  PARSED.set(key, entry);
  parsedBytes += entry.length;
  for (const [k, e] of PARSED) {
    if (parsedBytes <= PARSED_MAX_BYTES || k === key) break;
    PARSED.delete(k);
    parsedBytes -= e.length;
  }
}

function parseText(text: string, display: string): ManifestDocument[] {
  // YAML 1.1 as kubectl and the API server read it (sigs.k8s.io/yaml), except that an
  // unquoted timestamp stays a string: they decode into JSON, which has no dates.
  const docs = parseAllDocuments(text, { version: '1.1', merge: true, uniqueKeys: true, prettyErrors: true, customTags: withoutTimestamps });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: ManifestDocument[] = [];
  list.forEach((doc, index) => {
    const error = doc.errors[0];
    if (error) throw new ManifestInputError(`${display}: document ${index}: ${error.message.split('\n')[0]}`);
    const object = doc.toJS({ maxAliasCount: 100 });
    if (object === null || object === undefined) return; // an empty document
    if (isList(object)) {
      (object.items as unknown[]).forEach((item, i) => out.push({ file: display, index, prefix: `items[${i}]`, object: item }));
    } else {
      out.push({ file: display, index, prefix: '', object });
    }
  });
  return out;
}

const isList = (o: any): boolean => o !== null && typeof o === 'object' && typeof o.kind === 'string' && o.kind.endsWith('List') && o.apiVersion === 'v1' && Array.isArray(o.items);

/**
 * The documents under a path given on the command line, each file named relative to it.
 * Helm charts found under it are not read; their folders (relative to the path, `.` for the
 * path itself) are added to `skippedCharts`.
 */
export function readPath(path: string, cwd: string, skippedCharts: string[] = []): ManifestDocument[] {
  const abs = resolve(cwd, path);
  const charts: string[] = [];
  const files = manifestFiles(abs, charts);
  const isDir = statSync(abs).isDirectory();
  skippedCharts.push(...charts.map((c) => (c === abs ? path : join(path, relative(abs, c)).split(sep).join('/'))));
  return files.flatMap((f) => readManifest(f, isDir ? relative(abs, f).split(sep).join('/') : path));
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '');


const isCrd = (o: any): boolean => o?.apiVersion === 'apiextensions.k8s.io/v1' && o?.kind === 'CustomResourceDefinition';

/** Validates the documents; `crds` are further CRDs (from --crds) that serve custom resources. */
export function validateDocuments(docs: readonly ManifestDocument[], crds: readonly unknown[] = [], kubernetesVersion: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): ManifestFinding[] {
  const byGk = new Map<string, any>();
  // CRDs of the input first: they are what gets applied.
  for (const o of [...docs.map((d) => d.object), ...crds] as any[]) {
    if (isCrd(o) && typeof o.spec?.group === 'string' && typeof o.spec?.names?.kind === 'string') {
      const key = `${o.spec.group}/${o.spec.names.kind}`;
      if (!byGk.has(key)) byGk.set(key, o);
    }
  }
  const issues: ValidationIssue[][] = docs.map(() => []);
  const builtins: number[] = [];
  const byCrd = new Map<any, number[]>();
  // CRDs of the ecosystem (lib/validation/ecosystem.ts) serve the kinds the input has no CRD for.
  const ecosystem = new Map<any, EcosystemSource>();
  docs.forEach((d, i) => {
    const o = d.object as any;
    if (o === null || typeof o !== 'object' || Array.isArray(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') {
      issues[i] = [{ rule: 'K8S-PARSE', path: '', message: 'not a Kubernetes object: expected a mapping with apiVersion and kind' }];
      return;
    }
    if (isBuiltinKind(o.apiVersion, o.kind)) {
      builtins.push(i);
      return;
    }
    let crd = byGk.get(`${groupOf(o.apiVersion)}/${o.kind}`);
    if (!crd) {
      const known = ecosystemCrd(groupOf(o.apiVersion), o.kind);
      if (known) ecosystem.set(crd = known.crd, known.source);
    }
    if (crd) {
      let list = byCrd.get(crd);
      if (!list) byCrd.set(crd, list = []);
      list.push(i);
    } else if (isBuiltinGroup(o.apiVersion)) {
      issues[i] = [{ rule: 'K8S-UNKNOWN-KIND', path: 'apiVersion', message: `Kubernetes v1.32 does not serve ${o.kind} in ${o.apiVersion}${servedAs(o.kind)}` }];
    } else {
      issues[i] = [{ rule: 'K8S-NO-CRD', path: 'apiVersion', message: `no CustomResourceDefinition for ${o.kind} in group ${groupOf(o.apiVersion) || '(core)'} in the input or in --crds; add the CRD (or its folder with --crds)` }];
    }
  });
  const builtinResults = validateBuiltins(builtins.map((i) => docs[i].object));
  builtins.forEach((i, k) => {
    issues[i] = builtinResults[k];
    const o = docs[i].object as any;
    if (isCrd(o)) issues[i] = [...issues[i], ...compileCelRules(o, kubernetesVersion).map((x) => ({ ...x, rule: 'K8S-CRD' }))];
  });
  for (const [crd, indexes] of byCrd) {
    const results = validateCustomResources(indexes.map((i) => docs[i].object), crd);
    const source = ecosystem.get(crd);
    // An ecosystem kind's issues say which release's schema found them, and how to check against another.
    const from = source && ` (the ${crd.spec.names.kind} schema of ${source.project} ${source.ref}; give your cluster's CRD with --crds to check against another release)`;
    indexes.forEach((i, k) => { issues[i] = from ? results[k].map((x) => ({ ...x, message: `${x.message}${from}` })) : results[k]; });
  }
  duplicates(docs).forEach((issue, i) => { if (issue) issues[i] = [...issues[i], issue]; });
  return docs.flatMap((d, i) => issues[i].map((issue) => toFinding(d, issue)));
}

/**
 * K8S-DUPLICATE: an object (API group, kind, namespace, name) defined again with different
 * content: kubectl and GitOps engines apply one over the other. Identical copies pass.
 */
function duplicates(docs: readonly ManifestDocument[]): Array<ValidationIssue | undefined> {
  const keys = docs.map((d) => {
    const o = d.object as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
    if (o === null || typeof o !== 'object' || typeof o.kind !== 'string' || typeof o.apiVersion !== 'string' || typeof o.metadata?.name !== 'string') return undefined;
    const namespace = typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    return `${groupOf(o.apiVersion)}/${o.kind}/${namespace}/${o.metadata.name}`;
  });
  // Only the objects whose identity comes again are compared (their canonical JSON): most come once.
  const count = new Map<string, number>();
  for (const k of keys) if (k !== undefined) count.set(k, (count.get(k) ?? 0) + 1);
  const first = new Map<string, { doc: ManifestDocument; text: string }>();
  return docs.map((d, i) => {
    const key = keys[i];
    if (key === undefined || (count.get(key) ?? 0) < 2) return undefined;
    const o = d.object as { kind: string; metadata: { name: string; namespace?: unknown } };
    const namespace = typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    const text = canonicalJson(o);
    const seen = first.get(key);
    if (!seen) {
      first.set(key, { doc: d, text });
      return undefined;
    }
    if (seen.text === text) return undefined;
    const where = `${seen.doc.file}#${seen.doc.index}${seen.doc.prefix ? ` ${seen.doc.prefix}` : ''}`;
    return { rule: 'K8S-DUPLICATE', path: '', message: `${o.kind} ${namespace ? `${namespace}/` : ''}${o.metadata.name} is also defined in ${where} with different content; kubectl and GitOps engines would apply one over the other: keep one definition` };
  });
}

/** JSON with object keys sorted, so that key order does not make two equal objects differ. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function servedAs(kind: string): string {
  const where = builtinKinds().filter((k) => k.endsWith(`/${kind}`)).map((k) => k.slice(0, -kind.length - 1));
  return where.length ? ` (it serves ${kind} as ${where.join(', ')})` : '';
}

function toFinding(d: ManifestDocument, issue: ValidationIssue): ManifestFinding {
  const o = (d.object ?? {}) as any;
  const meta = o.metadata !== null && typeof o.metadata === 'object' ? o.metadata : {};
  const rule = ruleOf(issue);
  const path = [d.prefix, issue.path].filter(Boolean).join('.');
  return {
    file: d.file,
    index: d.index,
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    kind: typeof o.kind === 'string' ? o.kind : '',
    namespace: typeof meta.namespace === 'string' ? meta.namespace : '',
    name: typeof meta.name === 'string' ? meta.name : typeof meta.generateName === 'string' ? meta.generateName : '',
    rule,
    severity: issue.severity ?? (WARNING_RULES.has(rule) ? 'warning' : 'error'),
    message: path ? `${path}: ${issue.message}` : issue.message,
  };
}

/** Validates every manifest under the paths. Throws ManifestInputError for input that cannot be read or parsed. */
export function validateManifests(paths: readonly string[], options: ManifestOptions = {}): ManifestFinding[] {
  const cwd = options.cwd ?? process.cwd();
  const docs = paths.flatMap((p) => readPath(p, cwd, options.skippedCharts));
  const crds = (options.crds ?? []).flatMap((p) => readPath(p, cwd)).map((d) => d.object).filter(isCrd);
  const findings = [...validateDocuments(docs, crds, options.kubernetesVersion), ...(options.crossObjects ? crossObjectFindings(docs) : [])];
  return options.missingCrds === 'warning' ? findings.map((f) => (f.rule === 'K8S-NO-CRD' ? { ...f, severity: 'warning' } : f)) : findings;
}

/** The problems between objects of the documents (lib/validation/cross-objects.ts): webhook backends and CA sources, role references, ServiceAccounts, selectors. */
export function crossObjectFindings(docs: readonly ManifestDocument[]): ManifestFinding[] {
  return crossObjectIssues(docs).map(({ index, issue }) => toFinding(docs[index], issue));
}

/** `file#index Kind namespace/name`, as the text output names an object. */
export function describeObject(f: ManifestFinding): string {
  const id = f.namespace ? `${f.namespace}/${f.name}` : f.name || '(no name)';
  return `${f.file}#${f.index} ${f.kind || '(no kind)'} ${id}`;
}
