/**
 * The opendatahub platform from what Open Data Hub users write: a DataScienceCluster (DSC) and a
 * DSCInitialization (DSCI), at the API versions ODH operator v3.4.0 serves (DSC v1 and v2, DSCI
 * v1 and v2). The input is checked against the schemas of the operator's published CRDs
 * (platforms/opendatahub-dsc-api.json, made by scripts/extract-odh-api.ts), defaulted as the API
 * server defaults it, converted from v1 as the operator converts it, and mapped to
 * OpenDataHubPlatformProps by the table below (DSC_COMPONENTS). Used by
 * `OpenDataHubPlatform.fromDataScienceCluster` and `mlplatform synth --dsc FILE [--dsci FILE]`.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Construct } from 'constructs';
import * as YAML from 'yaml';
import type { OpenDataHubPlatform, OpenDataHubPlatformProps } from './opendatahub';
import API_DATA from './opendatahub-dsc-api.json';
import { PlatformError } from '../lib/platform';
import { closestKey } from '../lib/prop-keys';

type Json = Record<string, unknown>;

interface ServedVersion {
  readonly served: boolean;
  readonly storage: boolean;
  readonly spec: Json;
}

interface OdhApi {
  readonly operator: { readonly repository: string; readonly tag: string; readonly commit: string };
  readonly group: { readonly dataScienceCluster: string; readonly dscInitialization: string };
  readonly defaults: { readonly dataScienceCluster: Json; readonly dscInitialization: Json };
  readonly dataScienceCluster: Readonly<Record<string, ServedVersion>>;
  readonly dscInitialization: Readonly<Record<string, ServedVersion>>;
}

const API = API_DATA as unknown as OdhApi;

/** The ODH operator release whose DataScienceCluster and DSCInitialization APIs are read. */
export const ODH_OPERATOR_RELEASE = API.operator.tag;

/** A DSC component that maps to components of the platform, or that the project does not provide. */
export interface DscComponentMapping {
  /** The field under spec.components (DSC v2; `v1Field` when v1 names it otherwise). */
  readonly field: string;
  readonly v1Field?: string;
  /** Our component ids it turns on (Managed) or off (Removed, or absent). */
  readonly components: readonly string[];
  /** Why the project does not provide it: Managed is then an error unless skipped. */
  readonly unsupported?: string;
  /** Only in DSC v1: the operator drops it when it converts v1 to v2. */
  readonly v1Only?: boolean;
}

/**
 * DSC spec.components -> our components (kserve's sub-settings are mapped in `kserveSettings`).
 * Components of the platform no field names (codeflare, appwrapper, modelmesh-serving: the
 * operator at v3.4.0 deploys none of them) are off.
 */
export const DSC_COMPONENTS: readonly DscComponentMapping[] = [
  { field: 'dashboard', components: [], unsupported: 'the Open Data Hub dashboard (odh-dashboard) is not a component of this project' },
  { field: 'workbenches', components: ['notebook-controller'] },
  { field: 'aipipelines', v1Field: 'datasciencepipelines', components: ['data-science-pipelines-operator'] },
  // odh-model-controller: the operator deploys it with KServe; the Inference Extension's and llm-d's CRDs serve KServe's LLMInferenceService.
  { field: 'kserve', components: ['kserve', 'odh-model-controller', 'gateway-api-inference-extension', 'llm-d-router'] },
  { field: 'kueue', components: ['kueue'] },
  { field: 'ray', components: ['kuberay'] },
  { field: 'trustyai', components: [], unsupported: 'the TrustyAI service operator is not a component of this project' },
  { field: 'modelregistry', components: ['model-registry-operator'] },
  { field: 'trainingoperator', components: ['training-operator'] },
  { field: 'feastoperator', components: [], unsupported: 'the Feast operator is not a component of this project' },
  { field: 'llamastackoperator', components: ['llama-stack-k8s-operator'] },
  { field: 'mlflowoperator', components: ['mlflow-operator'] },
  // Trainer runs its jobs as JobSets: JobSet comes with it.
  { field: 'trainer', components: ['trainer', 'jobset'] },
  { field: 'sparkoperator', components: ['spark-operator'] },
  { field: 'codeflare', components: [], v1Only: true, unsupported: `ODH operator ${API.operator.tag} drops DSC v1's codeflare when it converts the DSC to v2 and deploys no CodeFlare operator` },
  { field: 'modelmeshserving', components: [], v1Only: true, unsupported: `ODH operator ${API.operator.tag} drops DSC v1's modelmeshserving when it converts the DSC to v2 and deploys no ModelMesh` },
];

/** kserve sub-components: on when KServe and they are Managed. */
const KSERVE_PARTS: ReadonlyArray<{ field: string; components: readonly string[] }> = [
  { field: 'wva', components: ['workload-variant-autoscaler'] },
  // Models-as-a-Service publishes external models through the AI gateway payload processing (ExternalModel).
  { field: 'modelsAsService', components: ['models-as-a-service', 'ai-gateway-payload-processing'] },
];

/** Our components no DSC field decides: the operator at v3.4.0 deploys none of them. */
const NOT_DEPLOYED_BY_THE_OPERATOR = ['appwrapper', 'codeflare', 'modelmesh-serving'];

/** Settings the DSCI's v1 API has and v2 dropped, which the operator ignores: Managed is unsupported. */
const SERVICE_MESH = 'serviceMesh';

/** Fields that moved or went away, with what to do (shown instead of a plain "unknown field"). */
const MOVED: Record<string, string> = {
  'dsc v2 spec.components.datasciencepipelines': 'DSC v2 names it aipipelines (datasciencepipelines is DSC v1\'s name)',
  'dsc v2 spec.components.codeflare': `only DSC v1 has codeflare, and ODH operator ${API.operator.tag} deploys no CodeFlare operator; remove it`,
  'dsc v2 spec.components.modelmeshserving': `only DSC v1 has modelmeshserving, and ODH operator ${API.operator.tag} deploys no ModelMesh; remove it`,
  'dsc v1 spec.components.aipipelines': 'DSC v1 names it datasciencepipelines (aipipelines is DSC v2\'s name)',
  'dsc v1 spec.components.trainer': 'only DSC v2 has trainer: use apiVersion datasciencecluster.opendatahub.io/v2',
  'dsc v1 spec.components.mlflowoperator': 'only DSC v2 has mlflowoperator: use apiVersion datasciencecluster.opendatahub.io/v2',
  'dsc v1 spec.components.sparkoperator': 'only DSC v2 has sparkoperator: use apiVersion datasciencecluster.opendatahub.io/v2',
  'dsc v1 spec.components.kserve.defaultDeploymentMode': `ODH operator ${API.operator.tag} runs KServe in RawDeployment mode only; remove it`,
  'dsc v2 spec.components.kserve.defaultDeploymentMode': `ODH operator ${API.operator.tag} runs KServe in RawDeployment mode only; remove it`,
  'dsc v1 spec.components.kserve.serving': `ODH operator ${API.operator.tag} has no Serverless (Knative) serving for KServe; remove it`,
  'dsc v2 spec.components.kserve.serving': `ODH operator ${API.operator.tag} has no Serverless (Knative) serving for KServe; remove it`,
  'dsci v2 spec.serviceMesh': 'only DSCI v1 has serviceMesh, and the operator ignores it; remove it',
};

export interface DataScienceClusterOptions {
  /**
   * Managed DSC components (or the DSCI's `serviceMesh`) the project does not provide, to leave
   * out instead of failing: e.g. ['dashboard', 'trustyai', 'feastoperator'].
   * @default none: any such Managed component is an error
   */
  readonly skipUnsupported?: readonly string[];
  /**
   * Further props of the platform (images, controllers, kubernetesVersion, patches, ...).
   * Props the DSC or DSCI decides (their components, namespaces, KServe, model registry,
   * trusted CA bundle, the monitoring namespace) are an error here: change the DSC or DSCI.
   */
  readonly props?: OpenDataHubPlatformProps;
  /** Names of the inputs in messages (file names). @default 'DataScienceCluster', 'DSCInitialization' */
  readonly dscSource?: string;
  readonly dsciSource?: string;
}

/** What a DSC and DSCI map to. */
export interface DataScienceClusterMapping {
  readonly props: OpenDataHubPlatformProps;
  /** Managed components left out because skipUnsupported names them. */
  readonly skipped: readonly string[];
  /** Accepted settings the platform does not act on, each with why. */
  readonly notes: readonly string[];
}

/** Bad DSC or DSCI input: every problem found (listed as a platform's problems are). */
export class DataScienceClusterError extends PlatformError {
  constructor(problems: readonly string[]) {
    super([...problems]);
    this.name = 'DataScienceClusterError';
  }
}

const validators = new Map<string, ValidateFunction>();
function validatorOf(kind: 'dataScienceCluster' | 'dscInitialization', version: string): ValidateFunction {
  const key = `${kind}/${version}`;
  let v = validators.get(key);
  if (!v) {
    // useDefaults: the CRD's defaults fill absent fields as the API server's defaulting does.
    // verbose: errors carry their schema node (the fields an object takes, for "did you mean").
    // Loaded here, not at the top: every opendatahub platform loads this module, and only one
    // made from a DataScienceCluster validates with ajv (a synth whose verdicts are all kept
    // does without it).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Ajv = (require('ajv') as typeof import('ajv')).default;
    const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, verbose: true });
    for (const [name, bits] of [['int32', 31], ['int64', 63]] as const) {
      ajv.addFormat(name, { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** bits });
    }
    v = ajv.compile(API[kind][version].spec);
    validators.set(key, v);
  }
  return v;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function jsonPath(base: string, pointer: string): string {
  return pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : `${acc}.${p}`), base);
}

function show(v: unknown): string {
  return typeof v === 'string' ? `'${v}'` : (JSON.stringify(v) ?? String(v)).slice(0, 80);
}

/** Problems of one ajv error, in words: the field, the value, what it must be. */
function errorText(e: ErrorObject, where: string, tag: string, spec: Json): string {
  const at = jsonPath('spec', e.instancePath);
  const value = e.instancePath.split('/').slice(1).reduce<unknown>((o, k) => (isObject(o) || Array.isArray(o) ? (o as Json)[k] : undefined), spec);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys(((e.parentSchema as Json | undefined)?.properties as Json | undefined) ?? {});
      const moved = MOVED[`${tag} ${at}.${key}`];
      const meant = closestKey(key, known);
      const hint = moved ?? (meant ? `did you mean '${meant}'?` : `${at} takes ${known.join(', ')}`);
      return `${where}: ${at}.${key} is not a field of ${tag.replace(/^dsci?/, (k) => k.toUpperCase())} at ODH operator ${API.operator.tag}; ${hint}`;
    }
    case 'enum':
      return `${where}: ${at}: ${show(value)} is not one of ${((e.params as { allowedValues: unknown[] }).allowedValues).map(show).join(', ')}`;
    case 'required':
      return `${where}: ${at}.${(e.params as { missingProperty: string }).missingProperty} is required`;
    case 'type':
      return `${where}: ${at}: ${show(value)} must be ${(e.params as { type: string }).type}`;
    case 'pattern':
      return `${where}: ${at}: ${show(value)} does not match ${(e.params as { pattern: string }).pattern}${/namespace/i.test(at) ? ' (a lower-case DNS label)' : ''}`;
    default:
      return `${where}: ${at}: ${show(value)} ${e.message ?? 'is not valid'}`;
  }
}

interface Checked {
  readonly version: string;
  /** The spec, defaulted (a copy). */
  readonly spec: Json;
}

/** Checks apiVersion, kind and the spec against the operator's schema; the spec comes back defaulted. */
function checkObject(obj: unknown, kind: 'dataScienceCluster' | 'dscInitialization', where: string, problems: string[]): Checked | undefined {
  const kindName = kind === 'dataScienceCluster' ? 'DataScienceCluster' : 'DSCInitialization';
  const group = API.group[kind];
  const served = Object.keys(API[kind]);
  if (!isObject(obj)) {
    problems.push(`${where}: a ${kindName} must be an object (apiVersion: ${group}/${served[served.length - 1]}, kind: ${kindName}, spec: ...), not ${show(obj)}`);
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(obj)) {
    if (!['apiVersion', 'kind', 'metadata', 'spec', 'status'].includes(key)) {
      const meant = closestKey(key, ['apiVersion', 'kind', 'metadata', 'spec']);
      problems.push(`${where}: ${key} is not a field of a ${kindName}; ${meant ? `did you mean '${meant}'?` : 'it has apiVersion, kind, metadata, spec'}`);
    }
  }
  if (obj.kind !== kindName) problems.push(`${where}: kind ${show(obj.kind)} is not ${kindName}; give a ${kindName} here`);
  const apiVersion = String(obj.apiVersion ?? '');
  const [g, version] = apiVersion.split('/');
  if (g !== group || !served.includes(version)) {
    problems.push(`${where}: apiVersion ${show(obj.apiVersion)}: ODH operator ${API.operator.tag} serves ${served.map((v) => `${group}/${v}`).join(' and ')}`);
    return undefined;
  }
  const spec = obj.spec === undefined ? {} : obj.spec;
  if (!isObject(spec)) {
    problems.push(`${where}: spec must be an object, not ${show(spec)}`);
    return undefined;
  }
  const copy = JSON.parse(JSON.stringify(spec)) as Json;
  if (kind === 'dataScienceCluster') goStructRoundTrip(copy);
  const validate = validatorOf(kind, version);
  if (!validate(copy)) {
    const tag = `${kind === 'dataScienceCluster' ? 'dsc' : 'dsci'} ${version}`;
    const seen = new Set<string>();
    for (const e of validate.errors ?? []) {
      // An enum failure also fails the pattern beside it: one message is enough.
      if (e.keyword === 'pattern' && (validate.errors ?? []).some((o) => o.keyword === 'enum' && o.instancePath === e.instancePath)) continue;
      const text = errorText(e, where, tag, spec);
      if (!seen.has(text)) problems.push(text);
      seen.add(text);
    }
  }
  return problems.length > before ? undefined : { version, spec: copy };
}

/**
 * KServe's nim, wva and modelsAsService are struct fields (not pointers) in the operator's Go
 * types: the objects it writes from a DSC (the ModelController and Kserve CRs, the DSC it
 * creates at first install) carry them as {}, which the CRD defaults then fill. So an absent
 * nim is Managed, as on the cluster; wva and modelsAsService are Removed.
 */
function goStructRoundTrip(spec: Json): void {
  const kserve = isObject(spec.components) ? spec.components.kserve : undefined;
  if (!isObject(kserve)) return;
  for (const part of ['nim', 'wva', 'modelsAsService']) if (kserve[part] === undefined) kserve[part] = {};
}

function stateOf(v: unknown): string | undefined {
  return isObject(v) && typeof v.managementState === 'string' && v.managementState !== '' ? v.managementState : undefined;
}

/** The props a DSC and DSCI ask for (the DSCI the operator creates at first install when none is given). */
export function openDataHubPropsFromDataScienceCluster(dsc: unknown, dsci?: unknown, options: DataScienceClusterOptions = {}): DataScienceClusterMapping {
  const problems: string[] = [];
  const notes: string[] = [];
  const dscWhere = options.dscSource ?? 'DataScienceCluster';
  const dsciWhere = dsci === undefined ? `the DSCInitialization ODH operator ${API.operator.tag} creates at first install` : options.dsciSource ?? 'DSCInitialization';
  const d = checkObject(dsc, 'dataScienceCluster', dscWhere, problems);
  const i = checkObject(dsci ?? API.defaults.dscInitialization, 'dscInitialization', dsciWhere, problems);

  const unsupportedNames = [...DSC_COMPONENTS.filter((c) => c.unsupported).map((c) => c.field), SERVICE_MESH];
  const skip = new Set<string>();
  for (const s of options.skipUnsupported ?? []) {
    if (unsupportedNames.includes(s)) {
      skip.add(s);
    } else if (DSC_COMPONENTS.some((c) => c.field === s || c.v1Field === s)) {
      problems.push(`skipUnsupported: '${s}' is a component the platform provides; to leave it out, set spec.components.${s}.managementState: Removed in the DataScienceCluster`);
    } else {
      const meant = closestKey(s, unsupportedNames);
      problems.push(`skipUnsupported: '${s}' is not a DataScienceCluster component; ${meant ? `did you mean '${meant}'? ` : ''}the ones the platform does not provide are ${unsupportedNames.join(', ')}`);
    }
  }

  const components: Record<string, boolean> = Object.fromEntries(NOT_DEPLOYED_BY_THE_OPERATOR.map((c) => [c, false]));
  const skipped: string[] = [];
  const props: { -readonly [K in keyof OpenDataHubPlatformProps]: OpenDataHubPlatformProps[K] } = {};
  if (d) {
    const given = (d.spec.components ?? {}) as Json;
    const v1 = d.version === 'v1';
    const state = (field: string) => stateOf(given[field]);
    for (const m of DSC_COMPONENTS) {
      if (m.v1Only && !v1) continue;
      const field = v1 ? m.v1Field ?? m.field : m.field;
      const where = `${dscWhere}: spec.components.${field}.managementState`;
      const ms = state(field);
      const on = ms === 'Managed';
      if (m.unsupported) {
        if (on && skip.has(m.field)) {
          skipped.push(m.field);
        } else if (on) {
          problems.push(`${where}: Managed, but ${m.unsupported}; set it Removed, or leave it out of the platform with skipUnsupported: ['${m.field}'] (mlplatform synth --skip-unsupported ${m.field})`);
        }
        continue;
      }
      if (m.field === 'kueue' && ms === 'Managed') {
        problems.push(`${where}: Managed is refused by ODH operator ${API.operator.tag} (its DataScienceCluster webhook: Kueue comes from the Red Hat build of Kueue operator); use Unmanaged (that operator runs Kueue; the platform leaves Kueue out) or Removed`);
        continue;
      }
      if (m.field === 'kueue' && ms === 'Unmanaged') {
        notes.push(`${where}: Unmanaged: Kueue comes from the Red Hat build of Kueue operator, so the platform leaves its kueue component out; the default ClusterQueue and LocalQueue (defaultClusterQueueName, defaultLocalQueueName) are the ODH operator's run-time work`);
      }
      for (const c of m.components) components[c] = on;
    }
    // KServe's parts and settings.
    const kserve = isObject(given.kserve) ? given.kserve : {};
    const kserveOn = state('kserve') === 'Managed';
    for (const part of KSERVE_PARTS) for (const c of part.components) components[c] = kserveOn && stateOf(kserve[part.field]) === 'Managed';
    if (kserveOn) {
      const nim = isObject(kserve.nim) ? kserve.nim : {};
      if (nim.airGapped === true) {
        problems.push(`${dscWhere}: spec.components.kserve.nim.airGapped: true is not modelled (the odh-model-controller construct has no air-gapped NIM setting); set it false or remove it`);
      }
      props.kserve = {
        // The operator runs KServe in RawDeployment mode only and always turns ingress creation off.
        defaultDeploymentMode: 'RawDeployment',
        rawDeploymentServiceConfig: kserve.rawDeploymentServiceConfig === 'Headed' ? 'Headed' : 'Headless',
        ingressCreation: false,
        nim: stateOf(nim) === 'Managed',
      };
    }
    const pipelines = given[v1 ? 'datasciencepipelines' : 'aipipelines'];
    if (stateOf(pipelines) === 'Managed' && isObject(pipelines) && stateOf(pipelines.argoWorkflowsControllers) === 'Removed') {
      problems.push(`${dscWhere}: spec.components.${v1 ? 'datasciencepipelines' : 'aipipelines'}.argoWorkflowsControllers.managementState: Removed (Argo Workflows brought by you) is not supported: the data-science-pipelines-operator component emits the Argo Workflows CRDs it uses; set it Managed or remove it`);
    }
    if (state('modelregistry') === 'Managed') {
      const mr = given.modelregistry as Json;
      // The operator's defaulting webhook sets the registries namespace when it is empty.
      props.modelRegistry = { registriesNamespace: typeof mr.registriesNamespace === 'string' && mr.registriesNamespace ? mr.registriesNamespace : 'odh-model-registries', servingIntegration: kserveOn };
    }
    if (state('workbenches') === 'Managed') {
      const wb = given.workbenches as Json;
      // The operator's default for Open Data Hub (not the applications namespace).
      props.workbenchNamespace = typeof wb.workbenchNamespace === 'string' && wb.workbenchNamespace ? wb.workbenchNamespace : 'opendatahub';
    }
  }
  if (i) {
    const spec = i.spec;
    props.applicationsNamespace = typeof spec.applicationsNamespace === 'string' && spec.applicationsNamespace ? spec.applicationsNamespace : 'opendatahub';
    const monitoring = isObject(spec.monitoring) ? spec.monitoring : {};
    if (stateOf(monitoring) === 'Managed' && monitoring.metrics !== undefined) {
      // The operator's monitoring stack (a Prometheus in the monitoring namespace) scrapes the components.
      props.metricsFence = { monitoringNamespace: typeof monitoring.namespace === 'string' && monitoring.namespace ? monitoring.namespace : 'opendatahub' };
    }
    const runtime = ['traces', 'alerting', 'collectorReplicas'].filter((k) => monitoring[k] !== undefined);
    const metrics = isObject(monitoring.metrics) ? Object.keys(monitoring.metrics) : [];
    if (runtime.length || metrics.length) {
      notes.push(`${dsciWhere}: spec.monitoring ${[...metrics.map((k) => `metrics.${k}`), ...runtime].join(', ')}: the ODH operator's monitoring stack, not part of the platform`);
    }
    const ca = spec.trustedCABundle;
    if (isObject(ca) && typeof ca.managementState === 'string') {
      props.trustedCABundle = { managementState: ca.managementState as 'Managed' | 'Removed' | 'Unmanaged', customCABundle: typeof ca.customCABundle === 'string' ? ca.customCABundle : '' };
    }
    if (isObject(spec.devFlags)) notes.push(`${dsciWhere}: spec.devFlags: the ODH operator's own development settings, not part of the platform`);
    const mesh = spec.serviceMesh;
    if (isObject(mesh) && (mesh.managementState === 'Managed' || mesh.managementState === 'Unmanaged')) {
      if (skip.has(SERVICE_MESH)) {
        skipped.push(SERVICE_MESH);
      } else {
        problems.push(`${dsciWhere}: spec.serviceMesh.managementState: ${mesh.managementState}, but ODH operator ${API.operator.tag} drops DSCI v1's serviceMesh when it converts to v2 (KServe runs in RawDeployment mode, without Istio) and the platform runs no service mesh; set it Removed, or skipUnsupported: ['${SERVICE_MESH}'] (mlplatform synth --skip-unsupported ${SERVICE_MESH})`);
      }
    }
  }
  props.components = components;

  // Further props: only what the DSC and DSCI do not decide.
  const extra = options.props ?? {};
  const decided: Record<string, string> = {
    applicationsNamespace: 'the DSCInitialization\'s spec.applicationsNamespace',
    kserve: 'the DataScienceCluster\'s spec.components.kserve',
    modelRegistry: 'the DataScienceCluster\'s spec.components.modelregistry',
    workbenchNamespace: 'the DataScienceCluster\'s spec.components.workbenches.workbenchNamespace',
    trustedCABundle: 'the DSCInitialization\'s spec.trustedCABundle',
  };
  for (const [k, by] of Object.entries(decided)) {
    if ((extra as Json)[k] !== undefined) problems.push(`props.${k}: decided by ${by}; change it there`);
  }
  if (extra.namespaces?.applications !== undefined) problems.push(`props.namespaces.applications: decided by ${decided.applicationsNamespace}; change it there`);
  if (extra.metricsFence?.monitoringNamespace !== undefined && props.metricsFence) problems.push('props.metricsFence.monitoringNamespace: decided by the DSCInitialization\'s spec.monitoring.namespace; change it there');
  for (const id of Object.keys(extra.components ?? {})) {
    const m = DSC_COMPONENTS.find((c) => c.components.includes(id)) ?? (KSERVE_PARTS.find((p) => p.components.includes(id)) && { field: `kserve.${KSERVE_PARTS.find((p) => p.components.includes(id))!.field}` });
    if (m) problems.push(`props.components['${id}']: decided by the DataScienceCluster's spec.components.${m.field}.managementState; change it there`);
  }
  if (problems.length) throw new DataScienceClusterError(problems);
  return {
    props: {
      ...extra,
      ...props,
      components: { ...props.components, ...extra.components },
      metricsFence: props.metricsFence || extra.metricsFence ? { ...extra.metricsFence, ...props.metricsFence } : undefined,
    },
    skipped,
    notes,
  };
}

/** Parses a DSC or DSCI file (YAML or JSON, one document); a problem names the file. */
export function readDataScienceClusterFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new DataScienceClusterError([`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give the path of a DataScienceCluster or DSCInitialization YAML file`]);
  }
  const docs = YAML.parseAllDocuments(text).filter((doc) => doc.contents !== null);
  const bad = docs.flatMap((doc) => doc.errors);
  if (bad.length) throw new DataScienceClusterError([`${file}: not valid YAML: ${bad[0].message}`]);
  if (docs.length !== 1) throw new DataScienceClusterError([`${file}: holds ${docs.length} YAML documents; give one DataScienceCluster or DSCInitialization per file`]);
  return docs[0].toJS();
}

export interface DataScienceClusterFiles {
  readonly dsc: string;
  readonly dsci?: string;
  readonly skipUnsupported?: readonly string[];
  /** Relative file names are resolved from here. @default process.cwd() */
  readonly cwd?: string;
}

/**
 * The opendatahub platform (id `opendatahub`) from DSC and DSCI files, with the notes of what
 * it accepts but does not act on: what `mlplatform synth --dsc` builds.
 */
export function openDataHubPlatformFromFiles(scope: Construct, files: DataScienceClusterFiles): { platform: OpenDataHubPlatform; notes: readonly string[]; skipped: readonly string[] } {
  const resolve = (f: string) => path.resolve(files.cwd ?? process.cwd(), f);
  const dsc = readDataScienceClusterFile(resolve(files.dsc));
  const dsci = files.dsci === undefined ? undefined : readDataScienceClusterFile(resolve(files.dsci));
  const mapping = openDataHubPropsFromDataScienceCluster(dsc, dsci, { skipUnsupported: files.skipUnsupported, dscSource: files.dsc, dsciSource: files.dsci });
  // Loaded here, not at the top: opendatahub.ts imports this module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OpenDataHubPlatform: Odh } = require('./opendatahub') as typeof import('./opendatahub');
  return { platform: new Odh(scope, 'opendatahub', mapping.props), notes: mapping.notes, skipped: mapping.skipped };
}
