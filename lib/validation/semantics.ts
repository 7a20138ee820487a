/* eslint-disable no-bitwise -- IP addresses and CIDR masks are bit arithmetic */
import { crdIssues } from './crd';
import { parseCidr, parseIp } from './ip';
import { joinPath, show, ValidationIssue } from './issues';
import { admissionRule, atMost100, hpaMetrics, jobPolicies, KIND_RULES, matchConditions } from './kinds';
import { checkDnsLabel, checkDnsSubdomain, checkQualifiedName } from './names';
import { containerRules, isObj, list, Obj, parseQuantity, podSpecRules, Push, selectorSyntax, str } from './pod-spec';

/**
 * What the Kubernetes v1.32 API server checks in code for built-in kinds, beyond their
 * OpenAPI schema (facts from its validation package; the code and messages are ours):
 * selectors against template labels, unique names, references inside an object, requests
 * against limits, probe handlers, Secret types, data keys, Service, Ingress, NetworkPolicy
 * and webhook rules. One pass over each object: cost in proportion to its size.
 *
 * The object is expected to have passed (or been reported by) the schema check: values of
 * the wrong type are skipped here, never reported twice.
 */

export { parseQuantity } from './pod-spec';
export { parseCidr, parseIp } from './ip';

/** The API server's validation in code of a built-in object; issues carry rule ids. */
export function semanticIssues(obj: Obj): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const push: Push = (rule, path, message) => out.push({ rule, path, message });
  if (obj.apiVersion === 'apiextensions.k8s.io/v1' && obj.kind === 'CustomResourceDefinition') return crdIssues(obj);
  const key = `${obj.apiVersion}/${obj.kind}`;
  BY_KIND[key]?.(obj, push);
  KIND_RULES[key]?.(obj, push);
  return out;
}

const WORKLOAD_RESTART: Record<string, string[]> = {
  Deployment: ['Always'],
  StatefulSet: ['Always'],
  DaemonSet: ['Always'],
  ReplicaSet: ['Always'],
  ReplicationController: ['Always'],
  Job: ['OnFailure', 'Never'],
  CronJob: ['OnFailure', 'Never'],
};

const BY_KIND: Record<string, (o: Obj, push: Push) => void> = {
  'v1/Pod': (o, push) => podSpec(o.spec, 'spec', push, { isPod: true }),
  'v1/PodTemplate': (o, push) => template(o.template, 'template', push, undefined),
  'apps/v1/Deployment': (o, push) => { workload(o, push, true); deploymentStrategy(o.spec, push); },
  'apps/v1/StatefulSet': (o, push) => workload(o, push, true),
  'apps/v1/DaemonSet': (o, push) => workload(o, push, true),
  'apps/v1/ReplicaSet': (o, push) => workload(o, push, true),
  'v1/ReplicationController': (o, push) => replicationController(o, push),
  'batch/v1/Job': (o, push) => job(o.spec, 'spec', 'Job', push),
  'batch/v1/CronJob': (o, push) => {
    const jt = o.spec?.jobTemplate;
    if (isObj(jt)) job(jt.spec, 'spec.jobTemplate.spec', 'CronJob', push);
  },
  'v1/Service': (o, push) => service(o.spec, push),
  'v1/Secret': (o, push) => secret(o, push),
  'v1/ConfigMap': (o, push) => configMap(o, push),
  'networking.k8s.io/v1/Ingress': (o, push) => ingress(o.spec, push),
  'networking.k8s.io/v1/NetworkPolicy': (o, push) => networkPolicy(o.spec, push),
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': (o, push) => webhooks(o, push),
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': (o, push) => webhooks(o, push),
  'policy/v1/PodDisruptionBudget': (o, push) => {
    selectorSyntax(o.spec?.selector, 'spec.selector', push);
    if (o.spec?.minAvailable !== undefined && o.spec?.maxUnavailable !== undefined) {
      push('K8S-WORKLOAD', 'spec', 'minAvailable and maxUnavailable cannot both be set; keep one');
    }
    atMost100(o.spec?.minAvailable, 'spec.minAvailable', push, 'K8S-WORKLOAD');
    atMost100(o.spec?.maxUnavailable, 'spec.maxUnavailable', push, 'K8S-WORKLOAD');
  },
  'scheduling.k8s.io/v1/PriorityClass': (o, push) => {
    const name = String(o.metadata?.name ?? '');
    if (typeof o.value === 'number' && o.value > 1e9 && !name.startsWith('system-')) {
      push('K8S-RANGE', 'value', `a user-defined PriorityClass value is at most 1000000000 (got ${o.value}); higher values are reserved for system- classes`);
    }
  },
  'autoscaling/v2/HorizontalPodAutoscaler': (o, push) => hpa(o.spec, push),
  'autoscaling/v1/HorizontalPodAutoscaler': (o, push) => hpa(o.spec, push),
  'v1/LimitRange': (o, push) => limitRange(o.spec, push),
};

// ---------------------------------------------------------------- workloads and selectors

function workload(o: Obj, push: Push, selectorRequired: boolean): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  const labels = isObj(spec.template?.metadata?.labels) ? spec.template.metadata.labels : {};
  if (selectorRequired) {
    const sel = spec.selector;
    if (!isObj(sel) || (!Object.keys(sel.matchLabels ?? {}).length && !list(sel.matchExpressions).length)) {
      push('K8S-SELECTOR', 'spec.selector', `a ${o.kind} needs a non-empty selector that matches its template labels`);
    } else {
      selectorSyntax(sel, 'spec.selector', push);
      if (!selectorMatches(sel, labels)) {
        push('K8S-SELECTOR', 'spec.template.metadata.labels', `the template labels ${JSON.stringify(labels)} do not match spec.selector; a ${o.kind} only owns pods its selector selects`);
      }
    }
  }
  // A StatefulSet's volumeClaimTemplates are volumes of its pods.
  const claims = list(spec.volumeClaimTemplates).map((c) => c?.metadata?.name).filter(str);
  template(spec.template, 'spec.template', push, o.kind, claims);
}

function replicationController(o: Obj, push: Push): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  const labels = spec.template?.metadata?.labels ?? {};
  const sel = spec.selector;
  if (isObj(sel) && Object.keys(sel).length && !Object.entries(sel).every(([k, v]) => labels[k] === v)) {
    push('K8S-SELECTOR', 'spec.template.metadata.labels', 'the template labels do not match spec.selector');
  }
  template(spec.template, 'spec.template', push, 'ReplicationController');
}

function job(spec: any, at: string, kind: string, push: Push): void {
  if (!isObj(spec)) return;
  if (isObj(spec.selector)) {
    if (spec.manualSelector !== true) {
      push('K8S-SELECTOR', joinPath(at, 'selector'), 'a Job selector is generated by the API server; set manualSelector: true to give your own, or leave selector out');
    }
    selectorSyntax(spec.selector, joinPath(at, 'selector'), push);
    if (!selectorMatches(spec.selector, spec.template?.metadata?.labels ?? {})) {
      push('K8S-SELECTOR', joinPath(at, 'template.metadata.labels'), 'the template labels do not match the Job selector');
    }
  }
  if (spec.completionMode === 'Indexed' && spec.completions === undefined) {
    push('K8S-WORKLOAD', joinPath(at, 'completions'), 'an Indexed Job needs completions');
  }
  jobPolicies(spec, at, push);
  template(spec.template, joinPath(at, 'template'), push, kind);
}

function deploymentStrategy(spec: any, push: Push): void {
  const strategy = spec?.strategy;
  if (!isObj(strategy)) return;
  if (strategy.type === 'Recreate' && strategy.rollingUpdate !== undefined) {
    push('K8S-WORKLOAD', 'spec.strategy.rollingUpdate', 'rollingUpdate cannot be set when the strategy type is Recreate');
  }
  const ru = strategy.rollingUpdate;
  if (isObj(ru)) atMost100(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', push, 'K8S-WORKLOAD');
  if (isObj(ru) && isZero(ru.maxSurge ?? '25%') && isZero(ru.maxUnavailable ?? '25%')) {
    push('K8S-WORKLOAD', 'spec.strategy.rollingUpdate', 'maxSurge and maxUnavailable cannot both be 0: the rollout could not make progress');
  }
  if (typeof spec.progressDeadlineSeconds === 'number' && spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
    push('K8S-WORKLOAD', 'spec.progressDeadlineSeconds', 'must be greater than minReadySeconds');
  }
}

const isZero = (v: unknown) => v === 0 || v === '0%' || v === '0';

function hpa(spec: any, push: Push): void {
  if (!isObj(spec)) return;
  if (typeof spec.maxReplicas === 'number' && spec.maxReplicas < (spec.minReplicas ?? 1)) {
    push('K8S-WORKLOAD', 'spec.maxReplicas', `must be at least minReplicas (${spec.minReplicas ?? 1})`);
  }
  hpaMetrics(spec, push);
}

/** True if the label selector (matchLabels and matchExpressions) selects the labels. */
export function selectorMatches(sel: Obj, labels: Record<string, unknown>): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of list(sel.matchExpressions)) {
    const has = Object.prototype.hasOwnProperty.call(labels, e?.key);
    const values = list(e?.values);
    switch (e?.operator) {
      case 'In': if (!has || !values.includes(labels[e.key])) return false; break;
      case 'NotIn': if (has && values.includes(labels[e.key])) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- pods

function template(t: any, at: string, push: Push, kind: string | undefined, claims: string[] = []): void {
  if (!isObj(t)) return;
  podSpec(t.spec, joinPath(at, 'spec'), push, { kind, claims });
}

interface PodContext { readonly isPod?: boolean; readonly kind?: string; readonly claims?: string[] }

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

function podSpec(spec: any, at: string, push: Push, ctx: PodContext): void {
  if (!isObj(spec)) return;
  const allowed = ctx.kind ? WORKLOAD_RESTART[ctx.kind] : undefined;
  if (allowed && spec.restartPolicy !== undefined && !allowed.includes(spec.restartPolicy)) {
    push('K8S-POD', joinPath(at, 'restartPolicy'), `a ${ctx.kind} pod template needs restartPolicy ${allowed.join(' or ')} (got ${show(spec.restartPolicy)})`);
  }
  if (allowed && allowed[0] === 'OnFailure' && spec.restartPolicy === undefined) {
    push('K8S-POD', joinPath(at, 'restartPolicy'), `a ${ctx.kind} pod template needs restartPolicy OnFailure or Never (the default, Always, is not allowed)`);
  }
  if (spec.dnsPolicy === 'None' && !isObj(spec.dnsConfig)) {
    push('K8S-POD', joinPath(at, 'dnsConfig'), 'dnsPolicy None needs a dnsConfig with at least one nameserver');
  }
  // Volumes: names are DNS labels, unique.
  const volumes = new Set<string>(ctx.claims);
  list(spec.volumes).forEach((v, i) => {
    if (!str(v?.name)) return;
    const p = joinPath(joinPath(at, 'volumes'), i);
    const bad = checkDnsLabel(v.name);
    if (bad) push('K8S-NAME', joinPath(p, 'name'), `${show(v.name)} is not a valid volume name: expected ${bad}`);
    if (volumes.has(v.name)) push('K8S-UNIQUE', joinPath(p, 'name'), `duplicate volume name ${show(v.name)}`);
    volumes.add(v.name);
  });
  const containers = list(spec.containers);
  if (Array.isArray(spec.containers) && !containers.length) push('K8S-POD', joinPath(at, 'containers'), 'a pod needs at least one container');
  const names = new Set<string>();
  const each = (field: string, init: boolean) => list(spec[field]).forEach((c, i) => {
    if (isObj(c)) container(c, joinPath(joinPath(at, field), i), push, { ...ctx, init, field, volumes, names, pod: spec });
  });
  each('initContainers', true);
  each('containers', false);
  each('ephemeralContainers', false);
  podSpecRules(spec, at, push);
}

interface ContainerContext extends PodContext {
  readonly init: boolean;
  readonly field: string;
  readonly volumes: Set<string>;
  readonly names: Set<string>;
  readonly pod: Obj;
}

function container(c: Obj, at: string, push: Push, ctx: ContainerContext): void {
  if (str(c.name)) {
    const bad = checkDnsLabel(c.name);
    if (bad) push('K8S-NAME', joinPath(at, 'name'), `${show(c.name)} is not a valid container name: expected ${bad}`);
    if (ctx.names.has(c.name)) push('K8S-UNIQUE', joinPath(at, 'name'), `duplicate container name ${show(c.name)} (names are unique across containers, init containers and ephemeral containers)`);
    ctx.names.add(c.name);
  }
  // Every container needs an image, in Pods and pod templates alike (a Pod's may not have surrounding spaces).
  if (!str(c.image) || c.image === '' || (ctx.isPod && c.image !== c.image.trim())) {
    push('K8S-POD', joinPath(at, 'image'), str(c.image) && c.image !== '' ? `${show(c.image)} has leading or trailing whitespace` : 'a container needs an image');
  }
  const sidecar = ctx.init && c.restartPolicy === 'Always';
  if (c.restartPolicy !== undefined && !ctx.init) {
    push('K8S-POD', joinPath(at, 'restartPolicy'), 'only init containers can set restartPolicy (Always makes a sidecar); remove it');
  }
  if (ctx.init && !sidecar) {
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle']) {
      if (c[probe] !== undefined) push('K8S-POD', joinPath(at, probe), `an init container may not set ${probe} unless it is a sidecar (restartPolicy: Always)`);
    }
  }
  // Ports: names are IANA service names, unique within the container.
  const portNames = new Set<string>();
  list(c.ports).forEach((p, i) => {
    if (!str(p?.name)) return;
    const pp = joinPath(joinPath(at, 'ports'), i);
    if (portNames.has(p.name)) push('K8S-UNIQUE', joinPath(pp, 'name'), `duplicate port name ${show(p.name)}`);
    portNames.add(p.name);
    const bad = checkPortName(p.name);
    if (bad) push('K8S-NAME', joinPath(pp, 'name'), `${show(p.name)} is not a valid port name: expected ${bad}`);
  });
  // Volume mounts name declared volumes; mount paths are unique.
  const mountPaths = new Set<string>();
  list(c.volumeMounts).forEach((m, i) => {
    const mp = joinPath(joinPath(at, 'volumeMounts'), i);
    if (str(m?.name) && !ctx.volumes.has(m.name)) push('K8S-REFERENCE', joinPath(mp, 'name'), `no volume named ${show(m.name)} in the pod; declare it under volumes or fix the name`);
    if (str(m?.mountPath)) {
      if (mountPaths.has(m.mountPath)) push('K8S-UNIQUE', joinPath(mp, 'mountPath'), `duplicate mountPath ${show(m.mountPath)}`);
      mountPaths.add(m.mountPath);
    }
    if (str(m?.subPath) && (m.subPath.startsWith('/') || m.subPath.split('/').includes('..'))) {
      push('K8S-REFERENCE', joinPath(mp, 'subPath'), 'subPath must be a relative path without \'..\'');
    }
  });
  list(c.volumeDevices).forEach((d, i) => {
    if (str(d?.name) && !ctx.volumes.has(d.name)) push('K8S-REFERENCE', joinPath(joinPath(joinPath(at, 'volumeDevices'), i), 'name'), `no volume named ${show(d.name)} in the pod`);
  });
  env(c, at, push);
  resources(c.resources, joinPath(at, 'resources'), push);
  containerRules(c, at, push);
  const probes = ctx.field === 'ephemeralContainers' ? [] : ['livenessProbe', 'readinessProbe', 'startupProbe'];
  for (const name of probes) {
    const probe = c[name];
    if (!isObj(probe)) continue;
    handlerCount(probe, HANDLERS, joinPath(at, name), push);
    if (name !== 'readinessProbe' && probe.successThreshold !== undefined && probe.successThreshold !== 1) {
      push('K8S-PROBE', joinPath(joinPath(at, name), 'successThreshold'), `must be 1 for a ${name} (got ${show(probe.successThreshold)})`);
    }
    if (name === 'readinessProbe' && probe.terminationGracePeriodSeconds !== undefined) {
      push('K8S-PROBE', joinPath(joinPath(at, name), 'terminationGracePeriodSeconds'), 'a readinessProbe cannot set terminationGracePeriodSeconds');
    }
  }
  for (const hook of ['postStart', 'preStop']) {
    if (isObj(c.lifecycle?.[hook])) handlerCount(c.lifecycle[hook], LIFECYCLE_HANDLERS, joinPath(joinPath(at, 'lifecycle'), hook), push);
  }
}

function handlerCount(h: Obj, kinds: string[], at: string, push: Push): void {
  const set = kinds.filter((k) => h[k] !== undefined);
  if (set.length !== 1) {
    push('K8S-PROBE', at, set.length ? `sets ${set.join(' and ')}: exactly one handler is allowed` : `needs exactly one handler (${kinds.join(', ')})`);
  }
}

/** IANA service name: at most 15 characters, lowercase letters, digits and single '-', at least one letter. */
export function checkPortName(name: string): string | undefined {
  if (name.length <= 15 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) && /[a-z]/.test(name) && !name.includes('--')) return undefined;
  return 'at most 15 characters: lowercase letters, digits and single \'-\', with at least one letter, starting and ending with a letter or digit';
}

function env(c: Obj, at: string, push: Push): void {
  list(c.env).forEach((e, i) => {
    const p = joinPath(joinPath(at, 'env'), i);
    if (str(e?.name)) {
      // RelaxedEnvironmentVariableValidation (beta, on by default in v1.32): printable ASCII but '='.
      if (!e.name.length || !/^[\x20-\x3c\x3e-\x7e]+$/.test(e.name)) {
        push('K8S-ENV', joinPath(p, 'name'), `${show(e.name)} is not a valid environment variable name: expected printable ASCII characters other than '='`);
      }
    }
    if (isObj(e?.valueFrom)) {
      if (e.value !== undefined && e.value !== '') push('K8S-ENV', p, 'value and valueFrom cannot both be set');
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => e.valueFrom[k] !== undefined);
      if (sources.length !== 1) push('K8S-ENV', joinPath(p, 'valueFrom'), `needs exactly one source (fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef), got ${sources.length}`);
    }
  });
  list(c.envFrom).forEach((e, i) => {
    const sources = ['configMapRef', 'secretRef'].filter((k) => e?.[k] !== undefined);
    if (sources.length !== 1) push('K8S-ENV', joinPath(joinPath(at, 'envFrom'), i), 'needs exactly one of configMapRef and secretRef');
  });
}

// ---------------------------------------------------------------- quantities and resources

function resources(r: unknown, at: string, push: Push): void {
  if (!isObj(r) || !isObj(r.requests) || !isObj(r.limits)) return;
  for (const [name, request] of Object.entries(r.requests)) {
    const limit = r.limits[name];
    if (limit === undefined) continue;
    const rq = parseQuantity(request);
    const lm = parseQuantity(limit);
    if (rq !== undefined && lm !== undefined && rq > lm) {
      push('K8S-RESOURCES', joinPath(joinPath(at, 'requests'), name), `the request ${show(request)} is above the limit ${show(limit)}; a request must be less than or equal to its limit`);
    }
  }
}

function limitRange(spec: any, push: Push): void {
  list(spec?.limits).forEach((item, i) => {
    if (!isObj(item)) return;
    const at = joinPath(joinPath('spec', 'limits'), i);
    const min = isObj(item.min) ? item.min : {};
    const max = isObj(item.max) ? item.max : {};
    for (const [name, lo] of Object.entries(min)) {
      const hi = max[name];
      const a = parseQuantity(lo);
      const b = parseQuantity(hi);
      if (a !== undefined && b !== undefined && a > b) push('K8S-RESOURCES', joinPath(joinPath(at, 'min'), name), `min ${show(lo)} is above max ${show(hi)}`);
    }
    for (const field of ['default', 'defaultRequest']) {
      const values = isObj(item[field]) ? item[field] : {};
      for (const [name, v] of Object.entries(values)) {
        const q = parseQuantity(v);
        const hi = parseQuantity(max[name]);
        const lo = parseQuantity(min[name]);
        if (q !== undefined && hi !== undefined && q > hi) push('K8S-RESOURCES', joinPath(joinPath(at, field), name), `${field} ${show(v)} is above max ${show(max[name])}`);
        if (q !== undefined && lo !== undefined && q < lo) push('K8S-RESOURCES', joinPath(joinPath(at, field), name), `${field} ${show(v)} is below min ${show(min[name])}`);
      }
    }
  });
}

// ---------------------------------------------------------------- Service

function service(spec: any, push: Push): void {
  if (!isObj(spec)) return;
  const type = spec.type ?? 'ClusterIP';
  const headless = spec.clusterIP === 'None';
  const ports = list(spec.ports);
  if (type === 'ExternalName') {
    if (!str(spec.externalName) || checkDnsSubdomain(spec.externalName.replace(/\.$/, ''))) {
      push('K8S-SERVICE', 'spec.externalName', 'an ExternalName Service needs externalName, a DNS name');
    }
    if (spec.clusterIP !== undefined && spec.clusterIP !== '') push('K8S-SERVICE', 'spec.clusterIP', 'an ExternalName Service has no clusterIP; remove it');
  } else if (!ports.length && !headless) {
    push('K8S-SERVICE', 'spec.ports', 'a Service needs at least one port (only headless Services, clusterIP: None, may have none)');
  }
  if (headless && type !== 'ClusterIP') push('K8S-SERVICE', 'spec.clusterIP', `a headless Service (clusterIP: None) must be of type ClusterIP, not ${type}`);
  if (str(spec.clusterIP) && spec.clusterIP !== '' && !headless && !parseIp(spec.clusterIP)) {
    push('K8S-SERVICE', 'spec.clusterIP', `${show(spec.clusterIP)} is neither "None" nor an IP address`);
  }
  serviceExtras(spec, type, push);
  if (spec.externalTrafficPolicy !== undefined && type !== 'NodePort' && type !== 'LoadBalancer') {
    push('K8S-SERVICE', 'spec.externalTrafficPolicy', `may only be set on NodePort and LoadBalancer Services (this one is ${type})`);
  }
  const names = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((p, i) => {
    if (!isObj(p)) return;
    const at = joinPath(joinPath('spec', 'ports'), i);
    if (ports.length > 1 && !str(p.name)) push('K8S-SERVICE', joinPath(at, 'name'), 'a Service with more than one port needs a name on every port');
    if (str(p.name)) {
      const bad = checkDnsLabel(p.name);
      if (bad) push('K8S-NAME', joinPath(at, 'name'), `${show(p.name)} is not a valid port name: expected ${bad}`);
      if (names.has(p.name)) push('K8S-UNIQUE', joinPath(at, 'name'), `duplicate port name ${show(p.name)}`);
      names.add(p.name);
    }
    const key = `${p.port}/${p.protocol ?? 'TCP'}`;
    if (keys.has(key)) push('K8S-UNIQUE', at, `duplicate port ${key}; ports are unique by port and protocol`);
    keys.add(key);
    if (p.nodePort !== undefined && p.nodePort !== 0 && type !== 'NodePort' && type !== 'LoadBalancer') {
      push('K8S-SERVICE', joinPath(at, 'nodePort'), `nodePort may only be set on NodePort and LoadBalancer Services (this one is ${type})`);
    }
  });
}

/** An IP a Service may route to: not unspecified, loopback or link-local. */
function specialIp(bytes: number[]): string | undefined {
  const v4 = bytes.length === 4 ? bytes : bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255 ? bytes.slice(12) : undefined;
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (v4) {
    if (v4[0] === 127) return 'loopback';
    if ((v4[0] === 169 && v4[1] === 254) || (v4[0] === 224 && v4[1] === 0 && v4[2] === 0)) return 'link-local';
    return undefined;
  }
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  if ((bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) || (bytes[0] === 0xff && (bytes[1] & 0x0f) === 2)) return 'link-local';
  return undefined;
}

function serviceExtras(spec: Obj, type: string, push: Push): void {
  list(spec.externalIPs).forEach((ip, i) => {
    if (!str(ip)) return;
    const at = joinPath('spec.externalIPs', i);
    const bytes = parseIp(ip);
    const special = bytes && specialIp(bytes);
    if (!bytes) push('K8S-SERVICE', at, `${show(ip)} is not an IP address`);
    else if (special) push('K8S-SERVICE', at, `${show(ip)} is a ${special} address, which a Service cannot use`);
  });
  const lb = type === 'LoadBalancer';
  if (list(spec.loadBalancerSourceRanges).length && !lb) push('K8S-SERVICE', 'spec.loadBalancerSourceRanges', `may only be set on LoadBalancer Services (this one is ${type})`);
  list(spec.loadBalancerSourceRanges).forEach((r, i) => {
    if (str(r) && !parseCidr(r.trim())) push('K8S-SERVICE', joinPath('spec.loadBalancerSourceRanges', i), `${show(r)} is not a CIDR such as 10.240.0.0/24`);
  });
  for (const field of ['allocateLoadBalancerNodePorts', 'loadBalancerClass']) {
    if (spec[field] !== undefined && !lb) push('K8S-SERVICE', joinPath('spec', field), `may only be set on LoadBalancer Services (this one is ${type})`);
  }
  if (str(spec.loadBalancerClass) && (!spec.loadBalancerClass.includes('/') || checkQualifiedName(spec.loadBalancerClass))) {
    push('K8S-SERVICE', 'spec.loadBalancerClass', `${show(spec.loadBalancerClass)} is not a domain-prefixed name such as example.com/internal-vip`);
  }
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0 && !(lb && spec.externalTrafficPolicy === 'Local')) {
    push('K8S-SERVICE', 'spec.healthCheckNodePort', 'may only be set on a LoadBalancer Service with externalTrafficPolicy Local');
  }
  const affinity = spec.sessionAffinity ?? 'None';
  const timeout = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  if (affinity === 'None' && spec.sessionAffinityConfig !== undefined) push('K8S-SERVICE', 'spec.sessionAffinityConfig', 'must not be set when sessionAffinity is None');
  if (affinity === 'ClientIP' && typeof timeout === 'number' && (timeout < 1 || timeout > 86400)) push('K8S-SERVICE', 'spec.sessionAffinityConfig.clientIP.timeoutSeconds', `must be from 1 to 86400 (got ${timeout})`);
  const families = list(spec.ipFamilies);
  if (new Set(families).size !== families.length) push('K8S-UNIQUE', 'spec.ipFamilies', 'lists an IP family twice');
  if (families.length > 1 && (spec.ipFamilyPolicy ?? 'SingleStack') === 'SingleStack') push('K8S-SERVICE', 'spec.ipFamilyPolicy', 'with two IP families the policy must be PreferDualStack or RequireDualStack');
  if (type === 'ExternalName' && (families.length || spec.ipFamilyPolicy !== undefined)) push('K8S-SERVICE', 'spec.ipFamilies', 'an ExternalName Service has no IP families or ipFamilyPolicy');
  const ips = list(spec.clusterIPs);
  if (ips.length && str(spec.clusterIP) && spec.clusterIP !== '' && ips[0] !== spec.clusterIP) push('K8S-SERVICE', 'spec.clusterIPs', 'the first of clusterIPs must equal clusterIP');
}

// ---------------------------------------------------------------- Secret and ConfigMap

/** ConfigMap and Secret keys: at most 253 characters of letters, digits, '-', '_' and '.', not '.' or '..', not starting with '..'. */
export function checkDataKey(key: string): string | undefined {
  if (key.length && key.length <= 253 && /^[-._a-zA-Z0-9]+$/.test(key) && key !== '.' && key !== '..' && !key.startsWith('..')) return undefined;
  return 'a key of at most 253 characters: letters, digits, \'-\', \'_\' and \'.\' (not \'.\' or \'..\', not starting with \'..\')';
}

const MAX_DATA_BYTES = 1024 * 1024;

function dataKeys(o: Obj, fields: string[], push: Push, base64: Record<string, boolean>): Map<string, string> {
  const keys = new Map<string, string>();
  let size = 0;
  for (const field of fields) {
    if (!isObj(o[field])) continue;
    for (const [k, v] of Object.entries(o[field])) {
      const at = joinPath(field, k);
      const bad = checkDataKey(k);
      if (bad) push('K8S-DATA-KEY', at, `${show(k)} is not a valid key: expected ${bad}`);
      const prev = keys.get(k);
      if (prev !== undefined && !(field === 'stringData' && prev === 'data')) push('K8S-DATA-KEY', at, `key ${show(k)} is also in ${prev}; keys are unique across ${fields.join(' and ')}`);
      keys.set(k, field);
      if (str(v)) size += base64[field] ? Math.floor(v.length * 3 / 4) : Buffer.byteLength(v);
    }
  }
  if (size > MAX_DATA_BYTES) push('K8S-DATA-KEY', fields[0], `the data takes about ${size} bytes, more than the 1 MiB allowed; split it into several objects or mount the content from an image or a volume`);
  return keys;
}

function configMap(o: Obj, push: Push): void {
  dataKeys(o, ['data', 'binaryData'], push, { binaryData: true });
}

const SECRET_KEYS: Record<string, string[][]> = {
  // Each inner list: one of these keys is required.
  'kubernetes.io/tls': [['tls.crt'], ['tls.key']],
  'kubernetes.io/dockerconfigjson': [['.dockerconfigjson']],
  'kubernetes.io/dockercfg': [['.dockercfg']],
  'kubernetes.io/basic-auth': [['username', 'password']],
  'kubernetes.io/ssh-auth': [['ssh-privatekey']],
};

function secret(o: Obj, push: Push): void {
  const keys = dataKeys(o, ['data', 'stringData'], push, { data: true });
  const type = o.type ?? 'Opaque';
  for (const oneOf of SECRET_KEYS[type] ?? []) {
    if (!oneOf.some((k) => keys.has(k))) {
      push('K8S-SECRET', joinPath('data', oneOf[0]), `a Secret of type ${type} needs ${oneOf.length > 1 ? `${oneOf.join(' or ')}` : `the key ${oneOf[0]}`} in data or stringData`);
    }
  }
  if (type === 'kubernetes.io/dockerconfigjson' || type === 'kubernetes.io/dockercfg') {
    const key = type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
    const text = isObj(o.stringData) && str(o.stringData[key]) ? o.stringData[key] : isObj(o.data) && str(o.data[key]) ? Buffer.from(o.data[key], 'base64').toString('utf8') : undefined;
    if (text !== undefined) {
      try {
        JSON.parse(text);
      } catch {
        push('K8S-SECRET', joinPath('data', key), `${key} is not valid JSON`);
      }
    }
  }
  if (type === 'kubernetes.io/service-account-token' && !str(o.metadata?.annotations?.['kubernetes.io/service-account.name'])) {
    push('K8S-SECRET', 'metadata.annotations', 'a service-account-token Secret needs the annotation kubernetes.io/service-account.name naming its ServiceAccount');
  }
}

// ---------------------------------------------------------------- Ingress

function ingress(spec: any, push: Push): void {
  if (!isObj(spec)) return;
  if (spec.defaultBackend === undefined && !list(spec.rules).length) push('K8S-INGRESS', 'spec', 'an Ingress needs a defaultBackend or at least one rule');
  if (isObj(spec.defaultBackend)) backend(spec.defaultBackend, 'spec.defaultBackend', push);
  list(spec.rules).forEach((r, i) => {
    const at = joinPath(joinPath('spec', 'rules'), i);
    if (str(r?.host)) {
      const host = r.host.startsWith('*.') ? r.host.slice(2) : r.host;
      if (checkDnsSubdomain(host) || parseIp(host)) push('K8S-INGRESS', joinPath(at, 'host'), `${show(r.host)} is not a valid host: expected a DNS name (a leading '*.' allowed), not an IP address`);
    }
    list(r?.http?.paths).forEach((p, j) => {
      const pp = joinPath(joinPath(joinPath(at, 'http'), 'paths'), j);
      if (isObj(p?.backend)) backend(p.backend, joinPath(pp, 'backend'), push);
      const bad = ingressPathProblem(p?.path, p?.pathType);
      if (bad) push('K8S-INGRESS', joinPath(pp, 'path'), bad);
    });
  });
}

function ingressPathProblem(path: unknown, pathType: unknown): string | undefined {
  if (path === undefined || path === '') return pathType === 'Exact' || pathType === 'Prefix' ? `a ${pathType} path needs a path starting with '/'` : undefined;
  if (!str(path)) return undefined;
  if (!path.startsWith('/')) return `${show(path)} must be an absolute path (start with '/')`;
  if (pathType === 'Exact' || pathType === 'Prefix') {
    for (const bad of ['//', '/./', '/../', '%2f', '%2F']) if (path.includes(bad)) return `${show(path)} must not contain '${bad}'`;
    if (path.endsWith('/..') || path.endsWith('/.')) return `${show(path)} must not end with '/..' or '/.'`;
  }
  return undefined;
}

function backend(b: Obj, at: string, push: Push): void {
  const kinds = ['service', 'resource'].filter((k) => b[k] !== undefined);
  if (kinds.length !== 1) push('K8S-INGRESS', at, 'a backend needs exactly one of service and resource');
  const port = b.service?.port;
  if (isObj(b.service) && (!isObj(port) || (port.name === undefined) === (port.number === undefined))) {
    push('K8S-INGRESS', joinPath(joinPath(at, 'service'), 'port'), 'a service backend needs a port with exactly one of name and number');
  }
}

// ---------------------------------------------------------------- NetworkPolicy

function cidrContains(outer: { bytes: number[]; prefix: number }, inner: { bytes: number[]; prefix: number }): boolean {
  if (outer.bytes.length !== inner.bytes.length || inner.prefix < outer.prefix) return false;
  for (let bit = 0; bit < outer.prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((outer.bytes[byte] & mask) !== (inner.bytes[byte] & mask)) return false;
  }
  return true;
}

function networkPolicy(spec: any, push: Push): void {
  if (!isObj(spec)) return;
  selectorSyntax(spec.podSelector, 'spec.podSelector', push);
  for (const [dir, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    list(spec[dir]).forEach((rule, i) => {
      const at = joinPath(joinPath('spec', dir), i);
      list(rule?.[peers]).forEach((peer, j) => {
        const pp = joinPath(joinPath(at, peers), j);
        if (!isObj(peer)) return;
        const set = ['podSelector', 'namespaceSelector', 'ipBlock'].filter((k) => peer[k] !== undefined);
        if (!set.length) push('K8S-NETWORK-POLICY', pp, 'a peer needs podSelector, namespaceSelector or ipBlock');
        if (peer.ipBlock !== undefined && set.length > 1) push('K8S-NETWORK-POLICY', pp, 'ipBlock cannot be combined with podSelector or namespaceSelector in one peer; make them two peers');
        selectorSyntax(peer.podSelector, joinPath(pp, 'podSelector'), push);
        selectorSyntax(peer.namespaceSelector, joinPath(pp, 'namespaceSelector'), push);
        if (isObj(peer.ipBlock)) ipBlock(peer.ipBlock, joinPath(pp, 'ipBlock'), push);
      });
      list(rule?.ports).forEach((port, j) => {
        if (port?.endPort === undefined) return;
        const pp = joinPath(joinPath(at, 'ports'), j);
        if (typeof port.port !== 'number') push('K8S-NETWORK-POLICY', joinPath(pp, 'endPort'), 'endPort needs a numeric port');
        else if (typeof port.endPort === 'number' && port.endPort < port.port) push('K8S-NETWORK-POLICY', joinPath(pp, 'endPort'), `endPort ${port.endPort} is below port ${port.port}`);
      });
    });
  }
}

function ipBlock(b: Obj, at: string, push: Push): void {
  if (!str(b.cidr)) return;
  const outer = parseCidr(b.cidr);
  if (!outer) {
    push('K8S-NETWORK-POLICY', joinPath(at, 'cidr'), `${show(b.cidr)} is not a valid CIDR such as 10.0.0.0/16 or fd00::/8`);
    return;
  }
  list(b.except).forEach((e, i) => {
    if (!str(e)) return;
    const inner = parseCidr(e);
    const p = joinPath(joinPath(at, 'except'), i);
    if (!inner) push('K8S-NETWORK-POLICY', p, `${show(e)} is not a valid CIDR`);
    else if (!cidrContains(outer, inner) || inner.prefix === outer.prefix) push('K8S-NETWORK-POLICY', p, `${show(e)} is not strictly inside cidr ${show(b.cidr)}`);
  });
}

// ---------------------------------------------------------------- admission webhooks

function webhooks(o: Obj, push: Push): void {
  const names = new Set<string>();
  list(o.webhooks).forEach((w, i) => {
    if (!isObj(w)) return;
    const at = joinPath('webhooks', i);
    if (str(w.name)) {
      if (names.has(w.name)) push('K8S-UNIQUE', joinPath(at, 'name'), `duplicate webhook name ${show(w.name)} in this configuration`);
      names.add(w.name);
      if (checkDnsSubdomain(w.name) || w.name.split('.').length < 3) {
        push('K8S-WEBHOOK', joinPath(at, 'name'), `${show(w.name)} is not a fully qualified name: expected a DNS subdomain with at least three segments, such as validate.example.com`);
      }
    }
    const versions = list(w.admissionReviewVersions);
    if (Array.isArray(w.admissionReviewVersions)) {
      if (!versions.some((v) => v === 'v1' || v === 'v1beta1')) {
        push('K8S-WEBHOOK', joinPath(at, 'admissionReviewVersions'), 'must include v1 (or v1beta1), the AdmissionReview versions the API server sends');
      }
      if (new Set(versions).size !== versions.length) push('K8S-UNIQUE', joinPath(at, 'admissionReviewVersions'), 'lists a version twice');
    }
    const cc = w.clientConfig;
    if (isObj(cc)) {
      const set = ['url', 'service'].filter((k) => cc[k] !== undefined);
      if (set.length !== 1) push('K8S-WEBHOOK', joinPath(at, 'clientConfig'), 'needs exactly one of url and service');
      if (str(cc.url) && (!cc.url.startsWith('https://') || cc.url.includes('#') || cc.url.includes('?'))) {
        push('K8S-WEBHOOK', joinPath(joinPath(at, 'clientConfig'), 'url'), 'must be an https:// URL without query or fragment');
      }
      if (str(cc.service?.path) && !cc.service.path.startsWith('/')) {
        push('K8S-WEBHOOK', joinPath(joinPath(joinPath(at, 'clientConfig'), 'service'), 'path'), 'must start with \'/\'');
      }
    }
    selectorSyntax(w.namespaceSelector, joinPath(at, 'namespaceSelector'), push);
    selectorSyntax(w.objectSelector, joinPath(at, 'objectSelector'), push);
    list(w.rules).forEach((r, j) => admissionRule(r, joinPath(joinPath(at, 'rules'), j), push, 'K8S-WEBHOOK'));
    matchConditions(w.matchConditions, joinPath(at, 'matchConditions'), push, 'K8S-WEBHOOK');
  });
}
