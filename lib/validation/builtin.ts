import Ajv, { ValidateFunction } from 'ajv';
import { ANNOTATIONS, EXPECT, RULE, LABELS, LIST_MAP, ListMapSpec, newAjv, toIssues, valuesByKey } from './ajv-support';
import { isBuiltinGroup, KINDS } from './builtin-kinds';
import { dedupe, ValidationIssue } from './issues';
import { nameIssues } from './names';
import type { Obj } from './pod-spec';
import { rbacIssues } from './rbac';
import { semanticIssues } from './semantics';
import { hasType, RefResolver, sureOf as sureOfNode } from './sure';
import { coreTypeEntry } from '../schema/core';
import { isSharedJson } from '../subtree-sharing';

export { builtinKinds, isBuiltinGroup, isBuiltinKind } from './builtin-kinds';

/**
 * Validation of built-in Kubernetes objects against the Kubernetes API schema (the
 * generated type table imports/k8s/core-types.json), as the API server does with strict
 * field validation: unknown fields, types, required fields, integer ranges, formats,
 * list-map keys, and name/label syntax.
 */


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

/**
 * Enums and ranges the API server enforces (in its validation code; the OpenAPI types
 * them as plain strings and integers): `Type.field` -> keywords merged into the field's
 * schema. Facts of Kubernetes v1.32; `x-rule` names the rule id of a failure.
 */
const enumOf = (...values: string[]) => ({ enum: values });
const setOf = (...values: string[]) => ({ items: { type: 'string', enum: values } });
const atLeast = (min: number) => ({ minimum: min, [EXPECT]: `a number at least ${min}` });
const between = (min: number, max: number) => ({ minimum: min, maximum: max, [EXPECT]: `a number from ${min} to ${max}` });
const PORT = between(1, 65535);
/** A port number (1-65535, or from `min`) or an IANA service name (a named container port). */
const portOrName = (min = 1) => ({
  type: ['integer', 'string'],
  if: { type: 'integer' },
  then: { ...between(min, 65535), [RULE]: 'K8S-RANGE' },
  else: { maxLength: 15, pattern: '^(?=.*[a-z])(?!.*--)[a-z0-9]([-a-z0-9]*[a-z0-9])?$', [EXPECT]: 'a port name (at most 15 characters: lowercase letters, digits and single \'-\', with at least one letter)', [RULE]: 'K8S-NAME' },
});
/** A count or a percentage (maxSurge, maxUnavailable, minAvailable). */
const COUNT_OR_PERCENT = {
  type: ['integer', 'string'],
  if: { type: 'integer' },
  then: { ...atLeast(0), [RULE]: 'K8S-RANGE' },
  else: { pattern: '^[0-9]+%$', [EXPECT]: 'a count or a percentage such as 25%' },
};
const PROTOCOL = enumOf('TCP', 'UDP', 'SCTP');
const PULL = enumOf('Always', 'IfNotPresent', 'Never');
const OPERATOR = enumOf('In', 'NotIn', 'Exists', 'DoesNotExist');
const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const FILE_MODE = { ...between(0, 0o777), [EXPECT]: 'a file mode from 0 to 0777 (511)' };
const WEBHOOK = {
  sideEffects: enumOf('None', 'NoneOnDryRun'),
  failurePolicy: enumOf('Ignore', 'Fail'),
  matchPolicy: enumOf('Exact', 'Equivalent'),
  timeoutSeconds: between(1, 30),
};
const CONSTRAINTS: Record<string, Record<string, object>> = {
  V1ServiceSpec: {
    type: enumOf('ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'),
    sessionAffinity: enumOf('ClientIP', 'None'),
    externalTrafficPolicy: enumOf('Cluster', 'Local'),
    internalTrafficPolicy: enumOf('Cluster', 'Local'),
    ipFamilyPolicy: enumOf('SingleStack', 'PreferDualStack', 'RequireDualStack'),
    ipFamilies: setOf('IPv4', 'IPv6'),
    trafficDistribution: enumOf('PreferClose'),
    healthCheckNodePort: between(0, 65535),
  },
  // targetPort 0 is defaulted to port.
  V1ServicePort: { protocol: PROTOCOL, port: PORT, nodePort: between(0, 65535), targetPort: portOrName(0) },
  V1ContainerPort: { protocol: PROTOCOL, containerPort: PORT, hostPort: between(0, 65535) },
  V1NetworkPolicyPort: { protocol: PROTOCOL, port: portOrName(), endPort: PORT },
  V1HTTPGetAction: { port: portOrName(), scheme: enumOf('HTTP', 'HTTPS') },
  V1TCPSocketAction: { port: portOrName() },
  V1GRPCAction: { port: PORT },
  V1ServiceBackendPort: { number: PORT },
  AdmissionregistrationV1ServiceReference: { port: PORT },
  ApiregistrationV1ServiceReference: { port: PORT },
  V1Container: { imagePullPolicy: PULL, terminationMessagePolicy: enumOf('File', 'FallbackToLogsOnError'), restartPolicy: enumOf('Always') },
  V1EphemeralContainer: { imagePullPolicy: PULL, terminationMessagePolicy: enumOf('File', 'FallbackToLogsOnError') },
  V1PodSpec: {
    restartPolicy: enumOf('Always', 'OnFailure', 'Never'),
    dnsPolicy: enumOf('ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'),
    preemptionPolicy: enumOf('PreemptLowerPriority', 'Never'),
    terminationGracePeriodSeconds: atLeast(0),
    activeDeadlineSeconds: atLeast(1),
  },
  V1PodOS: { name: enumOf('linux', 'windows') },
  V1PodSecurityContext: {
    runAsUser: atLeast(0),
    runAsGroup: atLeast(0),
    fsGroup: atLeast(0),
    supplementalGroups: { items: { type: 'integer', ...atLeast(0) } },
    fsGroupChangePolicy: enumOf('OnRootMismatch', 'Always'),
    supplementalGroupsPolicy: enumOf('Merge', 'Strict'),
  },
  V1SecurityContext: { runAsUser: atLeast(0), runAsGroup: atLeast(0), procMount: enumOf('Default', 'Unmasked') },
  V1SeccompProfile: { type: enumOf('RuntimeDefault', 'Unconfined', 'Localhost') },
  V1AppArmorProfile: { type: enumOf('RuntimeDefault', 'Unconfined', 'Localhost') },
  V1Probe: {
    initialDelaySeconds: atLeast(0),
    timeoutSeconds: atLeast(0),
    periodSeconds: atLeast(0),
    successThreshold: atLeast(0),
    failureThreshold: atLeast(0),
    terminationGracePeriodSeconds: atLeast(1),
  },
  V1Toleration: { operator: enumOf('Exists', 'Equal'), effect: enumOf('NoSchedule', 'PreferNoSchedule', 'NoExecute') },
  V1LabelSelectorRequirement: { operator: OPERATOR },
  V1NodeSelectorRequirement: { operator: enumOf('In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt') },
  V1TopologySpreadConstraint: {
    whenUnsatisfiable: enumOf('DoNotSchedule', 'ScheduleAnyway'),
    nodeAffinityPolicy: enumOf('Honor', 'Ignore'),
    nodeTaintsPolicy: enumOf('Honor', 'Ignore'),
    maxSkew: atLeast(1),
  },
  V1VolumeMount: { mountPropagation: enumOf('None', 'HostToContainer', 'Bidirectional'), recursiveReadOnly: enumOf('Disabled', 'IfPossible', 'Enabled') },
  V1SecretVolumeSource: { defaultMode: FILE_MODE },
  V1ConfigMapVolumeSource: { defaultMode: FILE_MODE },
  V1ProjectedVolumeSource: { defaultMode: FILE_MODE },
  V1DownwardAPIVolumeSource: { defaultMode: FILE_MODE },
  V1KeyToPath: { mode: FILE_MODE },
  V1PersistentVolumeClaimSpec: {
    accessModes: setOf('ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'),
    volumeMode: enumOf('Filesystem', 'Block'),
  },
  V1PersistentVolumeSpec: {
    accessModes: setOf('ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'),
    volumeMode: enumOf('Filesystem', 'Block'),
    persistentVolumeReclaimPolicy: enumOf('Recycle', 'Delete', 'Retain'),
  },
  V1StorageClass: { reclaimPolicy: enumOf('Delete', 'Retain'), volumeBindingMode: enumOf('Immediate', 'WaitForFirstConsumer') },
  V1DeploymentSpec: { replicas: atLeast(0), minReadySeconds: atLeast(0), revisionHistoryLimit: atLeast(0), progressDeadlineSeconds: atLeast(0) },
  V1DeploymentStrategy: { type: enumOf('Recreate', 'RollingUpdate') },
  V1RollingUpdateDeployment: { maxSurge: COUNT_OR_PERCENT, maxUnavailable: COUNT_OR_PERCENT },
  V1StatefulSetSpec: { replicas: atLeast(0), minReadySeconds: atLeast(0), revisionHistoryLimit: atLeast(0), podManagementPolicy: enumOf('OrderedReady', 'Parallel') },
  V1StatefulSetUpdateStrategy: { type: enumOf('RollingUpdate', 'OnDelete') },
  V1RollingUpdateStatefulSetStrategy: { partition: atLeast(0), maxUnavailable: COUNT_OR_PERCENT },
  V1DaemonSetSpec: { minReadySeconds: atLeast(0), revisionHistoryLimit: atLeast(0) },
  V1DaemonSetUpdateStrategy: { type: enumOf('RollingUpdate', 'OnDelete') },
  V1RollingUpdateDaemonSet: { maxSurge: COUNT_OR_PERCENT, maxUnavailable: COUNT_OR_PERCENT },
  V1ReplicaSetSpec: { replicas: atLeast(0), minReadySeconds: atLeast(0) },
  V1ReplicationControllerSpec: { replicas: atLeast(0), minReadySeconds: atLeast(0) },
  V1JobSpec: {
    parallelism: atLeast(0),
    completions: atLeast(0),
    backoffLimit: atLeast(0),
    activeDeadlineSeconds: atLeast(1),
    ttlSecondsAfterFinished: atLeast(0),
    backoffLimitPerIndex: atLeast(0),
    maxFailedIndexes: atLeast(0),
    completionMode: enumOf('NonIndexed', 'Indexed'),
    podReplacementPolicy: enumOf('TerminatingOrFailed', 'Failed'),
  },
  V1CronJobSpec: { concurrencyPolicy: enumOf('Allow', 'Forbid', 'Replace'), startingDeadlineSeconds: atLeast(0), successfulJobsHistoryLimit: atLeast(0), failedJobsHistoryLimit: atLeast(0) },
  V1PodDisruptionBudgetSpec: { minAvailable: COUNT_OR_PERCENT, maxUnavailable: COUNT_OR_PERCENT, unhealthyPodEvictionPolicy: enumOf('IfHealthyBudget', 'AlwaysAllow') },
  V1ValidatingWebhook: WEBHOOK,
  V1MutatingWebhook: { ...WEBHOOK, reinvocationPolicy: enumOf('Never', 'IfNeeded') },
  V1RuleWithOperations: { operations: setOf('*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'), scope: enumOf('*', 'Cluster', 'Namespaced') },
  V1ValidatingAdmissionPolicySpec: { failurePolicy: enumOf('Ignore', 'Fail') },
  V1HTTPIngressPath: { pathType: enumOf('Exact', 'Prefix', 'ImplementationSpecific') },
  V1NetworkPolicySpec: { policyTypes: setOf('Ingress', 'Egress') },
  V1CustomResourceDefinitionSpec: { scope: enumOf('Cluster', 'Namespaced') },
  V1CustomResourceConversion: { strategy: enumOf('None', 'Webhook') },
  V1ScopedResourceSelectorRequirement: { scopeName: enumOf(...QUOTA_SCOPES), operator: OPERATOR },
  V1ResourceQuotaSpec: { scopes: setOf(...QUOTA_SCOPES) },
  V1LimitRangeItem: { type: enumOf('Pod', 'Container', 'PersistentVolumeClaim') },
  V1PriorityClass: { preemptionPolicy: enumOf('PreemptLowerPriority', 'Never') },
  V2HorizontalPodAutoscalerSpec: { minReplicas: atLeast(1), maxReplicas: atLeast(1) },
  V1HorizontalPodAutoscalerSpec: { minReplicas: atLeast(1), maxReplicas: atLeast(1), targetCPUUtilizationPercentage: atLeast(1) },
  V2MetricSpec: { type: enumOf('ContainerResource', 'External', 'Object', 'Pods', 'Resource') },
  V2MetricTarget: { type: enumOf('Utilization', 'Value', 'AverageValue') },
  V2HPAScalingRules: { selectPolicy: enumOf('Max', 'Min', 'Disabled'), stabilizationWindowSeconds: between(0, 3600) },
  V2HPAScalingPolicy: { type: enumOf('Pods', 'Percent'), value: atLeast(1), periodSeconds: between(1, 1800) },
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
    const extra = CONSTRAINTS[model]?.[field];
    if (extra) node = { ...node, ...extra };
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
let coreAdded = false;

/** The ajv instance of this module; with `core`, with the shared schema of all core types added (once, when first needed). */
function sharedAjv(core: boolean): Ajv {
  ajv ??= newAjv();
  if (core && !coreAdded) {
    const models = new Set<string>();
    for (const k of Object.values(KINDS)) reachable(k.model, models);
    ajv.addSchema({ $id: CORE, definitions: Object.fromEntries([...models].sort().map((m) => [m, modelSchema(m)])) });
    coreAdded = true;
  }
  return ajv;
}

/** The whole-object schema of a kind's model: its own, with apiVersion, kind and metadata required. */
function rootSchemaOf(model: string): Record<string, any> {
  let schema = rootSchemas.get(model);
  if (!schema) {
    const root = modelSchema(model) as { properties: object; required: string[] };
    rootSchemas.set(model, schema = { ...root, required: [...new Set(['apiVersion', 'kind', 'metadata', ...root.required])] });
  }
  return schema;
}

/** Built once per model, so that the test of what surely passes it (sureOf) is too. */
const rootSchemas = new Map<string, Record<string, any>>();

/** Models whose types refer to themselves (JSONSchemaProps): validated with the whole shared schema. */
const recursive = new Map<string, boolean>();

function isRecursive(model: string): boolean {
  let r = recursive.get(model);
  if (r === undefined) {
    const models = new Set<string>();
    reachable(model, models);
    r = models.has('V1JSONSchemaProps');
    recursive.set(model, r);
  }
  return r;
}

/** Compiled validators by the text of their schema. */
const validators = new Map<string, ValidateFunction>();

/**
 * The validator for objects of a model. Most kinds get their schema cut down to the
 * fields the objects have (the core types are large: PodSpec alone reaches most of the
 * table, while a platform's Deployments use a few dozen fields of it), with every
 * reference to a core type inlined where data reaches it, so compiling costs in proportion
 * to the objects. Kinds whose types are recursive (CustomResourceDefinition, through
 * JSONSchemaProps) are compiled against the shared schema of all core types instead,
 * where each type is compiled once, unless `shapeRecursive`: CRDs whose schemas were left
 * out (withoutValidSchemas) are small enough to be cut down like the others (cutting down
 * inlines a type only as deep as the data goes, so it ends on any data).
 */
function validatorFor(model: string, values: unknown[], shapeRecursive = false): ValidateFunction {
  const whole = isRecursive(model) && !shapeRecursive;
  const schema = whole ? rootSchemaOf(model) : shape(rootSchemaOf(model), values);
  const key = `${model}\u0000${JSON.stringify(schema)}`;
  let fn = validators.get(key);
  if (!fn) {
    fn = sharedAjv(whole).compile(schema);
    validators.set(key, fn);
  }
  return fn;
}

type Schema = Record<string, any>;


const REF_PREFIX = `${CORE}#/definitions/`;

/** The core types, for the tests of what surely passes (./sure). */
const coreRefs: RefResolver = (ref) => (ref.startsWith(REF_PREFIX) ? modelSchema(ref.slice(REF_PREFIX.length)) : undefined);
const sureOf = (s: Schema) => sureOfNode(s, coreRefs);

/**
 * The schema with references to core types inlined where the values reach, and every
 * subtree no value reaches replaced by an empty schema (ajv applies a property's, item's
 * or map value's schema only to data that is there, so the issues are the same). Property
 * names are all kept, for the unknown-field suggestions. A node that every value reaching it
 * surely passes (sureOf) is an empty schema too: a platform's valid objects compile to next
 * to nothing, and only the nodes an object may fail are compiled, with their keys.
 */
function shape(s: Schema, values: unknown[]): Schema {
  // Values that surely pass a node (sureOf) give no issue there: ajv need not see it.
  const sure = sureOf(s);
  if (values.every(sure)) return {};
  if (typeof s.$ref === 'string' && s.$ref.startsWith(REF_PREFIX)) return shape(modelSchema(s.$ref.slice(REF_PREFIX.length)), values);
  const out: Schema = { ...s };
  const objects = values.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (s.properties) {
    const byKey = valuesByKey(objects);
    const props: Schema = {};
    for (const [k, child] of Object.entries(s.properties as Schema)) {
      const reached = byKey.get(k);
      props[k] = reached ? shape(child, reached) : {};
    }
    out.properties = props;
  }
  if (s.items && typeof s.items === 'object') {
    const reached = values.filter(Array.isArray).flat();
    out.items = reached.length ? shape(s.items, reached) : {};
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    const reached = objects.flatMap((o) => Object.values(o));
    out.additionalProperties = reached.length ? shape(s.additionalProperties, reached) : {};
  }
  for (const k of ['if', 'then', 'else']) if (s[k] && typeof s[k] === 'object') out[k] = shape(s[k], values);
  return out;
}

/** Validates a built-in Kubernetes object; an empty list means it is valid. */
export function validateBuiltin(obj: any): ValidationIssue[] {
  return validateBuiltins([obj])[0];
}

/**
 * Validates built-in Kubernetes objects, one list of issues per object (empty when valid).
 * Objects of one kind share one validator, compiled for what they contain.
 */
export function validateBuiltins(objs: readonly any[]): ValidationIssue[][] {
  const results: ValidationIssue[][] = objs.map(() => []);
  const groups = new Map<string, { indexes: number[]; values: unknown[] }>();
  objs.forEach((obj, index) => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      results[index] = [{ rule: 'K8S-PARSE', path: '', message: 'expected a Kubernetes object' }];
      return;
    }
    const { apiVersion, kind } = obj;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      results[index] = [{ rule: 'K8S-PARSE', path: typeof apiVersion !== 'string' ? 'apiVersion' : 'kind', message: 'required field is missing' }];
      return;
    }
    const known = KINDS[`${apiVersion}/${kind}`];
    if (!known) {
      const why = isBuiltinGroup(apiVersion) ? 'not among the built-in kinds this validator knows' : 'not a built-in kind (validate it against its CustomResourceDefinition)';
      results[index] = [{ rule: 'K8S-UNKNOWN-KIND', path: '', message: `no schema for ${kind} in ${apiVersion}: ${why}` }];
      return;
    }
    let g = groups.get(known.model);
    if (!g) groups.set(known.model, g = { indexes: [], values: [] });
    g.indexes.push(index);
    g.values.push(withoutNulls(obj));
  });
  for (const [model, g] of groups) {
    // CRDs are validated with the schemas that surely pass left out (the semantic checks see them whole).
    const reduced = model === 'V1CustomResourceDefinition' ? g.values.map(withoutValidSchemas) : g.values.map((value) => ({ value, unsure: false }));
    const validate = validatorFor(model, reduced.map((r) => r.value), reduced.every((r) => !r.unsure));
    g.indexes.forEach((index, k) => {
      const obj = objs[index];
      validate(reduced[k].value);
      // The API server's validation beyond the schema, for the kinds where we model it.
      results[index] = dedupe([...nameIssues(obj.metadata, 'metadata', KINDS[`${obj.apiVersion}/${obj.kind}`].name), ...toIssues(validate.errors), ...rbacIssues(obj), ...semanticIssues(g.values[k] as Obj)]);
    });
  }
  return results;
}

/**
 * A CustomResourceDefinition as ajv needs to see it: the schema of each version that surely
 * passes JSONSchemaProps (sureOf) replaced by an empty one, which passes it too. Those
 * schemas are most of a CRD (tens of thousands of nodes when it embeds pod templates), and
 * ajv's validator of JSONSchemaProps tests every one of its fields on every node; the issues
 * are the same, as none comes from inside them. The object itself when nothing is left out;
 * `unsure` when a version's schema is kept (its validation may need the whole recursive schema).
 */
function withoutValidSchemas(crd: unknown): { value: unknown; unsure: boolean } {
  const spec: any = (crd as { spec?: unknown } | null | undefined)?.spec;
  if (!spec || typeof spec !== 'object' || !Array.isArray(spec.versions)) return { value: crd, unsure: false };
  let changed = false;
  let unsure = false;
  const versions = spec.versions.map((v: any) => {
    const schema = v?.schema;
    if (!schema || typeof schema !== 'object' || Array.isArray(schema) || !hasType('object', schema.openAPIV3Schema)) return v;
    if (!sureOf(JSON_SCHEMA_PROPS)(schema.openAPIV3Schema)) {
      unsure = true;
      return v;
    }
    changed = true;
    return { ...v, schema: { ...schema, openAPIV3Schema: {} } };
  });
  return { value: changed ? { ...(crd as object), spec: { ...spec, versions } } : crd, unsure };
}

/** A copy without null-valued fields, which the API server treats as unset (the value itself when it has none). */
function withoutNulls(value: unknown): unknown {
  return hasNullField(value) ? copyWithoutNulls(value) : value;
}

/** Shared subtrees (lib/subtree-sharing.ts) by whether they have a null field. */
const nullFields = new WeakMap<object, boolean>();

function hasNullField(value: unknown): boolean {
  if (isSharedJson(value)) {
    let has = nullFields.get(value);
    if (has === undefined) nullFields.set(value, has = hasNullFieldIn(value));
    return has;
  }
  return hasNullFieldIn(value);
}

function hasNullFieldIn(value: unknown): boolean {
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
