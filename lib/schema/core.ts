import coreTypes from '../../imports/k8s/core-types.json';
import { ArraySchema, ObjectSchema, s, Schema } from './dsl';

/** One entry of the generated core type table (imports/k8s/core-types.json). */
export interface CoreTypeEntry {
  readonly properties: Record<string, string>;
  readonly required?: string[];
  readonly listMapKeys?: Record<string, string[]>;
  readonly defaults?: Record<string, unknown>;
}

const TABLE = (coreTypes as unknown as { types: Record<string, CoreTypeEntry> }).types;

/** The names of all core Kubernetes types in the generated table. */
export function coreTypeNames(): string[] {
  return Object.keys(TABLE);
}

/** The table entry of a core type, or an error naming the closest names. */
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

const cache = new Map<string, ObjectSchema>();

/**
 * The structural schema of a core Kubernetes type, generated from the type table,
 * e.g. `core('V1PodSpec')`. Required fields are those of the Kubernetes API.
 */
export function core(name: string): ObjectSchema {
  return build(name, []);
}

function build(name: string, stack: string[]): ObjectSchema {
  const hit = cache.get(name);
  if (hit) return hit;
  const entry = coreTypeEntry(name);
  if (stack.includes(name)) {
    // Recursive types (JSONSchemaProps) are left open rather than expanded forever.
    return s.object({}, { preserveUnknownFields: true, coreType: name });
  }
  const next = [...stack, name];
  const props: Record<string, Schema> = {};
  for (const [field, type] of Object.entries(entry.properties)) {
    let node = field === 'metadata' && type === 'V1ObjectMeta' ? EMBEDDED_METADATA : fromType(type, next);
    const keys = entry.listMapKeys?.[field];
    if (keys && node instanceof ArraySchema) {
      node = s.array(node.items, { listType: 'map', listMapKeys: keys });
    }
    if (entry.defaults && field in entry.defaults) node = node.default(entry.defaults[field]);
    if (entry.required?.includes(field)) node = node.required();
    props[field] = node;
  }
  const schema = s.object(props, { coreType: name }).named(name);
  cache.set(name, schema);
  return schema;
}

function fromType(type: string, stack: string[]): Schema {
  if (type.startsWith('[]')) return s.array(fromType(type.slice(2), stack));
  if (type.startsWith('map[')) return s.map(fromType(type.slice(4, -1), stack));
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
      return build(type, stack);
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
