/**
 * Kubernetes resource quantities (500m, 2Gi, 1.5, 1e3) and the checks the API server makes
 * on a container's resources, for constructs to report with their path before synth.
 */

const SUFFIXES: Record<string, number> = {
  'n': 1e-9,
  'u': 1e-6,
  'm': 1e-3,
  '': 1,
  'k': 1e3,
  'M': 1e6,
  'G': 1e9,
  'T': 1e12,
  'P': 1e15,
  'E': 1e18,
  'Ki': 2 ** 10,
  'Mi': 2 ** 20,
  'Gi': 2 ** 30,
  'Ti': 2 ** 40,
  'Pi': 2 ** 50,
  'Ei': 2 ** 60,
};
// The quantity syntax of the Kubernetes API (its OpenAPI pattern): an exponent may be decimal.
const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?(?:\d+(?:\.\d*)?|\.\d+))|(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?)$/;

/** The value of a quantity (cores for cpu, bytes for memory), or undefined when it is not one. */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const m = QUANTITY.exec(q);
  if (!m) return undefined;
  const base = Number(m[1]);
  return m[2] ? base * 10 ** Number(m[2].slice(1)) : base * SUFFIXES[m[3] ?? ''];
}

/** A container's requests and limits, as Controller and Workload take them. */
export interface ContainerResources {
  readonly requests?: Record<string, string>;
  readonly limits?: Record<string, string>;
}

const RESOURCE_NAME = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * What is wrong with a container's resources: a name that is not a resource name, a value
 * that is not a quantity, a negative one, or a request above its limit (the API server
 * rejects each). `where` names the prop in the messages.
 */
export function resourceProblems(r: ContainerResources, where = 'resources'): string[] {
  const out: string[] = [];
  for (const field of ['requests', 'limits'] as const) {
    for (const [name, value] of Object.entries(r[field] ?? {})) {
      if (!RESOURCE_NAME.test(name)) out.push(`${where}.${field}: '${name}' is not a resource name; use cpu, memory, ephemeral-storage or a <domain>/<name> extended resource`);
      const v = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
      if (v === undefined) out.push(`${where}.${field}.${name} '${value}' is not a quantity; write it like 500m, 2Gi or 1.5`);
      else if (v < 0) out.push(`${where}.${field}.${name} '${value}' is negative; give a quantity >= 0`);
    }
  }
  for (const [name, req] of Object.entries(r.requests ?? {})) {
    const lim = r.limits?.[name];
    if (lim === undefined) continue;
    const rv = parseQuantity(req);
    const lv = parseQuantity(lim);
    if (rv !== undefined && lv !== undefined && rv > lv) out.push(`${where}: requests.${name} '${req}' is above limits.${name} '${lim}'; raise the limit or lower the request`);
  }
  return out;
}

/** `over` merged key by key over `base` (a customization over a component's resources). */
export function mergeResources(base: ContainerResources | undefined, over: ContainerResources | undefined): ContainerResources | undefined {
  if (!over) return base;
  const merge = (a?: Record<string, string>, b?: Record<string, string>) => (a || b ? { ...(a ?? {}), ...(b ?? {}) } : undefined);
  return { requests: merge(base?.requests, over.requests), limits: merge(base?.limits, over.limits) };
}

/** Throws, naming `where`, when a container port is not a whole number from 1 to 65535. */
export function checkPorts(where: string, ports: ReadonlyArray<{ readonly name?: unknown; readonly containerPort: number }>): void {
  for (const p of ports) {
    if (!Number.isInteger(p.containerPort) || p.containerPort < 1 || p.containerPort > 65535) {
      throw new Error(`${where}: container port ${p.name === undefined ? '' : `${String(p.name)}=`}${p.containerPort} must be a whole number from 1 to 65535`);
    }
  }
}
