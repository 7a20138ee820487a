/**
 * Writes imports/ecosystem/<group>.json: the CustomResourceDefinitions of the projects whose
 * kinds our output emits or builds on (Argo CD, the Argo CD operator of OpenShift GitOps,
 * Flux, cert-manager, Istio, the Gateway API, the Prometheus Operator, OpenShift's Route), as
 * each project publishes them at the release listed in SOURCES, reduced to what validation
 * reads: group, names, scope and, per version, served, storage and the openAPIV3Schema with
 * its CEL rules, without descriptions. `mlplatform validate` checks a custom resource of
 * these groups against them when the input (or --crds) has no CRD of its own for it
 * (lib/validation/ecosystem.ts), loading a group's file only when an object of that group
 * appears.
 *
 *   npx projen gen:ecosystem-crds ROOT
 *
 * ROOT holds a git clone (or bare repository) of each repository in SOURCES, as
 * ROOT/<owner>/<name> or ROOT/<owner>+<name>/repo; the files are read at the listed tag
 * (`git show`), so the clones may be at any revision. Nothing is downloaded.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

interface Source {
  /** The project, as the data names it. */
  readonly project: string;
  /** owner/name on GitHub. */
  readonly repository: string;
  /** A release tag (a branch only where the project tags no releases: openshift/api). */
  readonly ref: string;
  readonly files: readonly string[];
}

/**
 * The releases: the newest release of each project when this was generated (cert-manager the
 * one our CertManager component deploys, OpenShift the 4.20 API), their standard channel for
 * the Gateway API. Change a ref and run the task again to move to another release.
 */
const SOURCES: readonly Source[] = [
  { project: 'Argo CD', repository: 'argoproj/argo-cd', ref: 'v3.5.1', files: ['manifests/crds/application-crd.yaml', 'manifests/crds/applicationset-crd.yaml', 'manifests/crds/appproject-crd.yaml'] },
  { project: 'Argo CD operator (OpenShift GitOps)', repository: 'argoproj-labs/argocd-operator', ref: 'v0.18.0', files: ['config/crd/bases/argoproj.io_argocds.yaml'] },
  { project: 'Flux kustomize-controller', repository: 'fluxcd/kustomize-controller', ref: 'v1.9.4', files: ['config/crd/bases/kustomize.toolkit.fluxcd.io_kustomizations.yaml'] },
  {
    project: 'Flux source-controller',
    repository: 'fluxcd/source-controller',
    ref: 'v1.9.1',
    files: ['buckets', 'externalartifacts', 'gitrepositories', 'helmcharts', 'helmrepositories', 'ocirepositories'].map((k) => `config/crd/bases/source.toolkit.fluxcd.io_${k}.yaml`),
  },
  { project: 'Flux helm-controller', repository: 'fluxcd/helm-controller', ref: 'v1.6.3', files: ['config/crd/bases/helm.toolkit.fluxcd.io_helmreleases.yaml'] },
  { project: 'Flux notification-controller', repository: 'fluxcd/notification-controller', ref: 'v1.9.3', files: ['alerts', 'providers', 'receivers'].map((k) => `config/crd/bases/notification.toolkit.fluxcd.io_${k}.yaml`) },
  {
    project: 'cert-manager',
    repository: 'cert-manager/cert-manager',
    ref: 'v1.19.2',
    files: ['acme.cert-manager.io_challenges', 'acme.cert-manager.io_orders', 'cert-manager.io_certificaterequests', 'cert-manager.io_certificates', 'cert-manager.io_clusterissuers', 'cert-manager.io_issuers'].map((k) => `deploy/crds/${k}.yaml`),
  },
  { project: 'Istio', repository: 'istio/api', ref: 'v1.30.3', files: ['kubernetes/customresourcedefinitions.gen.yaml'] },
  {
    project: 'Gateway API (standard channel)',
    repository: 'kubernetes-sigs/gateway-api',
    ref: 'v1.6.1',
    files: ['backendtlspolicies', 'gatewayclasses', 'gateways', 'grpcroutes', 'httproutes', 'listenersets', 'referencegrants', 'tcproutes', 'tlsroutes', 'udproutes'].map((k) => `config/crd/standard/gateway.networking.k8s.io_${k}.yaml`),
  },
  {
    project: 'Prometheus Operator',
    repository: 'prometheus-operator/prometheus-operator',
    ref: 'v0.93.0',
    files: ['alertmanagerconfigs', 'alertmanagers', 'podmonitors', 'probes', 'prometheusagents', 'prometheuses', 'prometheusrules', 'scrapeconfigs', 'servicemonitors', 'thanosrulers'].map((k) => `example/prometheus-operator-crd/monitoring.coreos.com_${k}.yaml`),
  },
  { project: 'OpenShift', repository: 'openshift/api', ref: 'release-4.20', files: ['route/v1/zz_generated.crd-manifests/routes.crd.yaml'] },
];

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'imports', 'ecosystem');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON schema without its descriptions (the `description` keyword only: a property named description stays). */
export function withoutDescriptions(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description' && typeof v === 'string') continue;
    if ((k === 'properties' || k === 'patternProperties' || k === 'definitions') && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, withoutDescriptions(s)]));
    } else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) {
      out[k] = v.map(withoutDescriptions);
    } else if (k === 'items' || k === 'additionalProperties' || k === 'not') {
      out[k] = Array.isArray(v) ? v.map(withoutDescriptions) : withoutDescriptions(v);
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** What validation reads of a CRD. */
function reduced(crd: JsonObject): JsonObject {
  const spec = crd.spec as JsonObject;
  const versions = (spec.versions as JsonObject[]).map((v) => ({
    name: v.name,
    served: v.served,
    storage: v.storage,
    ...(v.deprecated !== undefined ? { deprecated: v.deprecated } : {}),
    schema: { openAPIV3Schema: withoutDescriptions(((v.schema as JsonObject | undefined)?.openAPIV3Schema ?? {}) as Json) },
  }));
  const names = spec.names as JsonObject;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: (crd.metadata as JsonObject).name },
    spec: { group: spec.group, names: { kind: names.kind, listKind: names.listKind, plural: names.plural, singular: names.singular }, scope: spec.scope, versions },
  };
}

const kindOf = (crd: JsonObject): string => ((crd.spec as JsonObject).names as JsonObject).kind as string;

function gitDir(root: string, repository: string): string {
  const [owner, name] = repository.split('/');
  for (const dir of [path.join(root, owner, name), path.join(root, `${owner}+${name}`, 'repo'), path.join(root, `${owner}+${name}`)]) {
    if (fs.existsSync(dir)) return dir;
  }
  throw new Error(`gen-ecosystem-crds: no clone of ${repository} under ${root} (as ${owner}/${name} or ${owner}+${name}/repo)`);
}

function main(): void {
  const root = process.argv[2];
  if (!root) {
    process.stderr.write('usage: npx projen gen:ecosystem-crds ROOT (a folder holding a git clone of each source repository; see the header of scripts/gen-ecosystem-crds.ts)\n');
    process.exit(2);
  }
  const groups = new Map<string, { sources: JsonObject[]; crds: Array<{ source: number; crd: JsonObject }> }>();
  for (const s of SOURCES) {
    const dir = gitDir(path.resolve(root), s.repository);
    const commit = execFileSync('git', ['-C', dir, 'rev-parse', `${s.ref}^{commit}`], { encoding: 'utf8' }).trim();
    for (const file of s.files) {
      const text = execFileSync('git', ['-C', dir, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 2 ** 28 });
      for (const doc of parseAllDocuments(text)) {
        const o = doc.toJS() as Json;
        if (!isObject(o) || o.kind !== 'CustomResourceDefinition') continue;
        const crd = reduced(o);
        const group = (crd.spec as JsonObject).group as string;
        const entry = groups.get(group) ?? { sources: [], crds: [] };
        let source = entry.sources.findIndex((x) => x.repository === s.repository && x.ref === s.ref);
        if (source < 0) source = entry.sources.push({ project: s.project, repository: s.repository, ref: s.ref, commit }) - 1;
        const kind = kindOf(crd);
        if (entry.crds.some((c) => kindOf(c.crd) === kind)) throw new Error(`gen-ecosystem-crds: ${kind} in ${group} comes from two sources`);
        entry.crds.push({ source, crd });
        groups.set(group, entry);
      }
    }
  }
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const index: Record<string, string[]> = {};
  for (const group of [...groups.keys()].sort()) {
    const entry = groups.get(group)!;
    entry.crds.sort((a, b) => (kindOf(a.crd) < kindOf(b.crd) ? -1 : 1));
    index[group] = entry.crds.map((c) => kindOf(c.crd));
    // Each CRD with the index of its source; one line per CRD: small diffs when a release changes one kind.
    const text = `{"group":${JSON.stringify(group)},"sources":${JSON.stringify(entry.sources)},"crds":[\n${entry.crds.map((c) => JSON.stringify(c)).join(',\n')}\n]}\n`;
    fs.writeFileSync(path.join(OUT, `${group}.json`), text);
  }
  // The groups and kinds, read without loading any schema.
  fs.writeFileSync(path.join(OUT, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
  for (const [group, kinds] of Object.entries(index)) process.stdout.write(`${group}: ${kinds.join(', ')}\n`);
}

if (require.main === module) main();
