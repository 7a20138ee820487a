import { compileCel } from './cel';
import { joinPath, show } from './issues';
import { checkDnsLabel, checkDnsSubdomain, checkQualifiedName } from './names';
import { isObj, list, Obj, parseQuantity, Push, selectorSyntax, str } from './pod-spec';

/**
 * Rules the Kubernetes v1.32 API server enforces in code for kinds beyond pods and
 * workloads (facts from its validation packages; the code and messages are ours):
 * PersistentVolumeClaim and StorageClass, CronJob schedules and time zones, Job failure
 * policies, HorizontalPodAutoscaler metrics, PodDisruptionBudget percentages, PriorityClass
 * names, APIService, IngressClass, RuntimeClass, EndpointSlice, Lease, and
 * ValidatingAdmissionPolicy with its binding. Each check is one pass over its object.
 */

const at2 = (base: string, a: string | number, b: string | number) => joinPath(joinPath(base, a), b);
const missing = (v: unknown) => !str(v) || v === '';

// ---------------------------------------------------------------- storage

/** A PersistentVolumeClaim spec (of a PVC, or of a StatefulSet's volumeClaimTemplates). */
export function pvcSpec(spec: unknown, at: string, push: Push): void {
  if (!isObj(spec)) return;
  const modes = list(spec.accessModes);
  if (!modes.length) push('K8S-STORAGE', joinPath(at, 'accessModes'), 'a claim needs at least one access mode (ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod)');
  if (modes.includes('ReadWriteOncePod') && modes.length > 1) push('K8S-STORAGE', joinPath(at, 'accessModes'), 'ReadWriteOncePod cannot be combined with other access modes');
  const storage = isObj(spec.resources?.requests) ? spec.resources.requests.storage : undefined;
  if (storage === undefined) push('K8S-STORAGE', at2(at, 'resources', 'requests') + '.storage', 'a claim needs resources.requests.storage, the size it asks for');
  else if ((parseQuantity(storage) ?? 1) <= 0) push('K8S-STORAGE', at2(at, 'resources', 'requests') + '.storage', `must be greater than 0 (got ${show(storage)})`);
  if (str(spec.storageClassName) && spec.storageClassName !== '') {
    const bad = checkDnsSubdomain(spec.storageClassName);
    if (bad) push('K8S-STORAGE', joinPath(at, 'storageClassName'), `${show(spec.storageClassName)} is not a valid StorageClass name: expected ${bad}`);
  }
  selectorSyntax(spec.selector, joinPath(at, 'selector'), push);
  for (const field of ['dataSource', 'dataSourceRef']) {
    const ds = spec[field];
    if (!isObj(ds)) continue;
    const p = joinPath(at, field);
    if (missing(ds.name)) push('K8S-STORAGE', joinPath(p, 'name'), `${field} needs a name`);
    if (missing(ds.kind)) push('K8S-STORAGE', joinPath(p, 'kind'), `${field} needs a kind`);
    else if ((ds.apiGroup ?? '') === '' && ds.kind !== 'PersistentVolumeClaim') push('K8S-STORAGE', joinPath(p, 'kind'), `in the core API group only PersistentVolumeClaim can be a data source (got ${show(ds.kind)}); set apiGroup, e.g. snapshot.storage.k8s.io for a VolumeSnapshot`);
    if (field === 'dataSourceRef' && ds.namespace !== undefined && ds.namespace !== '') push('K8S-STORAGE', joinPath(p, 'namespace'), 'a cross-namespace data source needs the CrossNamespaceVolumeDataSource feature (alpha, off in v1.32)');
  }
  const a = spec.dataSource;
  const b = spec.dataSourceRef;
  if (isObj(a) && isObj(b) && ((a.apiGroup ?? '') !== (b.apiGroup ?? '') || a.kind !== b.kind || a.name !== b.name)) {
    push('K8S-STORAGE', joinPath(at, 'dataSource'), 'dataSource and dataSourceRef must name the same object when both are set (set only dataSourceRef)');
  }
}

function storageClass(o: Obj, push: Push): void {
  if (missing(o.provisioner)) {push('K8S-STORAGE', 'provisioner', 'a StorageClass needs a provisioner');} else {
    const bad = checkQualifiedName(o.provisioner.toLowerCase());
    if (bad) push('K8S-STORAGE', 'provisioner', `${show(o.provisioner)} is not a valid provisioner name: expected ${bad}`);
  }
  if (isObj(o.parameters) && Object.keys(o.parameters).length > 512) push('K8S-STORAGE', 'parameters', 'at most 512 parameters');
  list(o.allowedTopologies).forEach((t, i) => list(t?.matchLabelExpressions).forEach((e, j) => {
    const p = at2(at2('allowedTopologies', i, 'matchLabelExpressions'), j, 'values');
    if (!list(e?.values).length) push('K8S-STORAGE', p, 'needs at least one value');
  }));
}

// ---------------------------------------------------------------- CronJob and Job

const CRON_FIELDS: { name: string; min: number; max: number; names?: string[] }[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];
const CRON_MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const GO_DURATION = /^([0-9]+(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/;

/** Why a CronJob schedule does not parse (5 fields, or an @ macro, as the API server's cron parser reads it), or undefined. */
export function cronProblem(schedule: string): string | undefined {
  if (schedule.includes('TZ')) return 'a time zone cannot be part of the schedule (CRON_TZ= or TZ=); set spec.timeZone';
  const text = schedule.trim();
  if (text.startsWith('@')) {
    if (CRON_MACROS.has(text)) return undefined;
    const every = /^@every (.+)$/.exec(text);
    if (every && GO_DURATION.test(every[1])) return undefined;
    return `${show(schedule)} is not a known descriptor (@yearly, @monthly, @weekly, @daily, @hourly, @every <duration>)`;
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return `${show(schedule)} has ${fields.length} fields; a schedule has 5 (minute hour day-of-month month day-of-week)`;
  for (let i = 0; i < 5; i++) {
    const f = CRON_FIELDS[i];
    const value = (v: string): number | undefined => {
      const n = f.names?.indexOf(v.toLowerCase()) ?? -1;
      if (n >= 0) return n + (f.name === 'month' ? 1 : 0);
      return /^\d+$/.test(v) ? Number(v) : undefined;
    };
    for (const part of fields[i].split(',')) {
      const [range, step, extra] = part.split('/');
      if (extra !== undefined || (step !== undefined && (!/^\d+$/.test(step) || Number(step) === 0))) return `the ${f.name} field ${show(fields[i])} has a bad step`;
      if (range === '*' || range === '?') continue;
      const [lo, hi, more] = range.split('-');
      const a = value(lo);
      const b = hi === undefined ? (step !== undefined ? f.max : a) : value(hi);
      if (more !== undefined || a === undefined || b === undefined) return `the ${f.name} field ${show(fields[i])} is not a number, name, range or list`;
      if (a < f.min || b > f.max || a > b) return `the ${f.name} field ${show(fields[i])} is outside ${f.min}-${f.max}`;
    }
  }
  return undefined;
}

function timeZoneProblem(tz: string): string | undefined {
  if (tz === 'Local' || tz.trim() !== tz || tz === '') return `${show(tz)} is not an IANA time zone name`;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return undefined;
  } catch {
    return `${show(tz)} is not a known time zone (such as Europe/Berlin or Etc/UTC)`;
  }
}

function cronJob(o: Obj, push: Push): void {
  const name = o.metadata?.name;
  if (str(name) && name.length > 52) push('K8S-NAME', 'metadata.name', `a CronJob name has at most 52 characters (${name.length}): the Jobs it creates add 11`);
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (str(spec.schedule)) {
    const bad = cronProblem(spec.schedule);
    if (bad) push('K8S-WORKLOAD', 'spec.schedule', bad);
  }
  if (str(spec.timeZone)) {
    const bad = timeZoneProblem(spec.timeZone);
    if (bad) push('K8S-WORKLOAD', 'spec.timeZone', bad);
  }
}

/** Job rules beyond selectors and templates: failure and success policies, per-index backoff. */
export function jobPolicies(spec: Obj, at: string, push: Push): void {
  const indexed = spec.completionMode === 'Indexed';
  const pfp = spec.podFailurePolicy;
  if (isObj(pfp)) {
    const restart = spec.template?.spec?.restartPolicy;
    if (restart !== undefined && restart !== 'Never') push('K8S-WORKLOAD', joinPath(joinPath(joinPath(at, 'template'), 'spec'), 'restartPolicy'), 'a Job with a podFailurePolicy needs restartPolicy Never');
    const containers = new Set([...list(spec.template?.spec?.containers), ...list(spec.template?.spec?.initContainers)].map((c) => c?.name));
    list(pfp.rules).forEach((r, i) => {
      if (!isObj(r)) return;
      const p = at2(joinPath(at, 'podFailurePolicy'), 'rules', i);
      const set = ['onExitCodes', 'onPodConditions'].filter((k) => r[k] !== undefined);
      if (set.length !== 1) push('K8S-WORKLOAD', p, 'a pod failure policy rule needs exactly one of onExitCodes and onPodConditions');
      if (r.action === 'FailIndex' && spec.backoffLimitPerIndex === undefined) push('K8S-WORKLOAD', joinPath(p, 'action'), 'action FailIndex needs backoffLimitPerIndex');
      const codes = r.onExitCodes;
      if (isObj(codes)) {
        const values = list(codes.values);
        if (!values.length) push('K8S-WORKLOAD', at2(p, 'onExitCodes', 'values'), 'needs at least one exit code');
        if (codes.operator === 'In' && values.includes(0)) push('K8S-WORKLOAD', at2(p, 'onExitCodes', 'values'), 'exit code 0 cannot be used with operator In');
        if (values.some((v, k) => k > 0 && !(v > values[k - 1]))) push('K8S-WORKLOAD', at2(p, 'onExitCodes', 'values'), 'exit codes must be sorted and unique');
        if (str(codes.containerName) && !containers.has(codes.containerName)) push('K8S-WORKLOAD', at2(p, 'onExitCodes', 'containerName'), `no container named ${show(codes.containerName)} in the template`);
      }
    });
  }
  if (spec.backoffLimitPerIndex !== undefined && !indexed) push('K8S-WORKLOAD', joinPath(at, 'backoffLimitPerIndex'), 'backoffLimitPerIndex needs completionMode Indexed');
  if (spec.maxFailedIndexes !== undefined && spec.backoffLimitPerIndex === undefined) push('K8S-WORKLOAD', joinPath(at, 'maxFailedIndexes'), 'maxFailedIndexes needs backoffLimitPerIndex');
  if (typeof spec.maxFailedIndexes === 'number' && typeof spec.completions === 'number' && spec.maxFailedIndexes > spec.completions) push('K8S-WORKLOAD', joinPath(at, 'maxFailedIndexes'), 'must not be above completions');
  if (spec.successPolicy !== undefined && !indexed) push('K8S-WORKLOAD', joinPath(at, 'successPolicy'), 'successPolicy needs completionMode Indexed');
}

/** A Job's name becomes a label value of its pods (at most 63 characters) unless it selects its pods itself. */
export function jobName(o: Obj, push: Push): void {
  const name = o.metadata?.name;
  if (str(name) && name.length > 63 && o.spec?.manualSelector !== true) push('K8S-NAME', 'metadata.name', `a Job name has at most 63 characters (${name.length}): it becomes the job-name label of its pods`);
}

// ---------------------------------------------------------------- HPA and PDB

const METRIC_SOURCE: Record<string, string> = { Resource: 'resource', ContainerResource: 'containerResource', Pods: 'pods', Object: 'object', External: 'external' };

export function hpaMetrics(spec: Obj, push: Push): void {
  const ref = spec.scaleTargetRef;
  if (isObj(ref)) {
    if (missing(ref.kind)) push('K8S-WORKLOAD', 'spec.scaleTargetRef.kind', 'the scale target needs a kind');
    if (missing(ref.name)) push('K8S-WORKLOAD', 'spec.scaleTargetRef.name', 'the scale target needs a name');
  }
  list(spec.metrics).forEach((m, i) => {
    if (!isObj(m) || !str(m.type)) return;
    const p = at2('spec', 'metrics', i);
    const field = METRIC_SOURCE[m.type];
    if (!field) return;
    const others = Object.values(METRIC_SOURCE).filter((f) => f !== field && m[f] !== undefined);
    if (others.length) push('K8S-WORKLOAD', p, `a ${m.type} metric sets only ${field} (also set: ${others.join(', ')})`);
    const source = m[field];
    if (!isObj(source)) {
      push('K8S-WORKLOAD', joinPath(p, field), `a ${m.type} metric needs ${field}`);
      return;
    }
    const sp = joinPath(p, field);
    if ((m.type === 'Resource' || m.type === 'ContainerResource') && missing(source.name)) push('K8S-WORKLOAD', joinPath(sp, 'name'), 'needs the resource name (cpu, memory)');
    if (m.type === 'ContainerResource' && missing(source.container)) push('K8S-WORKLOAD', joinPath(sp, 'container'), 'needs the container name');
    if (m.type === 'Object' && (!isObj(source.describedObject) || missing(source.describedObject.kind) || missing(source.describedObject.name))) push('K8S-WORKLOAD', joinPath(sp, 'describedObject'), 'needs the kind and name of the object');
    if ((m.type === 'Pods' || m.type === 'Object' || m.type === 'External') && (!isObj(source.metric) || missing(source.metric.name))) push('K8S-WORKLOAD', at2(sp, 'metric', 'name'), 'needs the metric name');
    const t = source.target;
    if (!isObj(t)) return;
    const tp = joinPath(sp, 'target');
    const need: Record<string, string> = { Utilization: 'averageUtilization', Value: 'value', AverageValue: 'averageValue' };
    if (str(t.type) && need[t.type] && t[need[t.type]] === undefined) push('K8S-WORKLOAD', joinPath(tp, need[t.type]), `a ${t.type} target needs ${need[t.type]}`);
    if (m.type === 'Resource' || m.type === 'ContainerResource') {
      if (t.averageUtilization === undefined && t.averageValue === undefined) push('K8S-WORKLOAD', joinPath(tp, 'averageUtilization'), `a ${m.type} metric targets averageUtilization or averageValue (type Utilization or AverageValue)`);
      if (t.averageUtilization !== undefined && t.averageValue !== undefined) push('K8S-WORKLOAD', joinPath(tp, 'averageValue'), 'averageUtilization and averageValue cannot both be set');
    } else if (m.type === 'Pods') {
      if (t.averageValue === undefined) push('K8S-WORKLOAD', joinPath(tp, 'averageValue'), 'a Pods metric targets averageValue (type AverageValue)');
    } else if (t.value === undefined && t.averageValue === undefined) {
      push('K8S-WORKLOAD', joinPath(tp, 'value'), `an ${m.type} metric targets value or averageValue`);
    }
    for (const q of ['value', 'averageValue']) {
      if (t[q] !== undefined && (parseQuantity(t[q]) ?? 1) <= 0) push('K8S-WORKLOAD', joinPath(tp, q), `must be positive (got ${show(t[q])})`);
    }
    if (typeof t.averageUtilization === 'number' && t.averageUtilization < 1) push('K8S-WORKLOAD', joinPath(tp, 'averageUtilization'), 'must be at least 1');
  });
}

const percent = (v: unknown): number | undefined => (str(v) && /^[0-9]+%$/.test(v) ? Number(v.slice(0, -1)) : undefined);

/** A percentage above 100% where the API server caps it (PDB bounds, maxUnavailable). */
export function atMost100(v: unknown, at: string, push: Push, rule: string): void {
  const p = percent(v);
  if (p !== undefined && p > 100) push(rule, at, `must not be greater than 100% (got ${show(v)})`);
}

// ---------------------------------------------------------------- other kinds

const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

function priorityClass(o: Obj, push: Push): void {
  const name = String(o.metadata?.name ?? '');
  if (name.startsWith('system-') && (SYSTEM_PRIORITY_CLASSES[name] !== o.value || o.globalDefault === true)) push('K8S-SPEC', 'metadata.name', 'PriorityClass names starting with system- are reserved for the two built-in classes');
}

function apiService(o: Obj, push: Push): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  const name = o.metadata?.name;
  if (str(name) && str(spec.version) && str(spec.group) && name !== `${spec.version}.${spec.group}`) push('K8S-SPEC', 'metadata.name', `an APIService is named <version>.<group>: ${show(`${spec.version}.${spec.group}`)}, not ${show(name)}`);
  if (missing(spec.version)) push('K8S-SPEC', 'spec.version', 'an APIService needs a version');
  else if (checkDnsLabel(spec.version)) push('K8S-SPEC', 'spec.version', `${show(spec.version)} is not a valid version: expected a DNS label such as v1beta1`);
  if (str(spec.group) && spec.group !== '' && checkDnsSubdomain(spec.group)) push('K8S-SPEC', 'spec.group', `${show(spec.group)} is not a valid group: expected a DNS subdomain`);
  if (typeof spec.groupPriorityMinimum !== 'number' || spec.groupPriorityMinimum < 1 || spec.groupPriorityMinimum > 20000) push('K8S-SPEC', 'spec.groupPriorityMinimum', `must be from 1 to 20000 (got ${show(spec.groupPriorityMinimum)})`);
  if (typeof spec.versionPriority !== 'number' || spec.versionPriority < 1 || spec.versionPriority > 1000) push('K8S-SPEC', 'spec.versionPriority', `must be from 1 to 1000 (got ${show(spec.versionPriority)})`);
  const hasCa = str(spec.caBundle) && spec.caBundle !== '';
  if (!isObj(spec.service)) {
    if (hasCa) push('K8S-SPEC', 'spec.caBundle', 'may only be set with a service (a local APIService has none)');
    if (spec.insecureSkipTLSVerify === true) push('K8S-SPEC', 'spec.insecureSkipTLSVerify', 'may only be set with a service');
  } else {
    if (missing(spec.service.name)) push('K8S-SPEC', 'spec.service.name', 'the service needs a name');
    if (missing(spec.service.namespace)) push('K8S-SPEC', 'spec.service.namespace', 'the service needs a namespace');
    if (spec.insecureSkipTLSVerify === true && hasCa) push('K8S-SPEC', 'spec.insecureSkipTLSVerify', 'cannot be true when caBundle is set');
  }
}

const DOMAIN_PATH = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)\/[-A-Za-z0-9/._~%!$&'()*+,;=:]+$/;

function ingressClass(o: Obj, push: Push): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (str(spec.controller) && (spec.controller.length > 250 || !DOMAIN_PATH.test(spec.controller) || checkDnsSubdomain(spec.controller.split('/')[0]))) {
    push('K8S-SPEC', 'spec.controller', `${show(spec.controller)} is not a domain-prefixed path such as example.com/ingress-controller`);
  }
  const params = spec.parameters;
  if (isObj(params)) {
    if (missing(params.kind)) push('K8S-SPEC', 'spec.parameters.kind', 'parameters need a kind');
    if (missing(params.name)) push('K8S-SPEC', 'spec.parameters.name', 'parameters need a name');
    const scope = params.scope ?? 'Cluster';
    if (scope !== 'Cluster' && scope !== 'Namespace') push('K8S-ENUM', 'spec.parameters.scope', `must be Cluster or Namespace (got ${show(scope)})`);
    if (scope === 'Namespace' && missing(params.namespace)) push('K8S-SPEC', 'spec.parameters.namespace', 'parameters of scope Namespace need a namespace');
    if (scope === 'Cluster' && params.namespace !== undefined) push('K8S-SPEC', 'spec.parameters.namespace', 'parameters of scope Cluster take no namespace');
  }
}

function runtimeClass(o: Obj, push: Push): void {
  if (str(o.handler)) {
    const bad = checkDnsLabel(o.handler);
    if (bad) push('K8S-SPEC', 'handler', `${show(o.handler)} is not a valid handler: expected ${bad}`);
  }
}

function lease(o: Obj, push: Push): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) push('K8S-RANGE', 'spec.leaseDurationSeconds', 'must be greater than 0');
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) push('K8S-RANGE', 'spec.leaseTransitions', 'must not be negative');
}

function endpointSlice(o: Obj, push: Push): void {
  const type = o.addressType;
  if (type !== 'IPv4' && type !== 'IPv6' && type !== 'FQDN') {
    push('K8S-ENUM', 'addressType', `must be IPv4, IPv6 or FQDN (got ${show(type)})`);
    return;
  }
  list(o.endpoints).forEach((e, i) => {
    const addrs = list(e?.addresses);
    const p = at2('endpoints', i, 'addresses');
    if (addrs.length < 1 || addrs.length > 100) push('K8S-SPEC', p, `an endpoint has 1 to 100 addresses (got ${addrs.length})`);
    addrs.forEach((a, j) => {
      if (!str(a)) return;
      const ok = type === 'FQDN' ? !checkDnsSubdomain(a) : type === 'IPv4' ? /^\d{1,3}(\.\d{1,3}){3}$/.test(a) && a.split('.').every((x) => Number(x) <= 255 && !(x.length > 1 && x.startsWith('0'))) : a.includes(':') && /^[0-9a-fA-F:.]+$/.test(a);
      if (!ok) push('K8S-SPEC', joinPath(p, j), `${show(a)} is not an ${type} address`);
    });
  });
}

// ---------------------------------------------------------------- ValidatingAdmissionPolicy

/** The functions of the authorizer library a policy may call (not compiled by this validator). */
const AUTHORIZER = new Set(['check', 'allowed', 'reason', 'errored', 'error', 'group', 'resource', 'subresource', 'namespace', 'name', 'path', 'serviceAccount']);

function celCompiles(expr: unknown, at: string, push: Push, rule = 'K8S-ADMISSION'): void {
  if (!str(expr)) return;
  if (expr.trim() === '') {
    push(rule, at, 'an expression is required');
    return;
  }
  const result = compileCel(expr);
  if (typeof result !== 'string') return;
  const unknown = /^unknown function (.*)$/.exec(result);
  if (unknown && unknown[1].split(', ').every((f) => AUTHORIZER.has(f))) return;
  push(rule, at, `the CEL expression does not compile: ${result}`);
}

const hasWildcard = (items: any[]) => items.includes('*');

/** A rule of a webhook or a policy's match constraints: groups, versions, resources and operations, with '*' alone. */
export function admissionRule(r: unknown, at: string, push: Push, rule: string): void {
  if (!isObj(r)) return;
  for (const [field, what] of [['apiGroups', 'API groups'], ['apiVersions', 'API versions'], ['operations', 'operations']]) {
    const items = list(r[field]);
    if (!items.length) push(rule, joinPath(at, field), `needs at least one entry (use '*' for all ${what})`);
    else if (items.length > 1 && hasWildcard(items)) push(rule, joinPath(at, field), `with '*', no other ${what} may be listed`);
  }
  list(r.apiVersions).forEach((v, i) => {
    if (v === '') push(rule, at2(at, 'apiVersions', i), 'must not be empty');
  });
  const resources = list(r.resources);
  if (!resources.length) push(rule, joinPath(at, 'resources'), 'needs at least one resource (use \'*\' for all)');
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let single = false;
  let plain = false;
  resources.forEach((res, i) => {
    if (!str(res)) return;
    if (res === '') {
      push(rule, at2(at, 'resources', i), 'must not be empty');
      return;
    }
    const slash = res.indexOf('/');
    if (slash < 0) {
      if (res === '*') single = true;
      else plain = true;
      return;
    }
    const name = res.slice(0, slash);
    const sub = res.slice(slash + 1);
    if (wildSub.has(name) || wildRes.has(sub)) push(rule, at2(at, 'resources', i), `${show(res)} is already covered by a wildcard in this rule`);
    if (sub === '*') wildSub.add(name);
    if (name === '*') wildRes.add(sub);
  });
  if (resources.length > 1 && resources.includes('*/*')) push(rule, joinPath(at, 'resources'), 'with \'*/*\', no other resources may be listed');
  if (single && plain) push(rule, joinPath(at, 'resources'), 'with \'*\', no other resources without a subresource may be listed');
}

/** matchConditions of a webhook or policy: at most 64, names unique qualified names, expressions that compile. */
export function matchConditions(items: unknown, at: string, push: Push, rule: string): void {
  const conditions = list(items);
  if (conditions.length > 64) push(rule, at, `at most 64 match conditions (got ${conditions.length})`);
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    if (!isObj(c)) return;
    const p = joinPath(at, i);
    if (str(c.name)) {
      const bad = checkQualifiedName(c.name);
      if (bad) push(rule, joinPath(p, 'name'), `${show(c.name)} is not a valid name: expected ${bad}`);
      if (names.has(c.name)) push('K8S-UNIQUE', joinPath(p, 'name'), `duplicate match condition ${show(c.name)}`);
      names.add(c.name);
    }
    celCompiles(c.expression, joinPath(p, 'expression'), push, rule);
  });
}

function admissionPolicy(o: Obj, push: Push): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (!list(spec.validations).length && !list(spec.auditAnnotations).length) push('K8S-ADMISSION', 'spec.validations', 'a policy needs at least one validation or audit annotation');
  if (!isObj(spec.matchConstraints) || !list(spec.matchConstraints.resourceRules).length) push('K8S-ADMISSION', 'spec.matchConstraints.resourceRules', 'a policy needs matchConstraints with at least one resource rule');
  list(spec.validations).forEach((v, i) => {
    const p = at2('spec', 'validations', i);
    celCompiles(v?.expression, joinPath(p, 'expression'), push);
    celCompiles(v?.messageExpression, joinPath(p, 'messageExpression'), push);
    if (v?.reason !== undefined && !['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'].includes(v.reason)) push('K8S-ENUM', joinPath(p, 'reason'), `must be Unauthorized, Forbidden, Invalid or RequestEntityTooLarge (got ${show(v.reason)})`);
  });
  list(spec.matchConstraints?.resourceRules).forEach((r, i) => admissionRule(r, at2('spec.matchConstraints', 'resourceRules', i), push, 'K8S-ADMISSION'));
  matchConditions(spec.matchConditions, 'spec.matchConditions', push, 'K8S-ADMISSION');
  const names = new Set<string>();
  for (const field of ['variables']) {
    list(spec[field]).forEach((v, i) => {
      const p = at2('spec', field, i);
      celCompiles(v?.expression, joinPath(p, 'expression'), push);
      if (field === 'variables' && str(v?.name)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name)) push('K8S-ADMISSION', joinPath(p, 'name'), `${show(v.name)} is not a CEL identifier`);
        if (names.has(v.name)) push('K8S-UNIQUE', joinPath(p, 'name'), `duplicate variable ${show(v.name)}`);
        names.add(v.name);
      }
    });
  }
  list(spec.auditAnnotations).forEach((a, i) => {
    const p = at2('spec', 'auditAnnotations', i);
    celCompiles(a?.valueExpression, joinPath(p, 'valueExpression'), push);
    if (str(a?.key) && (a.key.length > 63 || checkQualifiedName(`${o.metadata?.name ?? 'x'}/${a.key}`))) push('K8S-ADMISSION', joinPath(p, 'key'), `${show(a.key)} is not a valid audit annotation key: expected a name of at most 63 characters`);
  });
  if (isObj(spec.paramKind) && (missing(spec.paramKind.apiVersion) || missing(spec.paramKind.kind))) push('K8S-ADMISSION', 'spec.paramKind', 'paramKind needs apiVersion and kind');
}

function admissionPolicyBinding(o: Obj, push: Push): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (missing(spec.policyName)) push('K8S-ADMISSION', 'spec.policyName', 'a binding needs the name of its policy');
  const actions = list(spec.validationActions);
  if (!actions.length) push('K8S-ADMISSION', 'spec.validationActions', 'a binding needs at least one validation action (Deny, Warn or Audit)');
  actions.forEach((a, i) => {
    if (!['Deny', 'Warn', 'Audit'].includes(a)) push('K8S-ENUM', joinPath('spec.validationActions', i), `must be Deny, Warn or Audit (got ${show(a)})`);
  });
  if (new Set(actions).size !== actions.length) push('K8S-UNIQUE', 'spec.validationActions', 'lists an action twice');
  if (actions.includes('Deny') && actions.includes('Warn')) push('K8S-ADMISSION', 'spec.validationActions', 'Deny and Warn cannot be used together (a denied request has no warnings); keep one');
  const ref = spec.paramRef;
  if (isObj(ref)) {
    if ((ref.name !== undefined) === (ref.selector !== undefined)) push('K8S-ADMISSION', 'spec.paramRef', 'paramRef needs exactly one of name and selector');
    if (ref.parameterNotFoundAction === undefined) push('K8S-ADMISSION', 'spec.paramRef.parameterNotFoundAction', 'paramRef needs parameterNotFoundAction (Allow or Deny)');
    else if (ref.parameterNotFoundAction !== 'Allow' && ref.parameterNotFoundAction !== 'Deny') push('K8S-ENUM', 'spec.paramRef.parameterNotFoundAction', `must be Allow or Deny (got ${show(ref.parameterNotFoundAction)})`);
    selectorSyntax(ref.selector, 'spec.paramRef.selector', push);
  }
  selectorSyntax(spec.matchResources?.namespaceSelector, 'spec.matchResources.namespaceSelector', push);
  selectorSyntax(spec.matchResources?.objectSelector, 'spec.matchResources.objectSelector', push);
}

/** The checks of this module by `apiVersion/kind`. */
export const KIND_RULES: Record<string, (o: Obj, push: Push) => void> = {
  'v1/PersistentVolumeClaim': (o, push) => pvcSpec(o.spec, 'spec', push),
  'storage.k8s.io/v1/StorageClass': storageClass,
  'batch/v1/CronJob': cronJob,
  'batch/v1/Job': jobName,
  'scheduling.k8s.io/v1/PriorityClass': priorityClass,
  'apiregistration.k8s.io/v1/APIService': apiService,
  'networking.k8s.io/v1/IngressClass': ingressClass,
  'node.k8s.io/v1/RuntimeClass': runtimeClass,
  'coordination.k8s.io/v1/Lease': lease,
  'discovery.k8s.io/v1/EndpointSlice': endpointSlice,
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': admissionPolicy,
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': admissionPolicyBinding,
};
