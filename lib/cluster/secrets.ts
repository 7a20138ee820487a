/**
 * The referenced Secrets (lib/secrets.ts) on a cluster: what `mlplatform apply` checks before
 * its first write, and the Secrets it generates.
 *
 * - A user-provided Secret that is missing, or lacks a key, stops the run before any change
 *   (naming the Secret, the workloads that need it and the hint how to create it).
 * - A generated Secret that is missing is created with crypto-random values, once its
 *   namespace exists and before the phase whose workloads read it. A Secret that exists is
 *   never changed: not overwritten, and no key is added to it (one that lacks a generated key
 *   stops the run: add the key, or delete the Secret so that apply generates it whole; adding
 *   one key could not keep a shared or derived value consistent with the others).
 * - A value shared between keys (an OAuth2 client secret two namespaces hold) is taken from
 *   whichever of them exists; a derived value (a bcrypt hash) from its source's Secret when
 *   that exists. A Secret only a person reads (Dex's initial password) is created only when a
 *   Secret derived from it is created too: after the admin deleted it, a new one would not be
 *   the password Dex knows.
 * - Generated Secrets carry no ApplySet label: prune never deletes them (like the data in a
 *   PersistentVolumeClaim, they outlive the objects that use them), and no value is ever
 *   printed: apply says which Secrets it created and, for one a person reads, the kubectl
 *   command that shows it.
 */
import { randomBytes, randomInt } from 'crypto';
import { ApiError, KubeClient } from './client';
import type { Json } from './desired';
import { GeneratedValue, ReferencedSecret, SecretEncoding, SecretKeyLocation, secretKeyOf } from '../secrets';

/** The annotation on a Secret apply generated: the platform it generated it for. */
export const GENERATED_BY_ANNOTATION = 'mlplatform/generated-for-platform';

/** What apply will do about the referenced Secrets. */
export interface SecretsPlan {
  /** Reasons apply must not start (user-provided Secrets missing, keys missing), one line each. */
  readonly problems: readonly string[];
  /** Secrets to generate, in creation order (sources before what derives from them). */
  readonly create: readonly ReferencedSecret[];
  /** Secrets to generate that are left out, with why (a person's Secret whose hash exists already). */
  readonly skipped: ReadonlyArray<{ readonly secret: ReferencedSecret; readonly reason: string }>;
  /** Namespaces whose Secrets could not be read (not allowed): the access review names them. */
  readonly unreadable: readonly string[];
  /** The live Secrets by namespace/name (undefined: missing). */
  readonly live: ReadonlyMap<string, Json | undefined>;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A crypto-random value in its encoding. */
export function randomValue(encoding: SecretEncoding, length: number): string {
  if (encoding === SecretEncoding.ALPHANUMERIC) {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
    return out;
  }
  return randomBytes(length).toString(encoding === SecretEncoding.BASE64URL ? 'base64url' : encoding);
}

/** bcryptjs, loaded only when apply makes a hash (the CLI loads nothing more for its other commands). */
function bcrypt(): typeof import('bcryptjs') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('bcryptjs');
}

const has = (live: Json | undefined, key: string) => live?.data?.[key] !== undefined || live?.stringData?.[key] !== undefined;
const neededBy = (s: ReferencedSecret) => (s.neededBy.length ? `needed by ${s.neededBy.join(', ')}` : 'read by people, not by a workload');

/** Reads every declared Secret and decides what apply does; does not write. */
export async function planSecrets(client: KubeClient, secrets: readonly ReferencedSecret[]): Promise<SecretsPlan> {
  const live = new Map<string, Json | undefined>();
  const unreadable = new Set<string>();
  for (const s of secrets) {
    try {
      live.set(secretKeyOf(s), await client.get('v1', 'Secret', s.namespace, s.name));
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) unreadable.add(s.namespace);
      else if (e instanceof ApiError && e.status === 404) live.set(secretKeyOf(s), undefined);
      else throw e;
    }
  }
  const problems: string[] = [];
  const missing = (s: ReferencedSecret) => live.has(secretKeyOf(s)) && live.get(secretKeyOf(s)) === undefined;
  for (const s of secrets) {
    const l = live.get(secretKeyOf(s));
    if (!l) {
      if (s.source === 'user' && missing(s)) {
        problems.push(`Secret ${secretKeyOf(s)} (keys ${s.keys.join(', ')}) does not exist: ${s.purpose}, ${neededBy(s)}; the user provides it: ${s.hint}`);
      }
      continue;
    }
    const lacking = s.keys.filter((k) => !has(l, k));
    if (lacking.length) {
      problems.push(s.source === 'user'
        ? `Secret ${secretKeyOf(s)} has no key ${lacking.join(', ')}: ${s.purpose}, ${neededBy(s)}; add ${lacking.length > 1 ? 'them' : 'it'} (${s.hint})`
        : `Secret ${secretKeyOf(s)} exists without key ${lacking.join(', ')}, which apply generates only in a Secret it creates (it never changes one that exists): ${s.purpose}, ${neededBy(s)}; add the key, or delete the Secret so that apply generates it whole`);
    }
  }
  // Generated and missing: those a workload reads, and the sources of values derived into those.
  const byKey = new Map(secrets.map((s) => [secretKeyOf(s), s]));
  const toCreate = new Set<ReferencedSecret>(secrets.filter((s) => s.source === 'generated' && missing(s) && s.neededBy.length));
  for (let changed = true; changed;) {
    changed = false;
    for (const s of [...toCreate]) {
      for (const v of Object.values(s.generate)) {
        if (v.type !== 'bcrypt' && v.type !== 'same-as') continue;
        const src = byKey.get(secretKeyOf(v.source));
        if (src && src.source === 'generated' && missing(src) && !toCreate.has(src)) { toCreate.add(src); changed = true; }
      }
    }
  }
  const skipped = secrets.filter((s) => s.source === 'generated' && missing(s) && !toCreate.has(s))
    .map((secret) => ({ secret, reason: 'no workload reads it and what derives from it exists already (a new value would not match)' }));
  // Sources first: a person's password exists before the hash Dex reads.
  const isSource = (s: ReferencedSecret) => [...toCreate].some((o) => Object.values(o.generate).some((v) => (v.type === 'bcrypt' || v.type === 'same-as') && secretKeyOf(v.source) === secretKeyOf(s)));
  const create = [...toCreate].sort((a, b) => Number(isSource(b)) - Number(isSource(a)));
  return { problems, create, skipped, unreadable: [...unreadable].sort(), live };
}

/**
 * The values of the Secrets to create, by namespace/name then key: random ones drawn now,
 * shared ones taken from whichever holder exists (else drawn once for all), derived ones from
 * their source's value.
 */
export function secretValues(plan: SecretsPlan, secrets: readonly ReferencedSecret[]): Map<string, Record<string, string>> {
  const byKey = new Map(secrets.map((s) => [secretKeyOf(s), s]));
  const locKey = (l: SecretKeyLocation) => `${l.namespace}/${l.name}/${l.key}`;
  const values = new Map<string, string>();
  const liveValue = (l: SecretKeyLocation): string | undefined => {
    const live = plan.live.get(`${l.namespace}/${l.name}`);
    const v = live?.data?.[l.key];
    return v === undefined ? live?.stringData?.[l.key] : Buffer.from(String(v), 'base64').toString('utf8');
  };
  // Holders of one shared value: a source and every key that is the same as it.
  const sharedWith = (l: SecretKeyLocation): SecretKeyLocation[] => {
    const out: SecretKeyLocation[] = [];
    for (const s of secrets) {
      for (const [key, v] of Object.entries(s.generate)) {
        if (v.type === 'same-as' && locKey(v.source) === locKey(l)) out.push({ namespace: s.namespace, name: s.name, key });
      }
    }
    return out;
  };
  const valueOf = (l: SecretKeyLocation, seen: Set<string> = new Set()): string => {
    const k = locKey(l);
    const known = values.get(k) ?? liveValue(l);
    if (known !== undefined) return known;
    if (seen.has(k)) throw new Error(`Secret key ${k} is generated from itself (a cycle of shared values)`);
    seen.add(k);
    const spec: GeneratedValue | undefined = byKey.get(`${l.namespace}/${l.name}`)?.generate[l.key];
    if (!spec) throw new Error(`Secret ${l.namespace}/${l.name} key ${l.key} is neither on the cluster nor generated: create it`);
    let v: string;
    if (spec.type === 'random') {v = randomValue(spec.encoding, spec.length);} else if (spec.type === 'fixed') {v = spec.value;} else if (spec.type === 'same-as') {
      // Another holder of the value on the cluster gives it; else the source's.
      const held = [spec.source, ...sharedWith(spec.source)].map(liveValue).find((x) => x !== undefined);
      v = held ?? valueOf(spec.source, seen);
    } else {
      v = bcrypt().hashSync(valueOf(spec.source, seen), spec.cost);
    }
    values.set(k, v);
    return v;
  };
  const out = new Map<string, Record<string, string>>();
  for (const s of plan.create) {
    const data: Record<string, string> = {};
    for (const key of Object.keys(s.generate).sort()) {
      // A source of shared values that is missing takes the value another holder has.
      const holders = sharedWith({ namespace: s.namespace, name: s.name, key }).map(liveValue).filter((x): x is string => x !== undefined);
      if (holders.length && !values.has(locKey({ namespace: s.namespace, name: s.name, key }))) values.set(locKey({ namespace: s.namespace, name: s.name, key }), holders[0]);
      data[key] = valueOf({ namespace: s.namespace, name: s.name, key });
    }
    out.set(secretKeyOf(s), data);
  }
  return out;
}

/** The Secret object apply creates (values base64 in data; no ApplySet label, so prune leaves it). */
export function generatedSecretObject(s: ReferencedSecret, data: Record<string, string>, platform: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: s.name,
      namespace: s.namespace,
      labels: { 'app.kubernetes.io/managed-by': 'mlplatform' },
      annotations: { [GENERATED_BY_ANNOTATION]: platform, 'mlplatform/purpose': s.purpose.slice(0, 256) },
    },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'utf8').toString('base64')])),
  };
}

/** Creates a Secret unless it appeared meanwhile; whether it created it. */
export async function createSecret(client: KubeClient, obj: Json): Promise<boolean> {
  try {
    await client.request('POST', `/api/v1/namespaces/${encodeURIComponent(obj.metadata.namespace)}/secrets`, obj);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return false;
    throw e;
  }
}
