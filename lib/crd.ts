import { ApiObject, ApiObjectProps, App, ImplicitTokenResolver, Lazy, LazyResolver, NumberStringUnionResolver } from 'cdk8s';
import { Construct } from 'constructs';
import { isSharedSchemaJson, ObjectSchema, s } from './schema/dsl';
import { JSONSchemaProps } from './schema/types';
import { shareJson } from './subtree-sharing';

export enum CrdScope {
  NAMESPACED = 'Namespaced',
  CLUSTER = 'Cluster',
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  /** @default 0 */
  readonly priority?: number;
}

/** Printer columns that most CRDs share. */
export const PrinterColumns = {
  /** Age, from metadata.creationTimestamp. */
  age: (): PrinterColumn => ({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }),
  /** The status of the Ready condition. */
  ready: (): PrinterColumn => ({ name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" }),
  /** status.url */
  url: (): PrinterColumn => ({ name: 'URL', type: 'string', jsonPath: '.status.url' }),
};

export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface CrdVersion {
  /** e.g. v1beta1 */
  readonly name: string;
  /** @default true */
  readonly served?: boolean;
  /** Exactly one version of a CRD is the storage version. */
  readonly storage: boolean;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  /**
   * The object's top-level fields other than apiVersion, kind and metadata (which the
   * CRD adds): usually `spec` and `status`.
   */
  readonly schema: ObjectSchema;
  /** @default - none */
  readonly subresources?: { readonly status?: boolean; readonly scale?: ScaleSubresource };
  readonly printerColumns?: PrinterColumn[];
}

/** Conversion between served versions. */
export interface CrdConversion {
  readonly strategy: 'None' | 'Webhook';
  /** Path on the webhook server. @default /convert */
  readonly path?: string;
  /** @default ['v1'] */
  readonly conversionReviewVersions?: string[];
  /**
   * With strategy None, versions whose schemas differ: why upstream serves them so. The API
   * server accepts this and only rewrites apiVersion, so a field that the storage version
   * lacks is pruned when an object is written through another version. Say why that is
   * acceptable (e.g. a deprecated version kept for reading old objects).
   * @default - every version must have the same schema when strategy is None
   */
  readonly schemasDifferBecause?: string;
}

/**
 * A CRD as data: everything a platform needs to know about it without building it.
 * Components declare these in `provides`; `CustomResourceDefinition` renders one.
 */
export interface CrdDefinition {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  /** @default kind in lower case */
  readonly singular?: string;
  /** @default `${kind}List` */
  readonly listKind?: string;
  readonly shortNames?: string[];
  readonly categories?: string[];
  readonly scope: CrdScope;
  readonly versions: CrdVersion[];
  /** @default None */
  readonly conversion?: CrdConversion;
  /** Extra annotations on the CRD object (e.g. api-approved.kubernetes.io). */
  readonly annotations?: Record<string, string>;
}

/** group/version/kind of something a component owns or needs. */
export interface Gvk {
  readonly group: string;
  readonly version?: string;
  readonly kind: string;
}

export function crdName(def: Pick<CrdDefinition, 'plural' | 'group'>): string {
  return `${def.plural}.${def.group}`;
}

export function storageVersion(def: CrdDefinition): CrdVersion {
  return def.versions.find((v) => v.storage)!;
}

export function gvkKey(g: Gvk): string {
  return `${g.group}/${g.kind}`;
}

/** Where a CRD's conversion webhook is served: set by the component that owns the server. */
export interface ConversionWebhookTarget {
  readonly serviceName: string;
  readonly serviceNamespace: string;
  readonly port: number;
  readonly caBundle?: string;
  readonly annotations: Record<string, string>;
}

export interface CustomResourceDefinitionProps {
  readonly definition: CrdDefinition;
  /** Required when the definition's conversion strategy is Webhook. */
  readonly conversionWebhook?: ConversionWebhookTarget;
}

/**
 * A CustomResourceDefinition rendered from a `CrdDefinition`: structural schema from the
 * DSL, CEL rules, printer columns, subresources and conversion.
 */
export class CustomResourceDefinition extends Construct {
  public readonly definition: CrdDefinition;
  public readonly name: string;
  public readonly apiObject: ApiObject;
  private conversionWebhook?: ConversionWebhookTarget;

  constructor(scope: Construct, id: string, props: CustomResourceDefinitionProps) {
    super(scope, id);
    const def = props.definition;
    validateDefinition(this.node.path, def);
    this.definition = def;
    this.name = crdName(def);
    this.apiObject = new CrdApiObject(this, 'Resource', () => this.renderSpec(), {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {
        name: this.name,
        annotations: def.annotations ? { ...def.annotations } : undefined,
      },
    });
    if (props.conversionWebhook) this.useConversionWebhook(props.conversionWebhook);
    this.node.addValidation({
      validate: () =>
        (def.conversion?.strategy === 'Webhook' && !this.conversionWebhook
          ? [`CRD ${this.name} declares conversion strategy Webhook but no conversion webhook server is wired: pass conversionWebhook (a WebhookServer's conversionTarget())`]
          : []),
    });
  }

  /** Wires the conversion webhook (for components that create the server after the CRD). */
  public useConversionWebhook(target: ConversionWebhookTarget): void {
    if (this.definition.conversion?.strategy !== 'Webhook') {
      throw new Error(`${this.node.path}: CRD ${this.name} has conversion strategy ${this.definition.conversion?.strategy ?? 'None'}; a conversion webhook applies only to strategy Webhook`);
    }
    this.conversionWebhook = target;
    // cdk8s copies metadata, so annotations are added eagerly rather than lazily.
    for (const [k, v] of Object.entries(target.annotations)) this.apiObject.metadata.addAnnotation(k, v);
  }

  /** The openAPIV3Schema of one version, as emitted. */
  public schemaOf(version: string): JSONSchemaProps {
    const v = this.definition.versions.find((x) => x.name === version);
    if (!v) throw new Error(`CRD ${this.name} has no version ${version}`);
    return rootSchema(v.schema).toJson();
  }

  private renderSpec(): unknown {
    const def = this.definition;
    const spec: any = {
      group: def.group,
      names: dropEmpty({
        kind: def.kind,
        listKind: def.listKind ?? `${def.kind}List`,
        plural: def.plural,
        singular: def.singular ?? def.kind.toLowerCase(),
        shortNames: def.shortNames?.length ? def.shortNames : undefined,
        categories: def.categories?.length ? def.categories : undefined,
      }),
      scope: def.scope,
      versions: def.versions.map((v) =>
        dropEmpty({
          name: v.name,
          served: v.served ?? true,
          storage: v.storage,
          deprecated: v.deprecated || undefined,
          deprecationWarning: v.deprecationWarning,
          // Shared subtrees are fine here: cdk8s copies the spec when it resolves the object.
          schema: { openAPIV3Schema: rootSchema(v.schema).toSharedJson() },
          subresources: renderSubresources(v),
          additionalPrinterColumns: v.printerColumns?.length ? v.printerColumns.map((c) => dropEmpty({ ...c })) : undefined,
        }),
      ),
    };
    if (def.conversion?.strategy === 'Webhook' && this.conversionWebhook) {
      const w = this.conversionWebhook;
      spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: dropEmpty({
            service: { name: w.serviceName, namespace: w.serviceNamespace, path: def.conversion.path ?? '/convert', port: w.port },
            caBundle: w.caBundle,
          }),
          conversionReviewVersions: def.conversion.conversionReviewVersions ?? ['v1'],
        },
      };
    }
    return spec;
  }
}

/**
 * The ApiObject of a CustomResourceDefinition. Its JSON is the same as cdk8s's toJson gives;
 * only the way there is shorter. cdk8s resolves every value of an object (a resolution context,
 * a key path and a walk up the construct tree to the App per value), then copies it again to
 * sort keys and drop null values; a CRD's spec is plain data from its definition (schemas of
 * thousands of nodes, megabytes in all), so that is most of the time spent turning a platform's
 * objects into JSON. For plain data with the App's built-in resolvers only, cdk8s's resolve
 * replaces nothing and copies, and its sanitizeValue then copies with sorted keys, without
 * null and undefined values in objects and with undefined for null in arrays; plainSorted does
 * the same in one copy. Anything else (a resolver the app adds, a value that is not plain data,
 * a JSON patch, CDK8S_DISABLE_SORT) takes cdk8s's own toJson.
 */
class CrdApiObject extends ApiObject {
  constructor(scope: Construct, id: string, private readonly spec: () => unknown, props: ApiObjectProps) {
    super(scope, id, { ...props, spec: Lazy.any({ produce: spec }) });
  }

  public toJson(): any {
    return onePassJson(this, () => plainSorted({ apiVersion: this.apiVersion, kind: this.kind, metadata: this.metadata.toJson(), spec: this.spec() }), () => super.toJson());
  }
}

/**
 * An object's JSON, as its toJson gives it, for the synth's path (lib/platform.ts). A plain
 * ApiObject (the class itself: a subclass, a cdk8s-plus binding or CrdApiObject, may write its
 * JSON otherwise and uses its own toJson) whose props and metadata are plain data takes
 * CrdApiObject's one copy (plainSorted, above: what cdk8s's resolve and sanitizeValue give
 * for plain data), its shared schema subtrees copied too, not shared (a customization's JSON
 * patch may change the object); anything else, as there, takes cdk8s's toJson.
 */
export function objectJson(obj: ApiObject): any {
  if (obj.constructor !== ApiObject) return obj.toJson();
  return onePassJson(obj, () => plainSorted({ ...(obj as unknown as { readonly props: ApiObjectProps }).props, metadata: obj.metadata.toJson() }, false, false), () => obj.toJson());
}

/**
 * An object's JSON from `plain` (its props copied by plainSorted), apiVersion, kind and
 * metadata first as cdk8s orders them; cdk8s's own toJson (`fallback`) where the one copy
 * would not give the same: CDK8S_DISABLE_SORT, a JSON patch, a resolver the app adds, a value
 * that is not plain data.
 */
function onePassJson(obj: ApiObject, plain: () => any, fallback: () => any): any {
  const patches = (obj as unknown as { readonly patches: readonly unknown[] }).patches;
  if (process.env.CDK8S_DISABLE_SORT || patches.length || !builtInResolversOnly(App.of(obj))) return fallback();
  let json: any;
  try {
    json = plain();
  } catch (e) {
    if (e === NOT_PLAIN) return fallback();
    // As cdk8s reports an error of toJson.
    throw new Error(`Failed serializing construct at path '${obj.node.path}' with name '${obj.name}': ${e}`);
  }
  const result: any = {};
  for (const k of ['apiVersion', 'kind', 'metadata', ...Object.keys(json)]) if (k in json) result[k] = json[k];
  return result;
}

/** Whether an App resolves with cdk8s's built-in resolvers only (in their order). */
function builtInResolversOnly(app: App): boolean {
  const r: unknown = (app as Partial<App>).resolvers;
  return Array.isArray(r) && r.length === 3 && r[0].constructor === LazyResolver && r[1].constructor === ImplicitTokenResolver && r[2].constructor === NumberStringUnionResolver;
}

/** Thrown by plainSorted on a value that is not plain data (cdk8s's resolve may treat it specially). */
const NOT_PLAIN = new Error('not plain data');

/** plainSorted's copy of each tree the schema DSL rendered (toSharedJson), frozen and shared (lib/subtree-sharing.ts). */
const sortedSchemas = new WeakMap<object, unknown>();

/**
 * What cdk8s's sanitizeValue(resolve(value), { sortKeys: true }) gives for plain data (objects
 * with Object.prototype, arrays, strings, numbers, booleans, null, undefined), in one copy.
 * Throws NOT_PLAIN on anything else, and on the keys where cdk8s's resolvers look
 * (`constructor`, and `__proto__`), so that cdk8s's own path decides those.
 *
 * A schema subtree the DSL rendered (the same tree wherever the DSL node is used: a core
 * PodSpec in many CRDs) is copied once per process: the copy is deeply frozen and marked
 * shared, so that every CRD embedding it holds the same subtree and the walks over the
 * objects (checks, YAML) do its work once. `frozen`: the copy is inside such a subtree.
 */
function plainSorted(v: unknown, frozen = false, share = true): unknown {
  if (v === null || v === undefined) return undefined;
  switch (typeof v) {
    case 'string': case 'number': case 'boolean': return v;
    case 'object': break;
    default: throw NOT_PLAIN;
  }
  if (share && isSharedSchemaJson(v as object)) {
    let hit = sortedSchemas.get(v as object);
    if (hit === undefined) {
      hit = shareJson(plainCopy(v as object, true) as object);
      sortedSchemas.set(v as object, hit);
    }
    return hit;
  }
  return plainCopy(v as object, frozen, share);
}

function plainCopy(v: object, frozen: boolean, share = true): unknown {
  const proto = Object.getPrototypeOf(v);
  if (proto === Array.prototype) {
    const a = v as unknown[];
    const out: unknown[] = [];
    for (let i = 0; i < a.length; i++) {
      if (!(i in a)) throw NOT_PLAIN; // a hole, which cdk8s keeps
      out.push(plainSorted(a[i], frozen, share));
    }
    return frozen ? Object.freeze(out) : out;
  }
  if (proto !== Object.prototype) throw NOT_PLAIN;
  const keys = Object.keys(v).sort();
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (k === 'constructor' || k === '__proto__') throw NOT_PLAIN;
    const x = plainSorted((v as Record<string, unknown>)[k], frozen, share);
    if (x !== undefined) out[k] = x;
  }
  return frozen ? Object.freeze(out) : out;
}

/**
 * The whole object schema of a version: apiVersion, kind, metadata plus the version's fields.
 * CEL rules on the version schema stay on the root (where `self.metadata.name` and
 * `self.metadata.namespace` are visible, e.g. for singletons named `default`).
 */
export function rootSchema(schema: ObjectSchema): ObjectSchema {
  let root = s.object({ apiVersion: s.string(), kind: s.string(), metadata: s.object() }).extend(schema.properties, schema.options);
  // Whole-object CEL rules (e.g. "spec.x is immutable while status.y") sit on the version schema.
  for (const { rule, message, ...opts } of schema.rules) root = root.rule(rule, message as string, opts);
  return root;
}

function renderSubresources(v: CrdVersion): unknown {
  const sr: any = {};
  if (v.subresources?.status) sr.status = {};
  if (v.subresources?.scale) sr.scale = dropEmpty({ ...v.subresources.scale });
  return Object.keys(sr).length ? sr : undefined;
}

function dropEmpty<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Checks a definition on its own; throws with the construct path, the field, the value and the fix. */
export function validateDefinition(path: string, def: CrdDefinition): void {
  const fail = (what: string) => {
    throw new Error(`${path}: CRD ${crdName(def)}: ${what}`);
  };
  if (!/^[A-Z][A-Za-z0-9]*$/.test(def.kind)) fail(`kind '${def.kind}' must be UpperCamelCase`);
  if (!DNS1123_LABEL.test(def.plural) || def.plural !== def.plural.toLowerCase()) fail(`plural '${def.plural}' must be a lower-case DNS label`);
  if (!def.group.includes('.')) fail(`group '${def.group}' must be a domain name with a dot, e.g. example.com`);
  const storage = def.versions.filter((v) => v.storage);
  if (storage.length !== 1) {
    fail(`exactly one version must have storage: true (got ${storage.length}: ${storage.map((v) => v.name).join(', ') || 'none'})`);
  }
  const names = def.versions.map((v) => v.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) fail(`version '${dup}' is listed twice`);
  for (const v of def.versions) {
    if (!/^v\d+((alpha|beta)\d+)?$/.test(v.name)) fail(`version name '${v.name}' is not a Kubernetes version (v1, v1beta1, v2alpha3...)`);
  }
  if (!def.versions.some((v) => v.served ?? true)) fail('no version is served');
  if (def.conversion?.schemasDifferBecause !== undefined && (def.conversion.strategy !== 'None' || !def.conversion.schemasDifferBecause.trim())) {
    fail('conversion.schemasDifferBecause applies to strategy None only and must give a reason; remove it or state why the versions may differ');
  }
  if (def.versions.length > 1 && (def.conversion?.strategy ?? 'None') === 'None' && !def.conversion?.schemasDifferBecause) {
    // Allowed by the API server only when every version has the same schema.
    const first = JSON.stringify(def.versions[0].schema.toSharedJson());
    if (def.versions.some((v) => JSON.stringify(v.schema.toSharedJson()) !== first)) {
      fail('versions have different schemas but conversion is None: declare conversion { strategy: "Webhook" }, or give all versions the same schema, or state conversion.schemasDifferBecause');
    }
  }
}
