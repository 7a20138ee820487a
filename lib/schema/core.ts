import { ArraySchema, MapSchema, ObjectOptions, ObjectSchema, Properties, s, Schema } from './dsl';
import coreTypes from '../../imports/k8s/core-types.json';

/** One entry of the generated core type table (imports/k8s/core-types.json). */
export interface CoreTypeEntry {
  /** Field -> type string: `string`, `integer:int32`, `quantity`, `[]V1Container`, `map[string]`, a model name, ... */
  readonly properties: Record<string, string>;
  readonly required?: string[];
  /** Fields that are list maps (x-kubernetes-list-type: map), with their keys. */
  readonly listMapKeys?: Record<string, string[]>;
  /** Fields that are atomic lists or sets (x-kubernetes-list-type). */
  readonly listTypes?: Record<string, 'atomic' | 'set'>;
  /** Map fields (map[string]...) that are atomic (Go's +mapType=atomic on the field). */
  readonly mapTypes?: Record<string, 'atomic' | 'granular'>;
  /** x-kubernetes-map-type of the struct (`atomic` for Go's +structType=atomic). */
  readonly mapType?: 'atomic' | 'granular';
  readonly defaults?: Record<string, unknown>;
}

const TABLE = (coreTypes as unknown as { types: Record<string, CoreTypeEntry> }).types;

/** The names of all core Kubernetes types in the generated table. */
export function coreTypeNames(): string[] {
  return Object.keys(TABLE);
}

/** The table entry of a core type, or an error naming the closest names. */
/** Whether `name` is a core Kubernetes type of the table (V1PodSpec, ...). */
export function isCoreType(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(TABLE, name);
}

export function coreTypeEntry(name: string): CoreTypeEntry {
  const entry = TABLE[name];
  if (!entry) {
    const near = Object.keys(TABLE).filter((n) => n.toLowerCase().includes(name.replace(/^V\d\w*?(?=[A-Z])/, '').toLowerCase())).slice(0, 5);
    throw new Error(`unknown core Kubernetes type '${name}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; names follow @kubernetes/client-node, e.g. V1PodSpec`);
  }
  return entry;
}

/**
 * Metadata of an object embedded in another (a pod template, a claim template). We keep
 * the fields a user sets, rather than an empty object that would prune them.
 */
const EMBEDDED_METADATA = s.object({
  name: s.string(),
  namespace: s.string(),
  generateName: s.string(),
  labels: s.stringMap(),
  annotations: s.stringMap(),
  finalizers: s.array(s.string()),
});

const coreCache = new Map<string, ObjectSchema>();
const plainCache = new Map<string, ObjectSchema>();

/**
 * The structural schema of a core Kubernetes type, generated from the type table,
 * e.g. `core('V1PodSpec')`. Required fields are those of the Kubernetes API; list types,
 * list-map keys, atomic structs and defaults are those controller-gen renders for the type.
 * The result is marked as the core type (see ObjectOptions.coreType).
 */
export function core(name: string): ObjectSchema {
  return build(name, [], false);
}

/**
 * The fields of a core type as a plain object: the same structural schema as `core(name)`
 * (required fields, list and map types, defaults), without the core-type marker, at every
 * level. Use it where an upstream CRD outline spells the type out field by field rather
 * than as a core type (e.g. KServe's tolerations, deployment strategy and HPA behavior).
 *
 * `overrides` replaces fields (each must be a field of the type). The top-level object is
 * unnamed (name it with `.named(...)`); nested objects keep the core type names, whose
 * TypeScript bodies are the same as the core types'.
 */
export function plainCore(name: string, overrides: Properties = {}): ObjectSchema {
  const base = build(name, [], true);
  const unknown = Object.keys(overrides).filter((k) => !(k in base.properties));
  if (unknown.length) {
    throw new Error(`plainCore('${name}'): no field ${unknown.join(', ')} to override (has ${Object.keys(base.properties).sort().join(', ')})`);
  }
  return base.extend(overrides);
}

function build(name: string, stack: string[], plain: boolean): ObjectSchema {
  const cache = plain ? plainCache : coreCache;
  const hit = cache.get(name);
  if (hit) return hit;
  const entry = coreTypeEntry(name);
  const marker: ObjectOptions = plain ? {} : { coreType: name };
  if (stack.includes(name)) {
    // Recursive types (JSONSchemaProps) are left open rather than expanded forever.
    return s.object({}, { preserveUnknownFields: true, ...marker });
  }
  const next = [...stack, name];
  const props: Record<string, Schema> = {};
  for (const [field, type] of Object.entries(entry.properties)) {
    let node = field === 'metadata' && type === 'V1ObjectMeta' ? EMBEDDED_METADATA : fromType(type, next, plain);
    const keys = entry.listMapKeys?.[field];
    const listType = entry.listTypes?.[field];
    if (node instanceof ArraySchema && (keys || listType)) {
      node = s.array(node.items, keys ? { listType: 'map', listMapKeys: keys } : { listType });
    }
    const mapType = entry.mapTypes?.[field];
    if (node instanceof MapSchema && mapType) node = s.map(node.values, { mapType });
    if (entry.defaults && field in entry.defaults) node = node.default(entry.defaults[field]);
    if (entry.required?.includes(field)) node = node.required();
    props[field] = node;
  }
  const schema = s.object(props, { ...marker, ...(entry.mapType ? { mapType: entry.mapType } : {}) }).named(name);
  cache.set(name, schema);
  return schema;
}

function fromType(type: string, stack: string[], plain: boolean): Schema {
  if (type.startsWith('[]')) return s.array(fromType(type.slice(2), stack, plain));
  if (type.startsWith('map[')) return s.map(fromType(type.slice(4, -1), stack, plain));
  switch (type) {
    case 'string': return s.string();
    case 'string:byte': return s.string({ format: 'byte' });
    case 'string:date-time': return s.dateTime();
    case 'integer:int32': return s.int32();
    case 'integer:int64': return s.int64();
    case 'boolean': return s.boolean();
    case 'int-or-string': return s.intOrString();
    case 'quantity': return s.quantity();
    case 'any': return s.any();
    default:
      if (type.startsWith('number:')) return s.number({ format: type.slice(7) as 'double' });
      return build(type, stack, plain);
  }
}

/**
 * A core type inlined into another type, as Go does with an embedded struct
 * (`json:",inline"`), plus the fields the embedding type adds. The core type's own
 * required fields are dropped, as upstream CRDs do for inlined pod specs and containers
 * (a user sets `model:` without naming a container).
 */
export function coreInline(name: string, extra: Record<string, Schema>, opts: { keepRequired?: boolean } = {}): ObjectSchema {
  const base = opts.keepRequired ? core(name) : core(name).allOptional();
  return base.extend(extra, { coreType: name, coreExtra: Object.keys(extra).sort() });
}
