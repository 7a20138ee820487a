/** One problem found in an object: where it is and what is wrong, in plain words. */
export interface ValidationIssue {
  /** Field path such as `spec.template.spec.containers[0].image` (empty for the object itself). */
  readonly path: string;
  readonly message: string;
  /** The rule id (see RULES in lib/validation/rules.ts); K8S-SCHEMA when not set. */
  readonly rule?: string;
  /** `warning`: the validator could not decide (e.g. a CEL rule it cannot evaluate); errors otherwise. */
  readonly severity?: 'error' | 'warning';
}

/** `path: message`, the way issues are printed. */
export function formatIssue(issue: ValidationIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

const IDENT = /^[A-Za-z_$][\w$-]*$/;

/** Appends a field name or list index to a path: `a.b`, `a[0]`, `a["app.kubernetes.io/name"]`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (IDENT.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

/** Turns an ajv instance path (`/spec/containers/0/name`) into a field path. */
export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer.slice(1).split('/').reduce((acc, raw) => {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    return joinPath(acc, /^\d+$/.test(seg) ? Number(seg) : seg);
  }, '');
}

/** A value as shown in a message: JSON for scalars (shortened), a word for objects and lists. */
export function show(value: unknown, max = 40): string {
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = typeof value === 'bigint' ? String(value) : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Removes duplicate issues (same path and message), keeping the first. */
export function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
