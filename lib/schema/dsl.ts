import { JSONSchemaProps, ValidationRule } from './types';

/**
 * Collects named TypeScript declarations while schemas are rendered as types
 * (see lib/schema/typegen.ts). A named schema is declared once and referenced by name.
 */
export interface TypeContext {
  /** Declares `name` (once) with the body the callback renders; returns the name. */
  declare(name: string, render: () => string): string;
}

interface Common {
  description?: string;
  default?: unknown;
  nullable?: boolean;
  rules?: ValidationRule[];
  required?: boolean;
  /** A name for the generated TypeScript type (objects only). */
  typeName?: string;
}

/** Rendered schemas by node (nodes are immutable, so a node renders to the same tree every time). */
const rendered = new WeakMap<Schema, JSONSchemaProps>();
/** The trees toSharedJson rendered (never changed after), for renderers that copy each once (lib/crd.ts). */
const renderedTrees = new WeakSet<object>();

/**
 * The trees toSharedJson rendered, by content (contentKey): nodes that render the same content
 * (`s.string()` written in many places, a core type refined the same way twice) share one tree.
 * opendatahub's CRDs: ~7,100 rendered trees of ~1,600 contents. Each tree's number (its
 * position) stands for it in the keys of the trees that embed it.
 */
const byContent = new Map<string, JSONSchemaProps>();
const treeNumbers = new WeakMap<object, number>();

/** Thrown by contentKey on a value it cannot key by content (not JSON data): such a tree is not merged. */
const NO_KEY = new Error('no content key');

/**
 * A key of a rendered tree's content: JSON-like text of its own fields, with the number of each
 * tree it embeds (already rendered, so already numbered) in its place. Values JSON would write
 * alike (NaN and null, -0 and 0) get different keys; a value other than JSON data has none.
 */
function contentKey(v: unknown): string {
  switch (typeof v) {
    case 'string': return JSON.stringify(v);
    case 'number': return Object.is(v, -0) ? 'n-0' : `n${v}`;
    case 'boolean': return v ? 'true' : 'false';
    case 'undefined': return 'u';
    case 'object': break;
    default: throw NO_KEY;
  }
  if (v === null) return 'null';
  const n = treeNumbers.get(v);
  if (n !== undefined) return `#${n}`;
  const proto = Object.getPrototypeOf(v);
  if (proto === Array.prototype) {
    const a = v as unknown[];
    let out = '[';
    for (let i = 0; i < a.length; i++) out += `${i ? ',' : ''}${i in a ? contentKey(a[i]) : 'hole'}`;
    return `${out}]`;
  }
  if (proto !== Object.prototype) throw NO_KEY;
  let out = '{';
  for (const k of Object.keys(v)) out += `${JSON.stringify(k)}:${contentKey((v as Record<string, unknown>)[k])},`;
  return `${out}}`;
}

/** Whether a value is a tree `Schema#toSharedJson` rendered (read only, shared). @internal */
export function isSharedSchemaJson(v: object): boolean {
  return renderedTrees.has(v);
}

/** A deep copy of JSON data, keys in the same order. */
function copyJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = copyJson(x);
  return out as T;
}

/**
 * A node of a structural schema. Nodes are immutable: every modifier returns a copy,
 * so a schema can be shared between CRDs and versions and refined where it is used.
 */
export abstract class Schema {
  /** @internal */
  protected c: Common = {};

  /** Whether the enclosing object lists this property as required. */
  public get isRequired(): boolean {
    return this.c.required === true;
  }

  /** Marks this property as required by its enclosing object. */
  public required(): this {
    return this.with({ required: true });
  }

  /** Marks this property as optional (undoes `required()`, e.g. on a shared definition). */
  public optional(): this {
    return this.with({ required: false });
  }

  /** Our own one-line description of the field. */
  public describe(description: string): this {
    return this.with({ description });
  }

  /** The value the API server fills in when the field is absent. */
  public default(value: unknown): this {
    return this.with({ default: value });
  }

  public nullable(): this {
    return this.with({ nullable: true });
  }

  /** Adds a CEL rule (x-kubernetes-validations) on this node. */
  public rule(rule: string, message: string, opts: Omit<ValidationRule, 'rule' | 'message'> = {}): this {
    return this.with({ rules: [...(this.c.rules ?? []), { rule, message, ...opts }] });
  }

  /** The CEL rules on this node. */
  public get rules(): readonly ValidationRule[] {
    return this.c.rules ?? [];
  }

  /** Renders the structural schema of this node (a fresh tree the caller may change). */
  public toJson(): JSONSchemaProps {
    return copyJson(this.toSharedJson());
  }

  /**
   * The structural schema of this node, rendered once per node and shared: subtrees
   * (e.g. a core PodSpec) appear in many CRDs and versions. Read it, never change it;
   * callers that keep or change the tree take `toJson()`. @internal
   */
  public toSharedJson(): JSONSchemaProps {
    let out = rendered.get(this);
    if (out) return out;
    out = this.render();
    if (this.c.description !== undefined) out.description = this.c.description;
    if (this.c.default !== undefined) out.default = this.c.default;
    if (this.c.nullable) out.nullable = true;
    if (this.c.rules?.length) out['x-kubernetes-validations'] = this.c.rules.map((r) => ({ ...r }));
    // One copy, keys sorted, fields left unset (undefined) left out.
    out = sortedDefined(out);
    let key: string | undefined;
    try {
      key = contentKey(out);
    } catch (e) {
      if (e !== NO_KEY) throw e;
    }
    const same = key === undefined ? undefined : byContent.get(key);
    if (same) {
      rendered.set(this, same);
      return same;
    }
    if (key !== undefined) {
      byContent.set(key, out);
      treeNumbers.set(out, byContent.size);
    }
    rendered.set(this, out);
    renderedTrees.add(out);
    return out;
  }

  /** Renders this node as a TypeScript type expression. */
  public abstract tsType(ctx: TypeContext): string;

  protected abstract render(): JSONSchemaProps;

  protected with(patch: Partial<Common>): this {
    const copy = Object.create(Object.getPrototypeOf(this));
    Object.assign(copy, this);
    copy.c = { ...this.c, ...patch };
    return copy;
  }
}

export interface StringOptions {
  readonly enum?: readonly string[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}

export class StringSchema extends Schema {
  constructor(private readonly o: StringOptions = {}) {
    super();
  }
  public get options(): StringOptions {
    return this.o;
  }
  public tsType(): string {
    return this.o.enum?.length ? this.o.enum.map((e) => JSON.stringify(e)).join(' | ') : 'string';
  }
  protected render(): JSONSchemaProps {
    return {
      type: 'string',
      format: this.o.format,
      enum: this.o.enum ? [...this.o.enum] : undefined,
      pattern: this.o.pattern,
      minLength: this.o.minLength,
      maxLength: this.o.maxLength,
    };
  }
}

export interface NumberOptions {
  readonly format?: 'int32' | 'int64' | 'double' | 'float';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly multipleOf?: number;
  readonly enum?: readonly number[];
}

export class NumberSchema extends Schema {
  constructor(private readonly kind: 'integer' | 'number', private readonly o: NumberOptions = {}) {
    super();
  }
  public tsType(): string {
    return this.o.enum?.length ? this.o.enum.join(' | ') : 'number';
  }
  protected render(): JSONSchemaProps {
    return {
      type: this.kind,
      format: this.o.format,
      minimum: this.o.minimum,
      maximum: this.o.maximum,
      exclusiveMinimum: this.o.exclusiveMinimum,
      exclusiveMaximum: this.o.exclusiveMaximum,
      multipleOf: this.o.multipleOf,
      enum: this.o.enum ? [...this.o.enum] : undefined,
    };
  }
}

export class BooleanSchema extends Schema {
  public tsType(): string {
    return 'boolean';
  }
  protected render(): JSONSchemaProps {
    return { type: 'boolean' };
  }
}

/** x-kubernetes-int-or-string, optionally with a pattern for the string form. */
export class IntOrStringSchema extends Schema {
  constructor(private readonly o: { pattern?: string } = {}) {
    super();
  }
  public tsType(): string {
    return 'number | string';
  }
  protected render(): JSONSchemaProps {
    return {
      'anyOf': [{ type: 'integer' }, { type: 'string' }] as JSONSchemaProps[],
      'x-kubernetes-int-or-string': true,
      'pattern': this.o.pattern,
    };
  }
}

/** The pattern the API server uses for resource.Quantity. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

export interface ArrayOptions {
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
  readonly minItems?: number;
  readonly maxItems?: number;
}

export class ArraySchema extends Schema {
  constructor(public readonly items: Schema, private readonly o: ArrayOptions = {}) {
    super();
    if (o.listMapKeys && o.listType !== 'map') {
      throw new Error(`listMapKeys [${o.listMapKeys.join(', ')}] needs listType 'map' (got ${o.listType ?? 'none'})`);
    }
  }
  public get options(): ArrayOptions {
    return this.o;
  }
  public tsType(ctx: TypeContext): string {
    const inner = this.items.tsType(ctx);
    return /^[\w.]+$/.test(inner) ? `${inner}[]` : `Array<${inner}>`;
  }
  protected render(): JSONSchemaProps {
    return {
      'type': 'array',
      'items': this.items.toSharedJson(),
      'minItems': this.o.minItems,
      'maxItems': this.o.maxItems,
      'x-kubernetes-list-type': this.o.listType,
      'x-kubernetes-list-map-keys': this.o.listMapKeys ? [...this.o.listMapKeys] : undefined,
    };
  }
}

export interface ObjectOptions {
  /** x-kubernetes-preserve-unknown-fields: keep fields the schema does not list. */
  readonly preserveUnknownFields?: boolean;
  /** x-kubernetes-embedded-resource: the object is a whole Kubernetes object. */
  readonly embeddedResource?: boolean;
  readonly mapType?: 'atomic' | 'granular';
  readonly minProperties?: number;
  readonly maxProperties?: number;
  /**
   * Marks this object as a core Kubernetes type (set by `s.core`), with the fields
   * that the embedding type adds. Informational: used by reports and outline diffs.
   */
  readonly coreType?: string;
  readonly coreExtra?: readonly string[];
}

export type Properties = Record<string, Schema>;

export class ObjectSchema extends Schema {
  constructor(private readonly props: Properties, private readonly o: ObjectOptions = {}) {
    super();
  }

  public get properties(): Readonly<Properties> {
    return this.props;
  }

  public get options(): ObjectOptions {
    return this.o;
  }

  /** Names the generated TypeScript interface for this object. */
  public named(typeName: string): this {
    return this.with({ typeName });
  }

  public get typeName(): string | undefined {
    return this.c.typeName;
  }

  /** A copy with more (or replaced) properties, like an inlined Go struct. */
  public extend(more: Properties, opts: ObjectOptions = {}): ObjectSchema {
    return this.derived({ ...this.props, ...more }, { ...this.o, ...opts });
  }

  /** A copy without the given properties. */
  public omit(...keys: string[]): ObjectSchema {
    for (const k of keys) {
      if (!(k in this.props)) throw new Error(`omit: no property '${k}' (has ${Object.keys(this.props).sort().join(', ')})`);
    }
    return this.derived(Object.fromEntries(Object.entries(this.props).filter(([k]) => !keys.includes(k))), this.o);
  }

  /** A copy in which no property is required (e.g. a core type inlined into another). */
  public allOptional(): ObjectSchema {
    return this.derived(Object.fromEntries(Object.entries(this.props).map(([k, v]) => [k, v.optional()])), this.o);
  }

  /** A new object node of these properties and options, with this one's common settings but not its type name. */
  private derived(props: Properties, opts: ObjectOptions): ObjectSchema {
    const copy = new ObjectSchema(props, opts);
    copy.c = { ...this.c, typeName: undefined };
    return copy;
  }

  public tsType(ctx: TypeContext): string {
    const body = (): string => {
      const keys = Object.keys(this.props).sort();
      const lines = keys.map((k) => {
        const p = this.props[k];
        const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
        return `${key}${p.isRequired ? '' : '?'}: ${p.tsType(ctx)};`;
      });
      if (this.o.preserveUnknownFields || this.o.embeddedResource) lines.push('[key: string]: unknown;');
      return lines.length ? `{ ${lines.join(' ')} }` : '{ [key: string]: unknown }';
    };
    return this.c.typeName ? ctx.declare(this.c.typeName, body) : body();
  }

  protected render(): JSONSchemaProps {
    const keys = Object.keys(this.props).sort();
    const required = keys.filter((k) => this.props[k].isRequired);
    return {
      'type': 'object',
      'properties': keys.length ? Object.fromEntries(keys.map((k) => [k, this.props[k].toSharedJson()])) : undefined,
      'required': required.length ? required : undefined,
      'minProperties': this.o.minProperties,
      'maxProperties': this.o.maxProperties,
      'x-kubernetes-preserve-unknown-fields': this.o.preserveUnknownFields || undefined,
      'x-kubernetes-embedded-resource': this.o.embeddedResource || undefined,
      'x-kubernetes-map-type': this.o.mapType,
    };
  }
}

/** An object with arbitrary keys whose values share one schema (additionalProperties). */
export class MapSchema extends Schema {
  constructor(public readonly values: Schema, private readonly o: { mapType?: 'atomic' | 'granular'; minProperties?: number; maxProperties?: number } = {}) {
    super();
  }
  public tsType(ctx: TypeContext): string {
    return `{ [key: string]: ${this.values.tsType(ctx)} }`;
  }
  protected render(): JSONSchemaProps {
    return {
      'type': 'object',
      'additionalProperties': this.values.toSharedJson(),
      'minProperties': this.o.minProperties,
      'maxProperties': this.o.maxProperties,
      'x-kubernetes-map-type': this.o.mapType,
    };
  }
}

/** A deliberately open value: any JSON, kept as it is (x-kubernetes-preserve-unknown-fields). */
export class AnySchema extends Schema {
  constructor(private readonly asObject: boolean) {
    super();
  }
  public tsType(): string {
    return this.asObject ? '{ [key: string]: unknown }' : 'unknown';
  }
  protected render(): JSONSchemaProps {
    return this.asObject
      ? { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true }
      : { 'x-kubernetes-preserve-unknown-fields': true };
  }
}

/**
 * A copy of a rendered node with its keys sorted (output is deterministic and diffs stay
 * small) and without the fields a node left unset (undefined), built in one pass: render()
 * lists every field, set or not, and this copy is the only one made of it.
 */
function sortedDefined(o: JSONSchemaProps): JSONSchemaProps {
  const byKey = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(byKey).sort()) {
    const v = byKey[k];
    if (v !== undefined) out[k] = v;
  }
  return out as JSONSchemaProps;
}

/**
 * The schema DSL. Compose structural schemas in upstream vocabulary:
 *
 *   s.object({ name: s.string({ maxLength: 63 }).required(), replicas: s.int32({ minimum: 0 }) })
 */
export const s = {
  string: (o: StringOptions = {}) => new StringSchema(o),
  enum: (...values: string[]) => new StringSchema({ enum: values }),
  dateTime: () => new StringSchema({ format: 'date-time' }),
  integer: (o: NumberOptions = {}) => new NumberSchema('integer', o),
  int32: (o: Omit<NumberOptions, 'format'> = {}) => new NumberSchema('integer', { ...o, format: 'int32' }),
  int64: (o: Omit<NumberOptions, 'format'> = {}) => new NumberSchema('integer', { ...o, format: 'int64' }),
  number: (o: NumberOptions = {}) => new NumberSchema('number', o),
  boolean: () => new BooleanSchema(),
  intOrString: (o: { pattern?: string } = {}) => new IntOrStringSchema(o),
  /** resource.Quantity: int-or-string with the quantity pattern. */
  quantity: () => new IntOrStringSchema({ pattern: QUANTITY_PATTERN }),
  array: (items: Schema, o: ArrayOptions = {}) => new ArraySchema(items, o),
  object: (props: Properties = {}, o: ObjectOptions = {}) => new ObjectSchema(props, o),
  map: (values: Schema, o: { mapType?: 'atomic' | 'granular'; minProperties?: number; maxProperties?: number } = {}) => new MapSchema(values, o),
  stringMap: () => new MapSchema(new StringSchema()),
  /** Any JSON value, kept as given. */
  any: () => new AnySchema(false),
  /** Any JSON object, kept as given (type: object + preserve-unknown-fields). */
  openObject: () => new AnySchema(true),
  /** A whole Kubernetes object (x-kubernetes-embedded-resource). */
  embeddedResource: (o: { preserveUnknownFields?: boolean } = { preserveUnknownFields: true }) =>
    new ObjectSchema({}, { embeddedResource: true, preserveUnknownFields: o.preserveUnknownFields }),
};
