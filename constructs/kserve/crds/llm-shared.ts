// Building blocks of the LLMInferenceService and LLMInferenceServiceConfig schemas
// (serving.kserve.io v1alpha1 and v1alpha2), including the Gateway API HTTPRoute spec and
// the Gateway API Inference Extension InferencePool spec that they embed.
import { knativeCondition } from './isvc-shared';
import { labelValue } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { ObjectSchema, s, Schema, StringOptions } from '../../../lib/schema/dsl';

export type LlmVersion = 'v1alpha1' | 'v1alpha2';

/**
 * How strictly the embedded Gateway API types (HTTPRoute spec, InferencePool spec) are
 * validated. LLMInferenceService carries the Gateway API validation (patterns, minimum
 * lengths, CEL rules); LLMInferenceServiceConfig holds partial presets and keeps only
 * the structure, maximum lengths, enums and defaults.
 */
export interface GatewayFlavor {
  readonly strict: boolean;
}
export const STRICT: GatewayFlavor = { strict: true };
export const LENIENT: GatewayFlavor = { strict: false };

// ---------------------------------------------------------------------------------------
// Gateway API primitives

const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const GROUP_PATTERN = '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const KIND_PATTERN = '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$';
const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const HOSTNAME_PATTERN = '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$";
const DURATION_PATTERN = '^([0-9]{1,5}(h|m|s|ms)){1,4}$';
const PATH_PATTERN = "^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$";

/** A string whose pattern and minimum length apply only to the strict flavor. */
function gwString(g: GatewayFlavor, o: StringOptions): Schema {
  return s.string(g.strict ? o : { maxLength: o.maxLength, enum: o.enum, format: o.format });
}

/** Adds CEL rules only to the strict flavor. */
function gwRules<T extends Schema>(g: GatewayFlavor, node: T, rules: ReadonlyArray<readonly [string, string]>): T {
  return g.strict ? rules.reduce((n, [rule, message]) => n.rule(rule, message), node) : node;
}

// Named Gateway API scalar types, always strict (kserve's own references and status use them).
const objectName = () => s.string({ minLength: 1, maxLength: 253 });
const gwNamespace = () => s.string({ minLength: 1, maxLength: 63, pattern: DNS_LABEL });
const sectionName = () => s.string({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN });
const gwGroup = () => s.string({ maxLength: 253, pattern: GROUP_PATTERN });
const gwKind = () => s.string({ minLength: 1, maxLength: 63, pattern: KIND_PATTERN });

// The same types, flavored (inside the embedded HTTPRoute and InferencePool specs).
const fName = (g: GatewayFlavor) => gwString(g, { minLength: 1, maxLength: 253 });
const fNamespace = (g: GatewayFlavor) => gwString(g, { minLength: 1, maxLength: 63, pattern: DNS_LABEL });
const fSectionName = (g: GatewayFlavor) => gwString(g, { minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN });
const fGroup = (g: GatewayFlavor) => gwString(g, { maxLength: 253, pattern: GROUP_PATTERN });
const fKind = (g: GatewayFlavor) => gwString(g, { minLength: 1, maxLength: 63, pattern: KIND_PATTERN });
const fHostname = (g: GatewayFlavor) => gwString(g, { minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN });
const fDuration = (g: GatewayFlavor) => gwString(g, { pattern: DURATION_PATTERN });
const portNumber = () => s.int32({ minimum: 1, maximum: 65535 });

/** gwapiv1.ObjectReference (status): group, kind and name are required. */
export const gatewayObjectReference = s.object({
  group: gwGroup().required(),
  kind: gwKind().required(),
  name: objectName().required(),
  namespace: gwNamespace(),
}).named('GatewayObjectReference');

/** gwapiv1.BackendObjectReference: a Service by default, which then needs a port. */
export function backendObjectReference(g: GatewayFlavor): ObjectSchema {
  return gwRules(g, s.object({
    group: fGroup(g).default(''),
    kind: fKind(g).default('Service'),
    name: fName(g).required(),
    namespace: fNamespace(g),
    port: portNumber(),
  }), [[
    "(has(self.group) && size(self.group) > 0) || (has(self.kind) && self.kind != 'Service') || has(self.port)",
    'a Service backend reference needs a port',
  ]]).named('BackendObjectReference');
}

function parentReference(g: GatewayFlavor): ObjectSchema {
  return s.object({
    group: fGroup(g).default('gateway.networking.k8s.io'),
    kind: fKind(g).default('Gateway'),
    name: fName(g).required(),
    namespace: fNamespace(g),
    port: portNumber(),
    sectionName: fSectionName(g),
  }).named('ParentReference');
}

function headerList(g: GatewayFlavor, valueMaxLength: number, extra: Record<string, Schema> = {}) {
  const item = s.object({
    name: gwString(g, { minLength: 1, maxLength: 256, pattern: HEADER_NAME_PATTERN }).required(),
    value: gwString(g, { minLength: 1, maxLength: valueMaxLength }).required(),
    ...extra,
  });
  return s.array(item, { listType: 'map', listMapKeys: ['name'], maxItems: 16 });
}

function headerModifier(g: GatewayFlavor): ObjectSchema {
  return s.object({
    add: headerList(g, 4096),
    remove: s.array(s.string(), { listType: 'set', maxItems: 16 }),
    set: headerList(g, 4096),
  }).named('HTTPHeaderFilter');
}

function pathModifier(g: GatewayFlavor): ObjectSchema {
  const node = s.object({
    replaceFullPath: s.string({ maxLength: 1024 }),
    replacePrefixMatch: s.string({ maxLength: 1024 }),
    type: s.enum('ReplaceFullPath', 'ReplacePrefixMatch').required(),
  });
  return gwRules(g, node, [
    ["self.type != 'ReplaceFullPath' || has(self.replaceFullPath)", 'replaceFullPath is required when type is ReplaceFullPath'],
    ["!has(self.replaceFullPath) || self.type == 'ReplaceFullPath'", 'replaceFullPath needs type ReplaceFullPath'],
    ["self.type != 'ReplacePrefixMatch' || has(self.replacePrefixMatch)", 'replacePrefixMatch is required when type is ReplacePrefixMatch'],
    ["!has(self.replacePrefixMatch) || self.type == 'ReplacePrefixMatch'", 'replacePrefixMatch needs type ReplacePrefixMatch'],
  ]).named('HTTPPathModifier');
}

function corsFilter(g: GatewayFlavor): ObjectSchema {
  const noWildcardMix = (what: string) => (n: Schema) =>
    gwRules(g, n, [["!('*' in self) || size(self) == 1", `${what} cannot mix '*' with other values`]]);
  return s.object({
    allowCredentials: s.boolean(),
    allowHeaders: noWildcardMix('allowHeaders')(s.array(s.string(), { listType: 'set', maxItems: 64 })),
    allowMethods: noWildcardMix('allowMethods')(s.array(s.string(), { listType: 'set', maxItems: 9 })),
    allowOrigins: noWildcardMix('allowOrigins')(s.array(s.string(), { listType: 'set', maxItems: 64 })),
    exposeHeaders: s.array(s.string(), { listType: 'set', maxItems: 64 }),
    maxAge: s.int32({ minimum: 1 }).default(5),
  }).named('HTTPCORSFilter');
}

function externalAuthFilter(g: GatewayFlavor): ObjectSchema {
  const headers = () => s.array(s.string(), { listType: 'set', maxItems: 64 });
  return gwRules(g, s.object({
    backendRef: backendObjectReference(g).required(),
    forwardBody: s.object({ maxSize: s.integer() }),
    grpc: s.object({ allowedHeaders: headers() }),
    http: s.object({
      allowedHeaders: headers(),
      allowedResponseHeaders: headers(),
      path: gwString(g, { maxLength: 1024, pattern: PATH_PATTERN }),
    }),
    protocol: s.enum('HTTP', 'GRPC').required(),
  }), [
    ["self.protocol != 'GRPC' || has(self.grpc)", 'grpc is required when protocol is GRPC'],
    ["!has(self.grpc) || self.protocol == 'GRPC'", 'grpc needs protocol GRPC'],
    ["self.protocol != 'HTTP' || has(self.http)", 'http is required when protocol is HTTP'],
    ["!has(self.http) || self.protocol == 'HTTP'", 'http needs protocol HTTP'],
  ]).named('HTTPExternalAuthFilter');
}

function requestMirrorFilter(g: GatewayFlavor): ObjectSchema {
  const fraction = gwRules(g, s.object({
    denominator: s.int32({ minimum: 1 }).default(100),
    numerator: s.int32({ minimum: 0 }).required(),
  }), [['self.numerator <= self.denominator', 'numerator cannot exceed denominator']]);
  return gwRules(g, s.object({
    backendRef: backendObjectReference(g).required(),
    fraction,
    percent: s.int32({ minimum: 0, maximum: 100 }),
  }), [['!(has(self.percent) && has(self.fraction))', 'set either percent or fraction, not both']]).named('HTTPRequestMirrorFilter');
}

/** The filter kinds whose field must be set exactly when the filter type names them. */
const FILTER_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['requestHeaderModifier', 'RequestHeaderModifier'],
  ['responseHeaderModifier', 'ResponseHeaderModifier'],
  ['requestMirror', 'RequestMirror'],
  ['requestRedirect', 'RequestRedirect'],
  ['urlRewrite', 'URLRewrite'],
  ['extensionRef', 'ExtensionRef'],
  ['cors', 'CORS'],
];

function httpRouteFilters(g: GatewayFlavor) {
  const filter = gwRules(g, s.object({
    cors: corsFilter(g),
    extensionRef: s.object({
      group: fGroup(g).required(),
      kind: fKind(g).required(),
      name: fName(g).required(),
    }).named('GatewayLocalObjectReference'),
    externalAuth: externalAuthFilter(g),
    requestHeaderModifier: headerModifier(g),
    requestMirror: requestMirrorFilter(g),
    requestRedirect: s.object({
      hostname: fHostname(g),
      path: pathModifier(g),
      port: portNumber(),
      scheme: s.enum('http', 'https'),
      statusCode: s.integer({ enum: [301, 302, 303, 307, 308] }).default(302),
    }).named('HTTPRequestRedirectFilter'),
    responseHeaderModifier: headerModifier(g),
    type: s.enum(...FILTER_FIELDS.map(([, t]) => t)).required(),
    urlRewrite: s.object({ hostname: fHostname(g), path: pathModifier(g) }).named('HTTPURLRewriteFilter'),
  }), FILTER_FIELDS.flatMap(([field, type]): Array<[string, string]> => [
    [`!has(self.${field}) || self.type == '${type}'`, `${field} is only allowed for filter type ${type}`],
    [`self.type != '${type}' || has(self.${field})`, `filter type ${type} needs ${field}`],
  ])).named('HTTPRouteFilter');
  const once = ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect', 'URLRewrite', 'CORS'];
  return gwRules(g, s.array(filter, { listType: 'atomic', maxItems: 16 }), [
    ["!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))", 'RequestRedirect and URLRewrite filters cannot be combined'],
    ...once.map((t): [string, string] => [`self.filter(f, f.type == '${t}').size() <= 1`, `at most one ${t} filter`]),
  ]);
}

function pathMatch(g: GatewayFlavor): ObjectSchema {
  const literal = "!(self.type in ['Exact', 'PathPrefix'])";
  const forbidden = ['//', '/./', '/../', '%2f', '%2F', '#'];
  return gwRules(g, s.object({
    type: s.enum('Exact', 'PathPrefix', 'RegularExpression').default('PathPrefix'),
    value: s.string({ maxLength: 1024 }).default('/'),
  }).default({ type: 'PathPrefix', value: '/' }), [
    [`${literal} || self.value.startsWith('/')`, 'an Exact or PathPrefix path must start with /'],
    ...forbidden.map((f): [string, string] => [`${literal} || !self.value.contains('${f}')`, `an Exact or PathPrefix path cannot contain '${f}'`]),
    [`${literal} || !self.value.endsWith('/..')`, "an Exact or PathPrefix path cannot end with '/..'"],
    [`${literal} || !self.value.endsWith('/.')`, "an Exact or PathPrefix path cannot end with '/.'"],
    ["self.type in ['Exact', 'PathPrefix', 'RegularExpression']", 'type must be Exact, PathPrefix or RegularExpression'],
    [`${literal} || self.value.matches(r"${PATH_PATTERN}")`, 'an Exact or PathPrefix path holds only valid URL path characters'],
  ]).named('HTTPPathMatch');
}

function httpRouteMatch(g: GatewayFlavor): ObjectSchema {
  const kind = s.enum('Exact', 'RegularExpression').default('Exact');
  return s.object({
    headers: headerList(g, 4096, { type: kind }),
    method: s.enum('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'),
    path: pathMatch(g),
    queryParams: headerList(g, 1024, { type: kind }),
  }).named('HTTPRouteMatch');
}

function httpRouteRule(g: GatewayFlavor): ObjectSchema {
  const backendRef = backendObjectReference(g).extend({
    filters: httpRouteFilters(g),
    weight: s.int32({ minimum: 0, maximum: 1000000 }).default(1),
  }).named('HTTPBackendRef');
  const singlePrefixMatch = "(has(self.matches) && size(self.matches) == 1 && has(self.matches[0].path) && self.matches[0].path.type == 'PathPrefix')";
  const prefixRewrite = (f: string) =>
    `has(f.${f}) && has(f.${f}.path) && f.${f}.path.type == 'ReplacePrefixMatch' && has(f.${f}.path.replacePrefixMatch)`;
  const rule = gwRules(g, s.object({
    backendRefs: s.array(backendRef, { listType: 'atomic', maxItems: 16 }),
    filters: httpRouteFilters(g),
    matches: s.array(httpRouteMatch(g), { listType: 'atomic', maxItems: 64 }).default([{ path: { type: 'PathPrefix', value: '/' } }]),
    name: fSectionName(g),
    retry: s.object({
      attempts: s.integer(),
      backoff: fDuration(g),
      codes: s.array(s.integer(), { listType: 'atomic' }),
    }).named('HTTPRouteRetry'),
    sessionPersistence: gwRules(g, s.object({
      absoluteTimeout: fDuration(g),
      cookieConfig: s.object({ lifetimeType: s.enum('Permanent', 'Session').default('Session') }),
      idleTimeout: fDuration(g),
      sessionName: s.string({ maxLength: 128 }),
      type: s.enum('Cookie', 'Header').default('Cookie'),
    }), [
      ["!has(self.cookieConfig) || !has(self.cookieConfig.lifetimeType) || self.cookieConfig.lifetimeType != 'Permanent' || has(self.absoluteTimeout)", 'a Permanent cookie needs absoluteTimeout'],
      ["!has(self.cookieConfig) || !has(self.type) || self.type == 'Cookie'", 'cookieConfig needs type Cookie'],
    ]).named('SessionPersistence'),
    timeouts: gwRules(g, s.object({ backendRequest: fDuration(g), request: fDuration(g) }), [[
      "!(has(self.request) && has(self.backendRequest)) || duration(self.request) == duration('0s') || duration(self.backendRequest) <= duration(self.request)",
      'backendRequest timeout cannot exceed request timeout',
    ]]).named('HTTPRouteTimeouts'),
  }), [
    ['!has(self.backendRefs) || size(self.backendRefs) == 0 || !has(self.filters) || self.filters.all(f, !has(f.requestRedirect))', 'a RequestRedirect filter cannot be used with backendRefs'],
    [`!(has(self.filters) && self.filters.exists(f, ${prefixRewrite('requestRedirect')})) || ${singlePrefixMatch}`, 'a RequestRedirect with replacePrefixMatch needs exactly one PathPrefix match'],
    [`!(has(self.filters) && self.filters.exists(f, ${prefixRewrite('urlRewrite')})) || ${singlePrefixMatch}`, 'a URLRewrite with replacePrefixMatch needs exactly one PathPrefix match'],
    [`!(has(self.backendRefs) && self.backendRefs.exists(b, has(b.filters) && b.filters.exists(f, ${prefixRewrite('requestRedirect')}))) || ${singlePrefixMatch}`, 'a backend RequestRedirect with replacePrefixMatch needs exactly one PathPrefix match'],
    [`!(has(self.backendRefs) && self.backendRefs.exists(b, has(b.filters) && b.filters.exists(f, ${prefixRewrite('urlRewrite')}))) || ${singlePrefixMatch}`, 'a backend URLRewrite with replacePrefixMatch needs exactly one PathPrefix match'],
  ]).named('HTTPRouteRule');
  return rule;
}

/** gwapiv1.HTTPRouteSpec, embedded in spec.router.route.http.spec. */
export function gatewayHttpRouteSpec(g: GatewayFlavor): ObjectSchema {
  // Unrolled over the 16 allowed rules so that the API server can bound the cost.
  const totalMatches = Array.from({ length: 16 }, (_, i) =>
    `(size(self) > ${i} && has(self[${i}].matches) ? size(self[${i}].matches) : 0)`).join(' + ');
  return s.object({
    hostnames: s.array(gwString(g, { minLength: 1, maxLength: 253, pattern: HOSTNAME_PATTERN }), { listType: 'atomic', maxItems: 16 }),
    parentRefs: s.array(parentReference(g), { listType: 'atomic', maxItems: 32 }),
    rules: gwRules(g, s.array(httpRouteRule(g), { listType: 'atomic', minItems: g.strict ? 1 : undefined, maxItems: 16 }), [
      [`${totalMatches} <= 128`, 'a route holds at most 128 matches across its rules'],
    ]).default([{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]),
    useDefaultGateways: s.enum('All', 'None'),
  }).named('GatewayHTTPRouteSpec');
}

// ---------------------------------------------------------------------------------------
// Gateway API Inference Extension: InferencePool spec (v1alpha2 of the extension in our
// v1alpha1, v1 of the extension in our v1alpha2).

export function inferencePoolSpec(v: LlmVersion, g: GatewayFlavor): ObjectSchema {
  if (v === 'v1alpha1') {
    return s.object({
      extensionRef: s.object({
        failureMode: s.enum('FailOpen', 'FailClose').required(),
        group: fGroup(g),
        kind: fKind(g),
        name: fName(g).required(),
        portNumber: portNumber(),
      }).named('InferencePoolExtension'),
      selector: s.map(s.string({ minLength: 0, maxLength: 63 })).required(),
      targetPortNumber: s.int32().required(),
    }).named('InferencePoolSpec');
  }
  return s.object({
    appProtocol: s.enum('http', 'kubernetes.io/h2c').default('http'),
    endpointPickerRef: gwRules(g, s.object({
      failureMode: s.enum('FailOpen', 'FailClose').default('FailClose'),
      group: gwString(g, { minLength: 0, maxLength: 253, pattern: GROUP_PATTERN }).default(''),
      kind: fKind(g).default('Service'),
      name: fName(g).required(),
      port: s.object({ number: portNumber().required() }),
    }), [["(has(self.kind) && self.kind != 'Service') || has(self.port)", 'an endpoint picker Service (the default kind) needs a port']])
      .named('EndpointPickerRef').required(),
    // As in the Inference Extension's own InferencePool (GIE-POOL-VALIDATION): at least one label, label-value syntax.
    selector: s.object({ matchLabels: (g.strict ? s.map(labelValue(), { minProperties: 1, maxProperties: 64 }) : s.stringMap()).required() }).required(),
    targetPorts: gwRules(g, s.array(s.object({ number: portNumber().required() }), { listType: 'atomic', minItems: g.strict ? 1 : undefined, maxItems: 8 }), [
      ['self.all(p1, self.exists_one(p2, p1.number == p2.number))', 'target port numbers must be unique'],
    ]).required(),
  }).named('InferencePoolSpec');
}

// ---------------------------------------------------------------------------------------
// Small Kubernetes types, spelled out field by field as KServe's CRDs render them (plain
// core types: atomic references whose name defaults to "", HPA behavior).

/** corev1.LocalObjectReference (atomic). */
export const localObjectReference = plainCore('V1LocalObjectReference').named('LocalObjectReference');

/** corev1.TypedLocalObjectReference (atomic). */
const typedLocalObjectReference = plainCore('V1TypedLocalObjectReference');

/** autoscaling/v2 HorizontalPodAutoscalerBehavior (tolerance as a quantity, policies atomic). */
const hpaScalingRules = plainCore('V2HPAScalingRules').named('HPAScalingRules');
export const hpaBehavior = plainCore('V2HorizontalPodAutoscalerBehavior', { scaleDown: hpaScalingRules, scaleUp: hpaScalingRules })
  .named('HorizontalPodAutoscalerBehavior');

// ---------------------------------------------------------------------------------------
// KServe LLM types

/** KEDA ScaledObject settings: without triggers under wva (WVA supplies the metric). */
const kedaActuator = s.object({
  advanced: s.object({
    horizontalPodAutoscalerConfig: s.object({ behavior: hpaBehavior, name: s.string() }),
    restoreToOriginalReplicaCount: s.boolean(),
    scalingModifiers: s.object({
      activationTarget: s.string(),
      formula: s.string(),
      metricType: s.enum('AverageValue', 'Value'),
      target: s.string(),
    }),
  }).named('KEDAAdvancedConfig'),
  cooldownPeriod: s.int32({ minimum: 0 }),
  fallback: s.object({
    behavior: s.enum('static', 'currentReplicas', 'currentReplicasIfHigher', 'currentReplicasIfLower').default('static'),
    failureThreshold: s.int32().required(),
    replicas: s.int32().required(),
  }).named('KEDAFallback'),
  idleReplicaCount: s.int32({ minimum: 0 }),
  initialCooldownPeriod: s.int32({ minimum: 0 }),
  pollingInterval: s.int32({ minimum: 1 }),
}).rule(
  '!has(self.advanced) || !has(self.advanced.horizontalPodAutoscalerConfig) || !has(self.advanced.horizontalPodAutoscalerConfig.name)',
  'horizontalPodAutoscalerConfig.name is managed by the controller',
).named('KEDAActuatorSpec');

/** KEDA as the autoscaler itself, with its triggers. */
const kedaScaling = kedaActuator.extend({
  triggers: s.array(s.object({
    authenticationRef: s.object({ kind: s.string(), name: s.string().required() }),
    metadata: s.stringMap().required(),
    metricType: s.string(),
    name: s.string(),
    type: s.string().required(),
    useCachedMetrics: s.boolean(),
  }).named('KEDATrigger'), { listType: 'atomic', minItems: 1 }).required(),
}).named('KEDAScalingSpec');

const wvaScaling = s.object({
  hpa: s.object({ behavior: hpaBehavior }).named('HPAScalingSpec'),
  keda: kedaActuator,
  variantCost: s.string({ pattern: '^\\d+(\\.\\d+)?$' }).default('10.0'),
})
  .rule('!(has(self.hpa) && has(self.keda))', 'hpa and keda are mutually exclusive')
  .rule('has(self.hpa) || has(self.keda)', 'wva needs either hpa or keda as its actuator')
  .rule(
    '!has(self.keda) || !has(self.keda.advanced) || !has(self.keda.advanced.scalingModifiers)',
    'scalingModifiers cannot be set under wva: WVA supplies the scaling metric',
  )
  .named('WVASpec');

const idle = (path: string): Array<[string, string]> => [
  [`!has(self.${path}) || !has(self.${path}.idleReplicaCount) || has(self.minReplicas)`, `${path}.idleReplicaCount needs minReplicas`],
  [`!has(self.${path}) || !has(self.${path}.idleReplicaCount) || !has(self.minReplicas) || self.${path}.idleReplicaCount < self.minReplicas`, `${path}.idleReplicaCount must be less than minReplicas`],
];

export const scalingSpec = [
  ['!(has(self.wva) && has(self.keda))', 'wva and keda are mutually exclusive'] as [string, string],
  ['has(self.wva) || has(self.keda)', 'scaling needs either wva or keda'] as [string, string],
  ['!has(self.minReplicas) || self.minReplicas <= self.maxReplicas', 'minReplicas cannot exceed maxReplicas'] as [string, string],
  ...idle('keda'),
  // wva.keda: has() on a nested path needs the parent to exist.
  ...idle('wva.keda').map(([r, m]): [string, string] => [`!has(self.wva) || ${r}`, m]),
  [
    '(!has(self.keda) || !has(self.keda.fallback) || self.keda.fallback.replicas <= self.maxReplicas) && (!has(self.wva) || !has(self.wva.keda) || !has(self.wva.keda.fallback) || self.wva.keda.fallback.replicas <= self.maxReplicas)',
    'fallback replicas cannot exceed maxReplicas',
  ] as [string, string],
].reduce((n, [r, m]) => n.rule(r, m), s.object({
  keda: kedaScaling,
  maxReplicas: s.int32({ minimum: 1 }).required(),
  minReplicas: s.int32({ minimum: 1 }).default(1),
  wva: wvaScaling,
})).named('ScalingSpec');

export const parallelismSpec = s.object({
  data: s.int32({ minimum: 1 }),
  dataLocal: s.int32({ minimum: 1 }),
  dataRPCPort: s.int32({ minimum: 1, maximum: 65535 }),
  expert: s.boolean(),
  pipeline: s.int32({ minimum: 1 }),
  tensor: s.int32({ minimum: 1 }),
}).named('ParallelismSpec');

/** KV cache offloading to CPU memory and secondary file-system tiers (v1alpha2). */
export const kvCacheOffloadingSpec = s.object({
  cpu: s.quantity().required(),
  evictionPolicy: s.enum('lru', 'arc').default('lru'),
  secondary: s.array(s.object({
    fileSystem: s.object({
      emptyDir: s.object({ size: s.quantity().required() }),
      pvc: s.object({
        ref: s.object({ name: s.string().required(), path: s.string() }),
        spec: core('V1PersistentVolumeClaimSpec'),
      }),
    }),
  }).named('KVCacheTier')),
}).named('KVCacheOffloadingSpec');

/** The pods of one workload (the main one, or prefill in a disaggregated setup). */
export function workloadSpec(v: LlmVersion): ObjectSchema {
  const base = s.object({
    annotations: s.stringMap(),
    labels: s.stringMap(),
    parallelism: parallelismSpec,
    replicas: s.int32({ minimum: 0 }),
    rolloutStrategy: s.object({ maxSurge: s.intOrString(), maxUnavailable: s.intOrString() }).named('RolloutStrategy'),
    scaling: scalingSpec,
    template: core('V1PodSpec'),
    worker: core('V1PodSpec'),
  });
  const props = v === 'v1alpha1' ? base : base.extend({ kvCacheOffloading: kvCacheOffloadingSpec });
  return props.rule('!(has(self.replicas) && has(self.scaling))', 'replicas and scaling are mutually exclusive').named('WorkloadSpec');
}

export function llmModelSpec(v: LlmVersion): ObjectSchema {
  const base = s.object({
    lora: s.object({
      adapters: s.any().describe('LLMModelSpec entries (recursive, so left open).'),
      maxAdapters: s.int32({ minimum: 1 }),
      maxCpuAdapters: s.int32({ minimum: 1 }),
      maxRank: s.int32({ minimum: 1 }),
    }).named('LoRASpec'),
    name: s.string(),
    uri: s.string().required(),
  });
  const versioned = v === 'v1alpha1'
    ? base.extend({ criticality: s.enum('Critical', 'Standard', 'Sheddable') })
    : base.extend({ confidential: s.object({ enabled: s.boolean().required(), resourceId: s.string() }).named('ConfidentialSpec') });
  return versioned.named('LLMModelSpec');
}

export function routerSpec(v: LlmVersion, g: GatewayFlavor): ObjectSchema {
  const untypedRef = s.object({ name: objectName(), namespace: gwNamespace() });
  return s.object({
    gateway: s.object({ refs: s.array(untypedRef.extend({ sectionName: sectionName() }).named('GatewayObjectRef')) }),
    ingress: s.object({ refs: s.array(untypedRef.named('UntypedObjectReference')) }),
    route: s.object({
      group: s.string({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$' }),
      http: s.object({
        refs: s.array(localObjectReference),
        spec: gatewayHttpRouteSpec(g),
      }).named('HTTPRouteSpec'),
      weight: s.int32({ minimum: 0, maximum: 1000000 }),
    }).named('GatewayRoutesSpec'),
    scheduler: s.object({
      annotations: s.stringMap(),
      config: s.object({
        inline: s.openObject(),
        ref: plainCore('V1ConfigMapKeySelector'),
      }).named('SchedulerConfigSpec'),
      labels: s.stringMap(),
      pool: s.object({ ref: plainCore('V1LocalObjectReference'), spec: inferencePoolSpec(v, g) }).named('InferencePoolRef'),
      replicas: s.int32(),
      template: core('V1PodSpec'),
      tokenizer: s.object({ template: core('V1PodSpec') }),
    }).named('SchedulerSpec'),
  }).named('RouterSpec');
}

/** The spec shared by LLMInferenceService and LLMInferenceServiceConfig. */
export function llmInferenceServiceSpec(v: LlmVersion, g: GatewayFlavor): ObjectSchema {
  const workload = workloadSpec(v);
  return workload.extend({
    baseRefs: s.array(localObjectReference),
    model: llmModelSpec(v),
    prefill: workload,
    router: routerSpec(v, g),
    storageInitializer: s.object({ enabled: s.boolean() }),
    tracing: s.object({
      exporter: s.string(),
      exporterEndpoint: s.string(),
      sampler: s.string(),
      samplerArg: s.string(),
    }).named('TracingSpec'),
  }).named('LLMInferenceServiceSpec');
}

// ---------------------------------------------------------------------------------------
// Status

/** Knative duck-typed conditions (the same KnativeCondition as InferenceService's). */
const knativeConditions = s.array(knativeCondition);

/** Knative duckv1.Status: conditions, annotations and the observed generation. */
export const knativeStatus = s.object({
  annotations: s.stringMap(),
  conditions: knativeConditions,
  observedGeneration: s.int64(),
});

const addressable = s.object({ CACerts: s.string(), audience: s.string(), name: s.string(), url: s.string() }).named('Addressable');

const routerStatus = (v: LlmVersion) => {
  const base = s.object({
    gateways: s.array(gatewayObjectReference.extend({
      httpRoutes: s.array(gatewayObjectReference, { listType: 'atomic' }),
      listeners: s.array(s.string(), { listType: 'atomic' }),
    }).named('ObservedGateway'), { listType: 'atomic' }),
    scheduler: s.object({ inferencePool: gatewayObjectReference, service: gatewayObjectReference }).named('ObservedSchedulerStatus'),
  });
  if (v === 'v1alpha1') return base.named('RouterStatus');
  return base.extend({
    group: s.object({
      members: s.array(s.object({
        backendRef: backendObjectReference(STRICT),
        name: s.string().required(),
        stopped: s.boolean(),
        weight: s.int32().required(),
      }), { listType: 'map', listMapKeys: ['name'] }),
      name: s.string().required(),
    }).named('RouterGroupStatus'),
  }).named('RouterStatus');
};

export function llmInferenceServiceStatus(v: LlmVersion): ObjectSchema {
  const base = knativeStatus.extend({
    address: addressable,
    addresses: s.array(addressable),
    router: routerStatus(v),
    url: s.string(),
  });
  if (v === 'v1alpha1') return base.named('LLMInferenceServiceStatus');
  const workload = typedLocalObjectReference.extend({ readyReplicas: s.int32() });
  return base.extend({
    addresses: s.array(addressable.extend({
      models: s.array(s.object({ name: s.string().required() })),
      origin: gatewayObjectReference,
    }).named('SourcedAddress'), { listType: 'atomic' }),
    appliedConfigs: s.array(s.object({
      name: objectName().required(),
      namespace: gwNamespace().required(),
      source: s.enum('Preset', 'UserRef').required(),
    }).named('AppliedConfigRef'), { listType: 'atomic' }),
    workloads: s.object({
      prefill: workload,
      primary: workload,
      scheduler: workload,
      service: typedLocalObjectReference,
    }).named('WorkloadStatus'),
  }).named('LLMInferenceServiceStatus');
}

export function llmInferenceServiceConfigStatus(v: LlmVersion): ObjectSchema {
  if (v === 'v1alpha1') return knativeStatus.named('LLMInferenceServiceConfigStatus');
  return knativeStatus.extend({
    referencedBy: s.array(s.object({ name: objectName(), namespace: gwNamespace() }).named('ConfigReference'), { listType: 'atomic' }),
  }).named('LLMInferenceServiceConfigStatus');
}
