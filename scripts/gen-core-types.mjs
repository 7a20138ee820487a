// Generates imports/k8s/core-types.json from the type metadata of @kubernetes/client-node
// (each model's attributeTypeMap for names and types; its declaration file for which
// properties are required). Run with plain node (the package is ESM-only):
//   npx projen gen:core-types
// The output is data: a compact type table that lib/schema/core.ts turns into structural
// schema (for CRDs that embed core types) and lib/validation uses for built-in kinds.
// Each entry: `properties` (field -> type string), `required`, and from the overlays below
// (facts of the Go types that client-node's metadata loses): `defaults`, `listMapKeys`,
// `listTypes` (field -> atomic | set) and `mapType` (atomic structs).
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('@kubernetes/client-node/package.json'));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const modelsDir = join(pkgDir, 'dist', 'gen', 'models');
// The generated models only: the package entry point pulls in an HTTP stack that this
// generator does not need.
const k8s = await import(pathToFileURL(join(modelsDir, 'all.js')).href);

// The Kubernetes API types these fields as resource.Quantity (int-or-string with the
// quantity pattern); client-node's metadata flattens them to string.
const QUANTITY_FIELDS = {
  V1ResourceRequirements: ['limits', 'requests'],
  V1VolumeResourceRequirements: ['limits', 'requests'],
  V1EmptyDirVolumeSource: ['sizeLimit'],
  V1ResourceFieldSelector: ['divisor'],
  V1PersistentVolumeSpec: ['capacity'],
  V1PersistentVolumeClaimStatus: ['capacity', 'allocatedResources'],
  V1LimitRangeItem: ['default', 'defaultRequest', 'max', 'maxLimitRequestRatio', 'min'],
  V1ResourceQuotaSpec: ['hard'],
  V1ResourceQuotaStatus: ['hard', 'used'],
  V1NodeStatus: ['allocatable', 'capacity'],
  V1ContainerStatus: ['allocatedResources'],
  // RuntimeClass overhead is a map of quantities too.
  V1Overhead: ['podFixed'],
  V1CSIStorageCapacity: ['capacity', 'maximumVolumeSize'],
  // autoscaling/v2 HPAScalingRules.Tolerance is a *resource.Quantity (KServe's CRDs embed it).
  V2HPAScalingRules: ['tolerance'],
  // Pod overhead (RuntimeClass fills it in) and metric targets are quantities too.
  V1PodSpec: ['overhead'],
  V2MetricTarget: ['value', 'averageValue'],
};

// List semantics that the Kubernetes Go types declare and controller-gen carries into
// CRDs that embed them (server-side apply merges these lists by key).
const LIST_MAPS = {
  V1Container: { ports: ['containerPort', 'protocol'] },
  V1EphemeralContainer: { ports: ['containerPort', 'protocol'] },
  V1PodSpec: { hostAliases: ['ip'], resourceClaims: ['name'], schedulingGates: ['name'] },
  // ResourceRequirements.Claims: +listType=map +listMapKey=name (KServe, KubeRay, Trainer
  // and Model Registry outlines show resources.claims as a map list keyed by name).
  V1ResourceRequirements: { claims: ['name'] },
};

// Other list semantics (+listType=atomic or set) of the Kubernetes Go types. client-node's
// metadata drops them; controller-gen renders them as x-kubernetes-list-type, and the upstream
// outlines of CRDs that spell these types out field by field show them.
const LIST_TYPES = {
  // HPA behavior (KServe autoscaling, KEDA advanced config).
  V2HPAScalingRules: { policies: 'atomic' },
  // metav1.LabelSelector (KFP, Kueue, MLflow, training-operator outlines).
  V1LabelSelector: { matchExpressions: 'atomic' },
  V1LabelSelectorRequirement: { values: 'atomic' },
  // Node affinity (+listType=atomic on the terms and their requirements).
  V1NodeSelector: { nodeSelectorTerms: 'atomic' },
  V1NodeSelectorTerm: { matchExpressions: 'atomic', matchFields: 'atomic' },
  V1NodeSelectorRequirement: { values: 'atomic' },
  // Pod DNS and host aliases (Spark operator outline).
  V1PodDNSConfig: { nameservers: 'atomic', options: 'atomic', searches: 'atomic' },
  V1HostAlias: { hostnames: 'atomic' },
  // Service status and Ingress TLS (KubeRay, Spark operator outlines).
  V1LoadBalancerStatus: { ingress: 'atomic' },
  V1LoadBalancerIngress: { ports: 'atomic' },
  V1IngressTLS: { hosts: 'atomic' },
  // NetworkPolicy rules (KubeRay, MLflow outlines).
  V1NetworkPolicyIngressRule: { from: 'atomic', ports: 'atomic' },
  V1NetworkPolicyEgressRule: { ports: 'atomic', to: 'atomic' },
};

// Structs the Kubernetes Go types mark +structType=atomic, which controller-gen renders as
// x-kubernetes-map-type: atomic (server-side apply replaces them whole). A struct that
// inlines LocalObjectReference carries its map type when controller-gen flattens it (the
// outlines show envFrom[].configMapRef/secretRef atomic, though ConfigMapEnvSource has no
// marker of its own); the volume sources and projections that inline it follow suit.
const MAP_TYPES = {
  V1LocalObjectReference: 'atomic',
  V1TypedLocalObjectReference: 'atomic',
  V1ObjectReference: 'atomic',
  V1ConfigMapKeySelector: 'atomic',
  V1SecretKeySelector: 'atomic',
  V1ConfigMapEnvSource: 'atomic',
  V1SecretEnvSource: 'atomic',
  V1ConfigMapVolumeSource: 'atomic',
  V1ConfigMapProjection: 'atomic',
  V1SecretProjection: 'atomic',
  V1LabelSelector: 'atomic',
  V1NodeSelector: 'atomic',
  V1NodeSelectorTerm: 'atomic',
  V1ScopeSelector: 'atomic',
};

// Defaults the Kubernetes Go types declare (+default) that client-node's metadata drops:
// on list-map keys (a structural schema needs a list-map key to be required or defaulted),
// and on object reference names.
const DEFAULTS = {
  V1ContainerPort: { protocol: 'TCP' },
  V1ServicePort: { protocol: 'TCP' },
  // LocalObjectReference.Name has +default="" (k8s >= 1.30, controller-gen >= 0.16), and so
  // has every struct that inlines it; upstream outlines show `name  string  default=""`.
  V1LocalObjectReference: { name: '' },
  V1ConfigMapKeySelector: { name: '' },
  V1SecretKeySelector: { name: '' },
  V1ConfigMapEnvSource: { name: '' },
  V1SecretEnvSource: { name: '' },
  V1ConfigMapVolumeSource: { name: '' },
  V1ConfigMapProjection: { name: '' },
  V1SecretProjection: { name: '' },
};

// The annotations the API server's own OpenAPI v3 carries (imports/k8s/core-openapi.json,
// written by scripts/fetch-core-openapi.ts from a real kube-apiserver): list types and
// list-map keys of fields, map types of structs. They apply to the client-node model of the
// same group, version and kind where that model has the field (client-node's field sets are
// the newer ones); the overlays above add what a newer Kubernetes declares.
const openapi = JSON.parse(readFileSync(join(process.cwd(), 'imports', 'k8s', 'core-openapi.json'), 'utf8'));
// The markers of the Go types of the release client-node is generated from
// (imports/k8s/core-markers.json, written by scripts/extract-core-markers.ts): list types,
// list-map keys, atomic structs and +default values, which the newer Kubernetes releases that
// upstream CRDs embed declare and the 1.28 OpenAPI lacks. They take precedence over the OpenAPI.
const markers = JSON.parse(readFileSync(join(process.cwd(), 'imports', 'k8s', 'core-markers.json'), 'utf8'));

/** The client-node model name of an OpenAPI definition, or undefined. */
function modelOf(def, models) {
  const m = /^io\.k8s\.(?:api\.([a-z0-9]+)|apimachinery\.pkg\.apis\.(meta))\.(v\d+(?:(?:alpha|beta)\d+)?)\.([A-Za-z0-9]+)$/.exec(def);
  if (!m) return undefined;
  const group = m[1] ?? m[2];
  const version = m[3][0].toUpperCase() + m[3].slice(1);
  const prefixed = group[0].toUpperCase() + group.slice(1) + version + m[4];
  if (models.has(prefixed)) return prefixed;
  return models.has(version + m[4]) ? version + m[4] : undefined;
}

// Type names client-node's metadata uses for scalars: metav1.MicroTime is an RFC 3339
// date-time string with microseconds (the API's OpenAPI says format: date-time, like Time).
const SCALAR_ALIASES = {
  V1MicroTime: 'string:date-time',
};

function mapType(t, format, owner, field) {
  const quantity = (QUANTITY_FIELDS[owner] ?? []).includes(field);
  let m;
  if ((m = /^Array<(.+)>$/.exec(t))) return '[]' + mapType(m[1], format, owner, field);
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(t))) return 'map[' + mapType(m[1], format, owner, field) + ']';
  switch (t) {
    case 'string':
      if (quantity) return 'quantity';
      if (format === 'byte') return 'string:byte';
      return 'string';
    case 'number':
      if (format === 'int32' || format === 'int64') return 'integer:' + format;
      return 'number:' + (format || 'double');
    case 'boolean':
      return 'boolean';
    case 'Date':
      return 'string:date-time';
    case 'IntOrString':
      return 'int-or-string';
    case 'any':
      return 'any';
    default:
      if (SCALAR_ALIASES[t]) return SCALAR_ALIASES[t];
      if (!/^[A-Z][A-Za-z0-9]*$/.test(t)) throw new Error(`unknown client-node type ${t} at ${owner}.${field}`);
      return t;
  }
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function requiredOf(model) {
  const file = join(modelsDir, `${model}.d.ts`);
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const req = [];
  src.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== model) return;
    for (const m of node.members) {
      if (!ts.isPropertyDeclaration(m) || m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
      const name = m.name.text ?? m.name.getText(src).replace(/^'|'$/g, '');
      if (!m.questionToken) req.push(name);
    }
  });
  return req;
}

const models = new Set(Object.keys(k8s));
const fromOpenapi = {};
for (const [def, a] of Object.entries(openapi.definitions)) {
  const model = modelOf(def, models);
  if (model) fromOpenapi[model] = a;
}
const fromMarkers = {};
for (const [def, a] of Object.entries(markers.definitions)) {
  const model = modelOf(def, models);
  if (!model) continue;
  // Markers name list-map lists in listTypes too: keep their keys only.
  const listTypes = Object.fromEntries(Object.entries(a.listTypes ?? {}).filter(([, t]) => t !== 'map'));
  fromMarkers[model] = { ...a, listTypes };
}

const types = {};
for (const [name, value] of Object.entries(k8s).sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (typeof value !== 'function' || !Array.isArray(value.attributeTypeMap)) continue;
  // Group-prefixed names are models whose plain name clashes across API groups
  // (ApiregistrationV1ServiceReference is what V1APIServiceSpec.service refers to).
  if (!/^(V\d|Core|Storage|Events|Discovery|Authentication|Rbac|Flowcontrol|Admissionregistration|Apiextensions|Apiregistration|Resource)/.test(name)) continue;
  const props = {};
  for (const a of value.attributeTypeMap) props[a.baseName] = mapType(a.type, a.format, name, a.name);
  const baseNames = new Map(value.attributeTypeMap.map((a) => [a.name, a.baseName]));
  const required = requiredOf(name).map((n) => baseNames.get(n) ?? n).sort();
  const entry = { properties: props };
  if (required.length) entry.required = required;
  const api = fromOpenapi[name] ?? {};
  const go = fromMarkers[name] ?? {};
  const isList = (f) => props[f]?.startsWith('[]');
  const pick = (table) => Object.fromEntries(Object.entries(table ?? {}).filter(([f]) => isList(f)));
  // A field's list semantics come from one source, the first that declares them.
  const listMapKeys = {};
  const listTypes = {};
  for (const src of [{ maps: api.listMapKeys, types: api.listTypes }, { maps: go.listMapKeys, types: go.listTypes }, { maps: LIST_MAPS[name], types: LIST_TYPES[name] }]) {
    for (const [f, keys] of Object.entries(pick(src.maps))) { listMapKeys[f] = keys; delete listTypes[f]; }
    for (const [f, t] of Object.entries(pick(src.types))) { listTypes[f] = t; delete listMapKeys[f]; }
  }
  const defaults = { ...Object.fromEntries(Object.entries(go.defaults ?? {}).filter(([f]) => f in props)), ...(DEFAULTS[name] ?? {}) };
  if (Object.keys(defaults).length) entry.defaults = sortKeys(defaults);
  if (Object.keys(listMapKeys).length) entry.listMapKeys = sortKeys(listMapKeys);
  if (Object.keys(listTypes).length) entry.listTypes = sortKeys(listTypes);
  const mapTypes = Object.fromEntries(Object.entries(go.mapTypes ?? {}).filter(([f]) => props[f]?.startsWith('map[')));
  if (Object.keys(mapTypes).length) entry.mapTypes = sortKeys(mapTypes);
  const mt = MAP_TYPES[name] ?? go.mapType ?? api.mapType;
  if (mt) entry.mapType = mt;
  types[name] = entry;
}

// Every overlay must name a model and fields that exist (and arrays where a list type is
// declared), so that a client-node upgrade that renames something fails here, not silently.
const overlays = { QUANTITY_FIELDS, LIST_MAPS, LIST_TYPES, DEFAULTS, MAP_TYPES };
for (const [overlay, table] of Object.entries(overlays)) {
  for (const [model, spec] of Object.entries(table)) {
    const entry = types[model];
    if (!entry) throw new Error(`${overlay}: unknown model ${model}`);
    const fields = Array.isArray(spec) ? spec : typeof spec === 'object' ? Object.keys(spec) : [];
    for (const f of fields) {
      const t = entry.properties[f];
      if (!t) throw new Error(`${overlay}: ${model} has no field ${f}`);
      if ((overlay === 'LIST_MAPS' || overlay === 'LIST_TYPES') && !t.startsWith('[]')) throw new Error(`${overlay}: ${model}.${f} is not a list (${t})`);
    }
  }
}
// Every type a field refers to must be defined in the table.
for (const [model, entry] of Object.entries(types)) {
  for (const [field, t] of Object.entries(entry.properties)) {
    const ref = t.replace(/^(\[\]|map\[)+/, '').replace(/\]+$/, '');
    if (/^[A-Z]/.test(ref) && !types[ref]) throw new Error(`${model}.${field} refers to ${ref}, which the table does not define`);
  }
}

const out = {
  generatedBy: 'scripts/gen-core-types.mjs (npx projen gen:core-types); do not edit',
  source: `@kubernetes/client-node ${pkg.version}; annotations from ${markers.source} and ${openapi.source}`,
  types,
};
const target = join(process.cwd(), 'imports', 'k8s', 'core-types.json');
const text = JSON.stringify(out, null, 0).replace(/\},"/g, '},\n"') + '\n';
if (process.argv.includes('--check')) {
  // Used by the test task: the committed table must match the installed client-node.
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) {
    console.error(`${target} is stale: run npx projen gen:core-types`);
    process.exit(1);
  }
  console.log(`up to date ${target} (${Object.keys(types).length} types)`);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${Object.keys(types).length} types to ${target}`);
}
