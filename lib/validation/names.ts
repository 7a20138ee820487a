import { joinPath, show, ValidationIssue } from './issues';

/**
 * Name and label syntax of the Kubernetes API (k8s.io/apimachinery/pkg/util/validation).
 * Each check returns undefined when the value is fine, or what is expected.
 */

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** The rule a kind applies to `metadata.name`. */
export type NameRule = 'dns-label' | 'dns-subdomain' | 'path-segment';

export function checkDnsLabel(value: string): string | undefined {
  if (value.length <= 63 && LABEL.test(value)) return undefined;
  return 'a DNS label (at most 63 characters: lowercase letters, digits and \'-\', starting and ending with a letter or digit)';
}

export function checkDnsSubdomain(value: string): string | undefined {
  if (value.length <= 253 && SUBDOMAIN.test(value)) return undefined;
  return 'a DNS subdomain (at most 253 characters: lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit)';
}

/** Names of RBAC objects and the like: anything but `.`, `..` and names with `/` or `%`. */
export function checkPathSegment(value: string): string | undefined {
  if (value && value !== '.' && value !== '..' && !/[/%]/.test(value)) return undefined;
  return 'a name without \'/\' or \'%\' that is not \'.\' or \'..\'';
}

export function checkName(value: string, rule: NameRule): string | undefined {
  switch (rule) {
    case 'dns-label': return checkDnsLabel(value);
    case 'path-segment': return checkPathSegment(value);
    default: return checkDnsSubdomain(value);
  }
}

/** Label and annotation keys: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
export function checkQualifiedName(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const prefixOk = prefix === undefined || (prefix.length > 0 && checkDnsSubdomain(prefix) === undefined);
  if (prefixOk && name.length <= 63 && QUALIFIED_NAME.test(name)) return undefined;
  return 'a key of an optional DNS subdomain prefix and \'/\', then a name of at most 63 characters (letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit)';
}

export function checkLabelValue(value: string): string | undefined {
  if (value === '' || (value.length <= 63 && QUALIFIED_NAME.test(value))) return undefined;
  return 'a label value (empty, or at most 63 characters: letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit)';
}

const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/** Issues of a label map (metadata.labels, a selector's matchLabels). */
export function labelIssues(labels: unknown, path: string): ValidationIssue[] {
  if (!isStringMap(labels)) return [];
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(labels)) {
    const at = joinPath(path, key);
    const badKey = checkQualifiedName(key);
    if (badKey) issues.push({ rule: 'K8S-NAME', path: at, message: `label key ${show(key)} is not valid: expected ${badKey}` });
    const badValue = typeof value === 'string' ? checkLabelValue(value) : undefined;
    if (badValue) issues.push({ rule: 'K8S-NAME', path: at, message: `label value ${show(value)} is not valid: expected ${badValue}` });
  }
  return issues;
}

/** Issues of metadata.annotations: key syntax and the 256 KiB total size. */
export function annotationIssues(annotations: unknown, path: string): ValidationIssue[] {
  if (!isStringMap(annotations)) return [];
  const issues: ValidationIssue[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    size += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
    const badKey = checkQualifiedName(key);
    if (badKey) issues.push({ rule: 'K8S-NAME', path: joinPath(path, key), message: `annotation key ${show(key)} is not valid: expected ${badKey}` });
  }
  if (size > ANNOTATIONS_MAX_BYTES) issues.push({ rule: 'K8S-NAME', path, message: `annotations take ${size} bytes, more than the 262144 allowed` });
  return issues;
}

/** Issues of `metadata.name` (by the kind's rule, required unless generateName is set) and `metadata.namespace`. */
export function nameIssues(meta: unknown, path: string, nameRule: NameRule = 'dns-subdomain'): ValidationIssue[] {
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return [{ path, message: 'required field is missing' }];
  const m = meta as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (typeof m.name === 'string') {
    const bad = checkName(m.name, nameRule);
    if (bad) issues.push({ rule: 'K8S-NAME', path: joinPath(path, 'name'), message: `${show(m.name)} is not a valid name: expected ${bad}` });
  } else if (m.name === undefined && typeof m.generateName !== 'string') {
    issues.push({ rule: 'K8S-NAME', path: joinPath(path, 'name'), message: 'required field is missing' });
  }
  if (typeof m.namespace === 'string') {
    const bad = checkDnsLabel(m.namespace);
    if (bad) issues.push({ rule: 'K8S-NAME', path: joinPath(path, 'namespace'), message: `${show(m.namespace)} is not a valid namespace: expected ${bad}` });
  }
  return issues;
}

/** Issues of an object's metadata: name, namespace, labels and annotations. */
export function metadataIssues(meta: unknown, path: string, nameRule: NameRule = 'dns-subdomain'): ValidationIssue[] {
  const issues = nameIssues(meta, path, nameRule);
  if (meta === null || typeof meta !== 'object') return issues;
  const m = meta as Record<string, unknown>;
  return [...issues, ...labelIssues(m.labels, joinPath(path, 'labels')), ...annotationIssues(m.annotations, joinPath(path, 'annotations'))];
}

function isStringMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
