// Generates imports/k8s/core-types.json from the type metadata of @kubernetes/client-node
// (each model's attributeTypeMap for names and types; its declaration file for which
// properties are required). Run with plain node (the package is ESM-only):
//   npx projen gen:core-types
// The output is data: a compact type table that lib/schema/core.ts turns into structural
// schema (for CRDs that embed core types) and lib/validation uses for built-in kinds.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
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
  V1Overhead: ['podFixed'],
  V1RuntimeClass: [],
  V1CSIStorageCapacity: ['capacity', 'maximumVolumeSize'],
};
// RuntimeClass overhead is a map of quantities too.
QUANTITY_FIELDS.V1Overhead = ['podFixed'];

// List semantics that the Kubernetes Go types declare and controller-gen carries into
// CRDs that embed them (server-side apply merges these lists by key).
const LIST_MAPS = {
  V1Container: { ports: ['containerPort', 'protocol'] },
  V1EphemeralContainer: { ports: ['containerPort', 'protocol'] },
  V1PodSpec: { hostAliases: ['ip'], resourceClaims: ['name'], schedulingGates: ['name'] },
  V1TopologySpreadConstraint: {},
};

// Defaults the Kubernetes Go types declare on list-map keys (a structural schema needs a
// list-map key to be required or defaulted).
const DEFAULTS = {
  V1ContainerPort: { protocol: 'TCP' },
  V1ServicePort: { protocol: 'TCP' },
  V1EndpointPort: { protocol: 'TCP' },
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
      if (!/^[A-Z][A-Za-z0-9]*$/.test(t)) throw new Error(`unknown client-node type ${t} at ${owner}.${field}`);
      return t;
  }
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

const types = {};
for (const [name, value] of Object.entries(k8s).sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (typeof value !== 'function' || !Array.isArray(value.attributeTypeMap)) continue;
  if (!/^(V\d|Core|Storage|Events|Discovery|Authentication|Rbac|Flowcontrol|Admissionregistration|Apiextensions|Resource)/.test(name)) continue;
  const props = {};
  for (const a of value.attributeTypeMap) props[a.baseName] = mapType(a.type, a.format, name, a.name);
  const baseNames = new Map(value.attributeTypeMap.map((a) => [a.name, a.baseName]));
  const required = requiredOf(name).map((n) => baseNames.get(n) ?? n).sort();
  const entry = { properties: props };
  if (required.length) entry.required = required;
  if (DEFAULTS[name]) entry.defaults = DEFAULTS[name];
  if (LIST_MAPS[name] && Object.keys(LIST_MAPS[name]).length) entry.listMapKeys = LIST_MAPS[name];
  types[name] = entry;
}

const out = {
  generatedBy: 'scripts/gen-core-types.mjs (npx projen gen:core-types); do not edit',
  source: `@kubernetes/client-node ${pkg.version}`,
  types,
};
const target = join(process.cwd(), 'imports', 'k8s', 'core-types.json');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, JSON.stringify(out, null, 0).replace(/\},"/g, '},\n"') + '\n');
console.log(`wrote ${Object.keys(types).length} types to ${target}`);
