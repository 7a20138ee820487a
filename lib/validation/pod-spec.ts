import { joinPath, show } from './issues';
import { checkDnsLabel, checkDnsSubdomain, checkLabelValue, checkQualifiedName } from './names';
import { parseQuantity } from '../resources';

/**
 * Pod spec rules the Kubernetes v1.32 API server enforces in code (facts from its
 * validation package; the code and messages are ours): volume sources, projected and
 * downward API files, scheduling (tolerations, node selectors, affinity, topology spread),
 * security contexts and sysctls, host ports, resource names and the resources that cannot
 * be overcommitted. Also the label selector syntax shared by every kind. One pass over the
 * pod: cost in proportion to its size.
 */

export type Obj = Record<string, any>;
export type Push = (rule: string, path: string, message: string) => void;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): v is string => typeof v === 'string';
const at2 = (base: string, a: string | number, b: string | number) => joinPath(joinPath(base, a), b);

// ---------------------------------------------------------------- quantities

/** The value of a resource.Quantity: lib/resources.ts's, the one implementation. */
export { parseQuantity };

// ---------------------------------------------------------------- label selectors

/**
 * A label selector's syntax: matchExpressions keys are label keys, In and NotIn need values
 * (valid label values), Exists and DoesNotExist take none.
 */
export function selectorSyntax(sel: unknown, at: string, push: Push): void {
  if (!isObj(sel)) return;
  list(sel.matchExpressions).forEach((e, i) => {
    if (!isObj(e)) return;
    const values = list(e.values);
    const p = at2(at, 'matchExpressions', i);
    if (str(e.key)) {
      const bad = checkQualifiedName(e.key);
      if (bad) push('K8S-SELECTOR', joinPath(p, 'key'), `${show(e.key)} is not a valid label key: expected ${bad}`);
    }
    if ((e.operator === 'In' || e.operator === 'NotIn') && !values.length) push('K8S-SELECTOR', joinPath(p, 'values'), `operator ${e.operator} needs at least one value`);
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length) push('K8S-SELECTOR', joinPath(p, 'values'), `operator ${e.operator} takes no values`);
    values.forEach((v, j) => {
      const bad = str(v) ? checkLabelValue(v) : undefined;
      if (bad) push('K8S-SELECTOR', at2(p, 'values', j), `${show(v)} is not a valid label value: expected ${bad}`);
    });
  });
}

// ---------------------------------------------------------------- volumes

/** The volume source fields of a v1.32 Volume (one of them, or none: the API server then defaults to emptyDir). */
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral', 'image',
];
const PROJECTIONS = ['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle'];
const VOLUME_FIELD_PATHS = new Set(['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid']);
const ENV_FIELD_PATHS = new Set(['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs']);
const RESOURCE_FIELDS = new Set(['limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage']);
const CPU_DIVISORS = new Set(['1m', '1']);
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);

/** A relative path inside the volume: not absolute, no '..' element, not starting with '..'. */
function localPathProblem(path: string): string | undefined {
  if (path.startsWith('/')) return 'must be a relative path';
  if (path.split('/').includes('..')) return 'must not contain \'..\'';
  if (path.startsWith('..')) return 'must not start with \'..\'';
  return undefined;
}

/** A file path of a volume's items: required, relative, inside the volume; unique within the volume. */
function filePath(path: unknown, at: string, push: Push, seen?: Set<string>): void {
  if (!str(path) || path === '') {
    push('K8S-VOLUME', at, 'a path is required');
    return;
  }
  const bad = localPathProblem(path);
  if (bad) push('K8S-VOLUME', at, `${show(path)} ${bad}`);
  if (seen) {
    if (seen.has(path)) push('K8S-VOLUME', at, `the path ${show(path)} is projected twice in this volume`);
    seen.add(path);
  }
}

function keyToPaths(items: unknown, at: string, push: Push, seen?: Set<string>): void {
  list(items).forEach((item, i) => {
    if (!isObj(item)) return;
    const p = joinPath(at, i);
    if (!str(item.key) || item.key === '') push('K8S-VOLUME', joinPath(p, 'key'), 'a key is required');
    filePath(item.path, joinPath(p, 'path'), push, seen);
  });
}

/** A fieldRef: apiVersion v1 and a field path the downward API supports (`env` or `volume`). */
export function fieldRef(ref: Obj, at: string, push: Push, rule: string, where: 'env' | 'volume'): void {
  if (ref.apiVersion !== undefined && ref.apiVersion !== 'v1') push(rule, joinPath(at, 'apiVersion'), `the downward API serves apiVersion v1 only (got ${show(ref.apiVersion)})`);
  if (!str(ref.fieldPath)) return;
  const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(ref.fieldPath);
  if (sub) {
    const bad = checkQualifiedName(sub[2]);
    if (bad) push(rule, joinPath(at, 'fieldPath'), `${show(sub[2])} is not a valid ${sub[1] === 'labels' ? 'label' : 'annotation'} key: expected ${bad}`);
    return;
  }
  const allowed = where === 'env' ? ENV_FIELD_PATHS : VOLUME_FIELD_PATHS;
  if (!allowed.has(ref.fieldPath)) {
    push(rule, joinPath(at, 'fieldPath'), `${show(ref.fieldPath)} is not a field the downward API exposes ${where === 'env' ? 'to environment variables' : 'in a volume'}; use one of ${[...allowed].join(', ')}, or metadata.labels['<key>'] / metadata.annotations['<key>']`);
  }
}

/** A resourceFieldRef: a supported resource and divisor; in a volume, the container is required. */
export function resourceFieldRef(ref: Obj, at: string, push: Push, rule: string, where: 'env' | 'volume'): void {
  if (where === 'volume' && (!str(ref.containerName) || ref.containerName === '')) push(rule, joinPath(at, 'containerName'), 'a resourceFieldRef in a volume needs containerName');
  if (!str(ref.resource)) return;
  const hugepages = /^(limits|requests)\.hugepages-/.test(ref.resource);
  if (!RESOURCE_FIELDS.has(ref.resource) && !hugepages) {
    push(rule, joinPath(at, 'resource'), `${show(ref.resource)} is not a resource the downward API exposes; use one of ${[...RESOURCE_FIELDS].join(', ')} or limits/requests.hugepages-<size>`);
    return;
  }
  if (ref.divisor === undefined) return;
  const divisors = ref.resource.endsWith('.cpu') ? CPU_DIVISORS : BYTE_DIVISORS;
  if (!divisors.has(String(ref.divisor))) push(rule, joinPath(at, 'divisor'), `${show(ref.divisor)} is not a divisor for ${ref.resource}; use one of ${[...divisors].join(', ')}`);
}

function downwardApiItems(items: unknown, at: string, push: Push, seen?: Set<string>): void {
  list(items).forEach((item, i) => {
    if (!isObj(item)) return;
    const p = joinPath(at, i);
    filePath(item.path, joinPath(p, 'path'), push, seen);
    const refs = ['fieldRef', 'resourceFieldRef'].filter((k) => item[k] !== undefined);
    if (refs.length !== 1) push('K8S-VOLUME', p, refs.length ? 'fieldRef and resourceFieldRef cannot both be set' : 'needs fieldRef or resourceFieldRef');
    if (isObj(item.fieldRef)) fieldRef(item.fieldRef, joinPath(p, 'fieldRef'), push, 'K8S-VOLUME', 'volume');
    if (isObj(item.resourceFieldRef)) resourceFieldRef(item.resourceFieldRef, joinPath(p, 'resourceFieldRef'), push, 'K8S-VOLUME', 'volume');
  });
}

const required = (v: unknown) => !str(v) || v === '';

/** One volume: exactly one source (none defaults to emptyDir), and each source's own rules. */
export function volume(v: Obj, at: string, push: Push): void {
  const sources = VOLUME_SOURCES.filter((k) => v[k] !== undefined);
  if (sources.length > 1) push('K8S-VOLUME', at, `sets ${sources.join(' and ')}: a volume has exactly one source`);
  if (isObj(v.secret)) {
    if (required(v.secret.secretName)) push('K8S-VOLUME', at2(at, 'secret', 'secretName'), 'a secret volume needs secretName');
    keyToPaths(v.secret.items, at2(at, 'secret', 'items'), push);
  }
  if (isObj(v.configMap)) {
    if (required(v.configMap.name)) push('K8S-VOLUME', at2(at, 'configMap', 'name'), 'a configMap volume needs name');
    keyToPaths(v.configMap.items, at2(at, 'configMap', 'items'), push);
  }
  if (isObj(v.persistentVolumeClaim) && required(v.persistentVolumeClaim.claimName)) push('K8S-VOLUME', at2(at, 'persistentVolumeClaim', 'claimName'), 'a persistentVolumeClaim volume needs claimName');
  if (isObj(v.hostPath) && str(v.hostPath.path) && v.hostPath.path.split('/').includes('..')) push('K8S-VOLUME', at2(at, 'hostPath', 'path'), 'must not contain \'..\'');
  if (isObj(v.emptyDir) && v.emptyDir.sizeLimit !== undefined && (parseQuantity(v.emptyDir.sizeLimit) ?? 0) < 0) push('K8S-VOLUME', at2(at, 'emptyDir', 'sizeLimit'), 'must not be negative');
  if (isObj(v.csi) && required(v.csi.driver)) push('K8S-VOLUME', at2(at, 'csi', 'driver'), 'a csi volume needs driver');
  if (isObj(v.ephemeral) && !isObj(v.ephemeral.volumeClaimTemplate)) push('K8S-VOLUME', at2(at, 'ephemeral', 'volumeClaimTemplate'), 'an ephemeral volume needs volumeClaimTemplate');
  if (isObj(v.nfs) && str(v.nfs.path) && !v.nfs.path.startsWith('/')) push('K8S-VOLUME', at2(at, 'nfs', 'path'), 'must be an absolute path');
  if (isObj(v.downwardAPI)) downwardApiItems(v.downwardAPI.items, at2(at, 'downwardAPI', 'items'), push);
  if (isObj(v.projected)) {
    const seen = new Set<string>();
    list(v.projected.sources).forEach((s, i) => {
      if (!isObj(s)) return;
      const p = at2(at, 'projected', 'sources');
      const sp = joinPath(p, i);
      const set = PROJECTIONS.filter((k) => s[k] !== undefined);
      if (set.length > 1) push('K8S-VOLUME', sp, `sets ${set.join(' and ')}: each projected source has exactly one kind`);
      if (isObj(s.secret)) {
        if (required(s.secret.name)) push('K8S-VOLUME', at2(sp, 'secret', 'name'), 'a projected secret needs name');
        keyToPaths(s.secret.items, at2(sp, 'secret', 'items'), push, seen);
      }
      if (isObj(s.configMap)) {
        if (required(s.configMap.name)) push('K8S-VOLUME', at2(sp, 'configMap', 'name'), 'a projected configMap needs name');
        keyToPaths(s.configMap.items, at2(sp, 'configMap', 'items'), push, seen);
      }
      if (isObj(s.downwardAPI)) downwardApiItems(s.downwardAPI.items, at2(sp, 'downwardAPI', 'items'), push, seen);
      const token = s.serviceAccountToken;
      if (isObj(token)) {
        const tp = joinPath(sp, 'serviceAccountToken');
        filePath(token.path, joinPath(tp, 'path'), push, seen);
        const exp = token.expirationSeconds;
        if (typeof exp === 'number' && (exp < 600 || exp > 2 ** 32)) push('K8S-VOLUME', joinPath(tp, 'expirationSeconds'), `must be from 600 (10 minutes) to 4294967296 (got ${exp})`);
      }
      if (isObj(s.clusterTrustBundle)) filePath(s.clusterTrustBundle.path, at2(sp, 'clusterTrustBundle', 'path'), push, seen);
    });
  }
}

// ---------------------------------------------------------------- scheduling

function labelMap(m: unknown, at: string, push: Push, rule: string): void {
  if (!isObj(m)) return;
  for (const [k, v] of Object.entries(m)) {
    const badKey = checkQualifiedName(k);
    if (badKey) push(rule, joinPath(at, k), `${show(k)} is not a valid label key: expected ${badKey}`);
    const badValue = str(v) ? checkLabelValue(v) : undefined;
    if (badValue) push(rule, joinPath(at, k), `${show(v)} is not a valid label value: expected ${badValue}`);
  }
}

function tolerations(items: unknown, at: string, push: Push): void {
  list(items).forEach((t, i) => {
    if (!isObj(t)) return;
    const p = joinPath(at, i);
    const key = str(t.key) ? t.key : '';
    if (key) {
      const bad = checkQualifiedName(key);
      if (bad) push('K8S-SCHEDULING', joinPath(p, 'key'), `${show(key)} is not a valid taint key: expected ${bad}`);
    } else if (t.operator !== 'Exists') {
      push('K8S-SCHEDULING', joinPath(p, 'operator'), 'a toleration without a key matches every taint and needs operator Exists');
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') push('K8S-SCHEDULING', joinPath(p, 'effect'), 'tolerationSeconds needs effect NoExecute');
    if (t.operator === 'Exists' && str(t.value) && t.value !== '') push('K8S-SCHEDULING', joinPath(p, 'value'), 'a toleration with operator Exists takes no value');
    if (t.operator !== 'Exists' && str(t.value)) {
      const bad = checkLabelValue(t.value);
      if (bad) push('K8S-SCHEDULING', joinPath(p, 'value'), `${show(t.value)} is not a valid taint value: expected ${bad}`);
    }
  });
}

function nodeSelectorTerm(term: unknown, at: string, push: Push): void {
  if (!isObj(term)) return;
  list(term.matchExpressions).forEach((e, i) => {
    if (!isObj(e)) return;
    const p = at2(at, 'matchExpressions', i);
    const values = list(e.values);
    if (str(e.key)) {
      const bad = checkQualifiedName(e.key);
      if (bad) push('K8S-SCHEDULING', joinPath(p, 'key'), `${show(e.key)} is not a valid label key: expected ${bad}`);
    }
    if ((e.operator === 'In' || e.operator === 'NotIn') && !values.length) push('K8S-SCHEDULING', joinPath(p, 'values'), `operator ${e.operator} needs at least one value`);
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length) push('K8S-SCHEDULING', joinPath(p, 'values'), `operator ${e.operator} takes no values`);
    if ((e.operator === 'Gt' || e.operator === 'Lt') && (values.length !== 1 || !/^-?\d+$/.test(String(values[0])))) {
      push('K8S-SCHEDULING', joinPath(p, 'values'), `operator ${e.operator} needs exactly one value, an integer`);
    }
  });
  list(term.matchFields).forEach((e, i) => {
    if (!isObj(e)) return;
    const p = at2(at, 'matchFields', i);
    if (e.key !== 'metadata.name') push('K8S-SCHEDULING', joinPath(p, 'key'), `matchFields supports only the key metadata.name (got ${show(e.key)})`);
    if ((e.operator === 'In' || e.operator === 'NotIn') && list(e.values).length !== 1) push('K8S-SCHEDULING', joinPath(p, 'values'), `operator ${e.operator} in matchFields needs exactly one value`);
    if (e.operator !== undefined && e.operator !== 'In' && e.operator !== 'NotIn') push('K8S-SCHEDULING', joinPath(p, 'operator'), `matchFields supports operators In and NotIn (got ${show(e.operator)})`);
  });
}

function weight(w: unknown, at: string, push: Push): void {
  if (typeof w === 'number' && (w < 1 || w > 100)) push('K8S-SCHEDULING', at, `a preference weight is from 1 to 100 (got ${w})`);
}

function podAffinityTerm(term: unknown, at: string, push: Push): void {
  if (!isObj(term)) return;
  if (!str(term.topologyKey) || term.topologyKey === '') {push('K8S-SCHEDULING', joinPath(at, 'topologyKey'), 'a pod affinity term needs a topologyKey (such as kubernetes.io/hostname)');} else {
    const bad = checkQualifiedName(term.topologyKey);
    if (bad) push('K8S-SCHEDULING', joinPath(at, 'topologyKey'), `${show(term.topologyKey)} is not a valid label key: expected ${bad}`);
  }
  selectorSyntax(term.labelSelector, joinPath(at, 'labelSelector'), push);
  selectorSyntax(term.namespaceSelector, joinPath(at, 'namespaceSelector'), push);
  list(term.namespaces).forEach((n, i) => {
    const bad = str(n) ? checkDnsLabel(n) : undefined;
    if (bad) push('K8S-SCHEDULING', at2(at, 'namespaces', i), `${show(n)} is not a valid namespace: expected ${bad}`);
  });
}

function affinity(a: unknown, at: string, push: Push): void {
  if (!isObj(a)) return;
  const na = a.nodeAffinity;
  if (isObj(na)) {
    const req = na.requiredDuringSchedulingIgnoredDuringExecution;
    const rp = joinPath(joinPath(at, 'nodeAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution');
    if (isObj(req)) {
      if (!list(req.nodeSelectorTerms).length) push('K8S-SCHEDULING', joinPath(rp, 'nodeSelectorTerms'), 'a required node affinity needs at least one node selector term');
      list(req.nodeSelectorTerms).forEach((t, i) => nodeSelectorTerm(t, at2(rp, 'nodeSelectorTerms', i), push));
    }
    list(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((p, i) => {
      const pp = at2(at, 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution');
      weight(p?.weight, at2(pp, i, 'weight'), push);
      nodeSelectorTerm(p?.preference, at2(pp, i, 'preference'), push);
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pa = a[kind];
    if (!isObj(pa)) continue;
    const base = joinPath(at, kind);
    list(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => podAffinityTerm(t, at2(base, 'requiredDuringSchedulingIgnoredDuringExecution', i), push));
    list(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((p, i) => {
      const pp = at2(base, 'preferredDuringSchedulingIgnoredDuringExecution', i);
      weight(p?.weight, joinPath(pp, 'weight'), push);
      podAffinityTerm(p?.podAffinityTerm, joinPath(pp, 'podAffinityTerm'), push);
    });
  }
}

function topologySpread(items: unknown, at: string, push: Push): void {
  const pairs = new Set<string>();
  list(items).forEach((c, i) => {
    if (!isObj(c)) return;
    const p = joinPath(at, i);
    if (!str(c.topologyKey) || c.topologyKey === '') {push('K8S-SCHEDULING', joinPath(p, 'topologyKey'), 'a topology spread constraint needs a topologyKey (such as topology.kubernetes.io/zone)');} else {
      const bad = checkQualifiedName(c.topologyKey);
      if (bad) push('K8S-SCHEDULING', joinPath(p, 'topologyKey'), `${show(c.topologyKey)} is not a valid label key: expected ${bad}`);
    }
    const pair = `${c.topologyKey}/${c.whenUnsatisfiable}`;
    if (pairs.has(pair)) push('K8S-SCHEDULING', p, `two constraints with topologyKey ${show(c.topologyKey)} and whenUnsatisfiable ${show(c.whenUnsatisfiable)}; merge them`);
    pairs.add(pair);
    if (c.minDomains !== undefined) {
      if (typeof c.minDomains === 'number' && c.minDomains < 1) push('K8S-SCHEDULING', joinPath(p, 'minDomains'), `must be at least 1 (got ${c.minDomains})`);
      if (c.whenUnsatisfiable !== 'DoNotSchedule') push('K8S-SCHEDULING', joinPath(p, 'minDomains'), 'minDomains can only be set with whenUnsatisfiable DoNotSchedule');
    }
    selectorSyntax(c.labelSelector, joinPath(p, 'labelSelector'), push);
    const keys = list(c.matchLabelKeys);
    if (keys.length && !isObj(c.labelSelector)) push('K8S-SCHEDULING', joinPath(p, 'matchLabelKeys'), 'matchLabelKeys needs a labelSelector');
    const selKeys = new Set([...Object.keys(isObj(c.labelSelector?.matchLabels) ? c.labelSelector.matchLabels : {}), ...list(c.labelSelector?.matchExpressions).map((e) => e?.key)]);
    keys.forEach((k, j) => {
      if (!str(k)) return;
      const bad = checkQualifiedName(k);
      if (bad) push('K8S-SCHEDULING', at2(p, 'matchLabelKeys', j), `${show(k)} is not a valid label key: expected ${bad}`);
      else if (selKeys.has(k)) push('K8S-SCHEDULING', at2(p, 'matchLabelKeys', j), `${show(k)} is already in the labelSelector`);
    });
  });
}

// ---------------------------------------------------------------- security contexts

function profile(p: unknown, at: string, push: Push): void {
  if (!isObj(p)) return;
  if (p.type === 'Localhost' && (!str(p.localhostProfile) || p.localhostProfile === '')) push('K8S-POD', joinPath(at, 'localhostProfile'), 'a Localhost profile needs localhostProfile');
  if (p.type !== 'Localhost' && p.localhostProfile !== undefined) push('K8S-POD', joinPath(at, 'localhostProfile'), `localhostProfile can only be set with type Localhost (type is ${show(p.type)})`);
}

const SYSCTL = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const IPC_SYSCTL = /^(kernel\.shm|kernel\.msg|kernel\.sem$|fs\.mqueue\.)/;

function podSecurityContext(sc: unknown, spec: Obj, at: string, push: Push): void {
  if (!isObj(sc)) return;
  profile(sc.seccompProfile, joinPath(at, 'seccompProfile'), push);
  profile(sc.appArmorProfile, joinPath(at, 'appArmorProfile'), push);
  const names = new Set<string>();
  list(sc.sysctls).forEach((s, i) => {
    if (!isObj(s) || !str(s.name)) return;
    const p = at2(at, 'sysctls', i);
    if (s.name.length > 253 || !SYSCTL.test(s.name)) push('K8S-POD', joinPath(p, 'name'), `${show(s.name)} is not a sysctl name: expected dot- or slash-separated segments of lowercase letters, digits, '-' and '_', at most 253 characters`);
    else if (names.has(s.name)) push('K8S-POD', joinPath(p, 'name'), `duplicate sysctl ${show(s.name)}`);
    else if (spec.hostNetwork === true && s.name.startsWith('net.')) push('K8S-POD', joinPath(p, 'name'), `${show(s.name)} cannot be set when hostNetwork is true`);
    else if (spec.hostIPC === true && IPC_SYSCTL.test(s.name)) push('K8S-POD', joinPath(p, 'name'), `${show(s.name)} cannot be set when hostIPC is true`);
    names.add(s.name);
  });
}

function containerSecurityContext(sc: unknown, at: string, push: Push): void {
  if (!isObj(sc)) return;
  profile(sc.seccompProfile, joinPath(at, 'seccompProfile'), push);
  profile(sc.appArmorProfile, joinPath(at, 'appArmorProfile'), push);
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) push('K8S-POD', joinPath(at, 'allowPrivilegeEscalation'), 'cannot be false when privileged is true');
    if (list(sc.capabilities?.add).some((c) => c === 'SYS_ADMIN' || c === 'CAP_SYS_ADMIN')) push('K8S-POD', joinPath(at, 'allowPrivilegeEscalation'), 'cannot be false when capabilities.add has SYS_ADMIN');
  }
}

// ---------------------------------------------------------------- resources

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** Native resources (no domain, or a kubernetes.io domain) other than hugepages may be overcommitted. */
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const isHugePages = (name: string) => name.startsWith('hugepages-');
const overcommitAllowed = (name: string) => isNative(name) && !isHugePages(name);

function resourceName(name: string, at: string, push: Push): boolean {
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
      push('K8S-RESOURCES', at, `${show(name)} is not a container resource: use cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource with a domain (such as nvidia.com/gpu)`);
      return false;
    }
    return true;
  }
  const bad = checkQualifiedName(name);
  if (bad || (!isNative(name) && (name.startsWith('requests.') || checkQualifiedName(`requests.${name}`)))) {
    push('K8S-RESOURCES', at, `${show(name)} is not a valid resource name: expected ${bad ?? 'an extended resource name such as example.com/device'}`);
    return false;
  }
  return true;
}

/** Resource names, non-negative values, integer extended resources, and what cannot be overcommitted. */
export function containerResources(r: unknown, at: string, push: Push): void {
  if (!isObj(r)) return;
  const requests = isObj(r.requests) ? r.requests : {};
  const limits = isObj(r.limits) ? r.limits : {};
  let hugePages = false;
  let cpuOrMemory = false;
  for (const [field, values] of [['limits', limits], ['requests', requests]] as const) {
    for (const [name, q] of Object.entries(values)) {
      const p = at2(at, field, name);
      if (!resourceName(name, p, push)) continue;
      const v = parseQuantity(q);
      if (v === undefined) continue;
      if (v < 0) push('K8S-RESOURCES', p, `${show(q)} must not be negative`);
      if (!isNative(name) && Math.abs(v - Math.round(v)) > 1e-9) push('K8S-RESOURCES', p, `an extended resource is counted in whole units (got ${show(q)})`);
      if (isHugePages(name)) {
        hugePages = true;
        const page = parseQuantity(name.slice('hugepages-'.length));
        if (page !== undefined && page > 0 && v % page !== 0) push('K8S-RESOURCES', p, `${show(q)} is not a multiple of the page size ${name.slice('hugepages-'.length)}`);
      }
      if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    }
  }
  for (const [name, q] of Object.entries(requests)) {
    if (overcommitAllowed(name)) continue;
    const p = at2(at, 'requests', name);
    if (limits[name] === undefined) {
      push('K8S-RESOURCES', at2(at, 'limits', name), `${name} cannot be overcommitted: set a limit equal to the request ${show(q)} (or set only the limit)`);
      continue;
    }
    const rq = parseQuantity(q);
    const lm = parseQuantity(limits[name]);
    if (rq !== undefined && lm !== undefined && rq !== lm) push('K8S-RESOURCES', p, `${name} cannot be overcommitted: the request ${show(q)} must equal the limit ${show(limits[name])}`);
  }
  if (hugePages && !cpuOrMemory) push('K8S-RESOURCES', at, 'hugepages need a cpu or memory request or limit as well');
}

// ---------------------------------------------------------------- the pod spec

/** The pod-level rules of this module, for a pod spec at `at`. */
export function podSpecRules(spec: Obj, at: string, push: Push): void {
  list(spec.volumes).forEach((v, i) => {
    if (isObj(v)) volume(v, at2(at, 'volumes', i), push);
  });
  labelMap(spec.nodeSelector, joinPath(at, 'nodeSelector'), push, 'K8S-SCHEDULING');
  tolerations(spec.tolerations, joinPath(at, 'tolerations'), push);
  affinity(spec.affinity, joinPath(at, 'affinity'), push);
  topologySpread(spec.topologySpreadConstraints, joinPath(at, 'topologySpreadConstraints'), push);
  podSecurityContext(spec.securityContext, spec, joinPath(at, 'securityContext'), push);
  if (list(spec.ephemeralContainers).length) push('K8S-POD', joinPath(at, 'ephemeralContainers'), 'ephemeral containers cannot be set on create or in a template; add them with kubectl debug');
  for (const field of ['serviceAccountName', 'priorityClassName', 'runtimeClassName']) {
    if (!str(spec[field]) || spec[field] === '') continue;
    const bad = checkDnsSubdomain(spec[field]);
    if (bad) push('K8S-NAME', joinPath(at, field), `${show(spec[field])} is not a valid ${field}: expected ${bad}`);
  }
  if (str(spec.hostname) && spec.hostname !== '') {
    const bad = checkDnsLabel(spec.hostname);
    if (bad) push('K8S-NAME', joinPath(at, 'hostname'), `${show(spec.hostname)} is not a valid hostname: expected ${bad}`);
  }
  if (str(spec.subdomain) && spec.subdomain !== '') {
    const bad = checkDnsLabel(spec.subdomain);
    if (bad) push('K8S-NAME', joinPath(at, 'subdomain'), `${show(spec.subdomain)} is not a valid subdomain: expected ${bad}`);
  }
  // Host ports: unique by protocol, host IP and port among the regular containers; with hostNetwork, equal to the container port.
  const hostPorts = new Set<string>();
  list(spec.containers).forEach((c, i) => list(c?.ports).forEach((port, j) => {
    if (!isObj(port) || typeof port.hostPort !== 'number' || port.hostPort === 0) return;
    const p = at2(joinPath(joinPath(at, 'containers'), i), 'ports', j);
    const key = `${port.protocol ?? 'TCP'}/${port.hostIP ?? ''}/${port.hostPort}`;
    if (hostPorts.has(key)) push('K8S-UNIQUE', joinPath(p, 'hostPort'), `host port ${port.hostPort}/${port.protocol ?? 'TCP'} is used twice in the pod`);
    hostPorts.add(key);
  }));
  if (spec.hostNetwork === true) {
    for (const field of ['initContainers', 'containers']) {
      list(spec[field]).forEach((c, i) => list(c?.ports).forEach((port, j) => {
        if (isObj(port) && typeof port.hostPort === 'number' && port.hostPort !== 0 && port.hostPort !== port.containerPort) {
          push('K8S-POD', at2(at2(at, field, i), 'ports', j) + '.hostPort', `with hostNetwork, hostPort must equal containerPort (${show(port.containerPort)})`);
        }
      }));
    }
  }
}

/** The container-level rules of this module. */
export function containerRules(c: Obj, at: string, push: Push): void {
  containerSecurityContext(c.securityContext, joinPath(at, 'securityContext'), push);
  containerResources(c.resources, joinPath(at, 'resources'), push);
  list(c.env).forEach((e, i) => {
    const vf = e?.valueFrom;
    if (!isObj(vf)) return;
    const p = at2(joinPath(at, 'env'), i, 'valueFrom');
    if (isObj(vf.fieldRef)) fieldRef(vf.fieldRef, joinPath(p, 'fieldRef'), push, 'K8S-ENV', 'env');
    if (isObj(vf.resourceFieldRef)) resourceFieldRef(vf.resourceFieldRef, joinPath(p, 'resourceFieldRef'), push, 'K8S-ENV', 'env');
    for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
      if (isObj(vf[ref]) && required(vf[ref].key)) push('K8S-ENV', at2(p, ref, 'key'), `${ref} needs a key`);
      if (isObj(vf[ref]) && required(vf[ref].name)) push('K8S-ENV', at2(p, ref, 'name'), `${ref} needs the name of the ${ref === 'secretKeyRef' ? 'Secret' : 'ConfigMap'}`);
    }
  });
}
