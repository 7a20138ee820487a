import Ajv, { ValidateFunction } from 'ajv';
import { ANNOTATIONS, EXPECT, LABELS, LIST_MAP, ListMapSpec, newAjv, toIssues } from './ajv-support';
import { dedupe, ValidationIssue } from './issues';
import { NameRule, nameIssues } from './names';
import { coreTypeEntry } from '../schema/core';

/**
 * Validation of built-in Kubernetes objects against the Kubernetes API schema (the
 * generated type table imports/k8s/core-types.json), as the API server does with strict
 * field validation: unknown fields, types, required fields, integer ranges, formats,
 * list-map keys, and name/label syntax.
 */

/** The built-in kinds we validate: `apiVersion/kind` -> model name (and name rule, if not a DNS subdomain). */
const KINDS: Record<string, { model: string; name?: NameRule }> = {
  'v1/Namespace': { model: 'V1Namespace', name: 'dns-label' },
  'v1/ServiceAccount': { model: 'V1ServiceAccount' },
  'v1/Service': { model: 'V1Service', name: 'dns-label' },
  'v1/ConfigMap': { model: 'V1ConfigMap' },
  'v1/Secret': { model: 'V1Secret' },
  'v1/Pod': { model: 'V1Pod' },
  'v1/PersistentVolumeClaim': { model: 'V1PersistentVolumeClaim' },
  'v1/ResourceQuota': { model: 'V1ResourceQuota' },
  'v1/LimitRange': { model: 'V1LimitRange' },
  'apps/v1/Deployment': { model: 'V1Deployment' },
  'apps/v1/StatefulSet': { model: 'V1StatefulSet' },
  'apps/v1/DaemonSet': { model: 'V1DaemonSet' },
  'batch/v1/Job': { model: 'V1Job' },
  'batch/v1/CronJob': { model: 'V1CronJob' },
  'rbac.authorization.k8s.io/v1/Role': { model: 'V1Role', name: 'path-segment' },
  'rbac.authorization.k8s.io/v1/ClusterRole': { model: 'V1ClusterRole', name: 'path-segment' },
  'rbac.authorization.k8s.io/v1/RoleBinding': { model: 'V1RoleBinding', name: 'path-segment' },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { model: 'V1ClusterRoleBinding', name: 'path-segment' },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': { model: 'V1ValidatingWebhookConfiguration' },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': { model: 'V1MutatingWebhookConfiguration' },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': { model: 'V1CustomResourceDefinition' },
  'policy/v1/PodDisruptionBudget': { model: 'V1PodDisruptionBudget' },
  'networking.k8s.io/v1/NetworkPolicy': { model: 'V1NetworkPolicy' },
  'networking.k8s.io/v1/Ingress': { model: 'V1Ingress' },
  'autoscaling/v2/HorizontalPodAutoscaler': { model: 'V2HorizontalPodAutoscaler' },
  'coordination.k8s.io/v1/Lease': { model: 'V1Lease' },
  'scheduling.k8s.io/v1/PriorityClass': { model: 'V1PriorityClass' },
  'apiregistration.k8s.io/v1/APIService': { model: 'V1APIService' },
};

/** The id of the shared schema whose definitions are the core types. */
const CORE = 'k8s-core';
const JSON_SCHEMA_PROPS = { $ref: `${CORE}#/definitions/V1JSONSchemaProps` };
const schemaOr = (other: string, then: object) => ({ type: [other, 'object'], if: { type: other }, then, else: JSON_SCHEMA_PROPS });

/** Fields whose table type (`any`, `map[string]`) is narrower in the API: `Type.field` -> JSON Schema. */
const OVERRIDES: Record<string, object> = {
  'V1ObjectMeta.labels': { type: 'object', additionalProperties: { type: 'string' }, [LABELS]: true },
  'V1ObjectMeta.annotations': { type: 'object', additionalProperties: { type: 'string' }, [ANNOTATIONS]: true },
  'V1LabelSelector.matchLabels': { type: 'object', additionalProperties: { type: 'string' }, [LABELS]: true },
  'V1ServiceSpec.selector': { type: 'object', additionalProperties: { type: 'string' }, [LABELS]: true },
  // JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray.
  'V1JSONSchemaProps.items': schemaOr('array', { items: JSON_SCHEMA_PROPS }),
  'V1JSONSchemaProps.additionalProperties': schemaOr('boolean', {}),
  'V1JSONSchemaProps.additionalItems': schemaOr('boolean', {}),
  'V1JSONSchemaProps.dependencies': { type: 'object', additionalProperties: schemaOr('array', { items: { type: 'string' } }) },
};

const INT32 = { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1, [EXPECT]: 'an int32 (from -2147483648 to 2147483647)' };
const INT64 = { type: 'integer', minimum: -(2 ** 63), maximum: 2 ** 63, [EXPECT]: 'an int64' };

/** The JSON Schema of a type string of the table (`[]V1Container`, `integer:int32`, ...). */
function typeSchema(type: string): object {
  if (type.startsWith('[]')) return { type: 'array', items: typeSchema(type.slice(2)) };
  if (type.startsWith('map[')) return { type: 'object', additionalProperties: typeSchema(type.slice(4, -1)) };
  switch (type) {
    case 'string': return { type: 'string' };
    case 'string:byte': return { type: 'string', format: 'byte' };
    case 'string:date-time': return { type: 'string', format: 'date-time' };
    case 'integer:int32': return INT32;
    case 'integer:int64': return INT64;
    case 'boolean': return { type: 'boolean' };
    case 'int-or-string': return { type: ['integer', 'string'] };
    case 'quantity': return { type: ['string', 'number'], format: 'quantity' };
    case 'any': return {};
    default:
      if (type.startsWith('number:')) return { type: 'number' };
      return { $ref: `${CORE}#/definitions/${type}` };
  }
}

const definitionCache = new Map<string, object>();

/** The JSON Schema of one model of the table: a closed object with its required fields. */
function modelSchema(model: string): object {
  const hit = definitionCache.get(model);
  if (hit) return hit;
  const entry = coreTypeEntry(model);
  const properties: Record<string, object> = {};
  for (const [field, type] of Object.entries(entry.properties)) {
    let node = OVERRIDES[`${model}.${field}`] ?? typeSchema(type);
    const keys = entry.listMapKeys?.[field];
    if (keys) {
      const item = type.slice(2);
      const spec: ListMapSpec = { keys, defaults: /^[A-Z]/.test(item) ? coreTypeEntry(item).defaults : undefined };
      node = { ...node, [LIST_MAP]: spec };
    }
    properties[field] = node;
  }
  const schema = { type: 'object', properties, required: entry.required ?? [], additionalProperties: false };
  definitionCache.set(model, schema);
  return schema;
}

/** The models reachable from `root`, through field types. */
function reachable(root: string, seen: Set<string>): void {
  if (seen.has(root)) return;
  seen.add(root);
  for (const ref of JSON.stringify(modelSchema(root)).matchAll(/#\/definitions\/(\w+)/g)) reachable(ref[1], seen);
}

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

/**
 * The compiled validator of a model, built on first use. Every model is one definition of
 * a single shared schema, so a type used by several kinds (PodSpec by Deployment,
 * StatefulSet, DaemonSet, Job...) is compiled once.
 */
function validatorFor(model: string): ValidateFunction {
  let fn = validators.get(model);
  if (!fn) {
    if (!ajv) {
      ajv = newAjv();
      const models = new Set<string>();
      for (const k of Object.values(KINDS)) reachable(k.model, models);
      ajv.addSchema({ $id: CORE, definitions: Object.fromEntries([...models].sort().map((m) => [m, modelSchema(m)])) });
    }
    const root = modelSchema(model) as { properties: object; required: string[] };
    fn = ajv.compile({ ...root, required: [...new Set(['apiVersion', 'kind', 'metadata', ...root.required])] });
    validators.set(model, fn);
  }
  return fn;
}

/** True if `apiVersion`/`kind` is one of the built-in kinds this module validates. */
export function isBuiltinKind(apiVersion: string, kind: string): boolean {
  return `${apiVersion}/${kind}` in KINDS;
}

/** True if the API group of `apiVersion` belongs to Kubernetes itself (core, apps, *.k8s.io, ...). */
export function isBuiltinGroup(apiVersion: string): boolean {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  return group === '' || group.endsWith('.k8s.io') || ['apps', 'batch', 'policy', 'autoscaling', 'extensions'].includes(group);
}

/** The built-in kinds this module knows, as `apiVersion/kind`. */
export function builtinKinds(): string[] {
  return Object.keys(KINDS);
}

/** Validates a built-in Kubernetes object; an empty list means it is valid. */
export function validateBuiltin(obj: any): ValidationIssue[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [{ path: '', message: 'expected a Kubernetes object' }];
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return [{ path: typeof apiVersion !== 'string' ? 'apiVersion' : 'kind', message: 'required field is missing' }];
  }
  const known = KINDS[`${apiVersion}/${kind}`];
  if (!known) {
    const why = isBuiltinGroup(apiVersion) ? 'not among the built-in kinds this validator knows' : 'not a built-in kind (validate it against its CustomResourceDefinition)';
    return [{ path: '', message: `no schema for ${kind} in ${apiVersion}: ${why}` }];
  }
  const validate = validatorFor(known.model);
  validate(withoutNulls(obj));
  return dedupe([...nameIssues(obj.metadata, 'metadata', known.name), ...toIssues(validate.errors)]);
}

/** A copy without null-valued fields, which the API server treats as unset (the value itself when it has none). */
function withoutNulls(value: unknown): unknown {
  return hasNullField(value) ? copyWithoutNulls(value) : value;
}

function hasNullField(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNullField);
  if (value === null || typeof value !== 'object') return false;
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v === null || (typeof v === 'object' && hasNullField(v))) return true;
  }
  return false;
}

function copyWithoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyWithoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = copyWithoutNulls(v);
  return out;
}
