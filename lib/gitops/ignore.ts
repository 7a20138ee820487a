import { Phase } from '../phases';
import { PlatformModel, PlatformObject } from '../platform';

/**
 * A field the GitOps engine must leave alone on one object: something on the cluster changes
 * it after apply, and syncing it back would fight that controller (or the API server).
 */
export interface IgnoredField {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** The phase the object is applied in (which Argo CD Application holds it). */
  readonly phase: Phase;
  /** JSON pointers without list wildcards (Argo CD `jsonPointers`). */
  readonly jsonPointers: string[];
  /** Fields under every item of a list, as jq paths (Argo CD `jqPathExpressions`). */
  readonly jqPathExpressions: string[];
  /** Who changes them and why (for reports and comments). */
  readonly reason: string;
}

/** Annotations that make a CA injector write caBundle fields (cert-manager's cainjector, OpenShift's service CA operator). */
const CA_INJECTION_ANNOTATIONS = [
  'cert-manager.io/inject-ca-from',
  'cert-manager.io/inject-ca-from-secret',
  'cert-manager.io/inject-apiserver-ca',
  'service.beta.openshift.io/inject-cabundle',
];

const WEBHOOK_CONFIGURATIONS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];

/** What `ignoredFields` reads of a platform: its objects (as emitted, with their phase) and its declared run-time changes. */
export interface IgnoreInput {
  readonly objects: ReadonlyArray<Pick<PlatformObject, 'json' | 'phase'>>;
  readonly runtimeChanges: PlatformModel['runtimeChanges'];
}

/**
 * Every field of the platform's objects that changes at run time:
 * - what components declare (`model.runtimeChanges`: caBundles patched by self-rotating
 *   certificates, the Secrets they fill);
 * - caBundles a CA injector writes into webhook configurations and CRD conversion webhooks
 *   of objects annotated for injection;
 * - the rules of aggregated ClusterRoles (the API server's aggregation controller owns them).
 * One entry per object and reason, in apply order of the objects.
 */
export function ignoredFields(model: IgnoreInput): IgnoredField[] {
  const out: IgnoredField[] = [];
  const byKey = new Map(model.objects.map((o) => [objectKey(groupOf(o.json.apiVersion), o.json.kind, o.json.metadata?.namespace, o.json.metadata?.name), o]));
  for (const r of model.runtimeChanges) {
    const obj = byKey.get(objectKey(r.group, r.kind, r.namespace, r.name));
    if (!obj) continue; // a change to an object the platform does not emit (e.g. one created at run time)
    out.push({
      group: r.group,
      kind: r.kind,
      name: r.name,
      namespace: r.namespace,
      phase: obj.phase,
      ...splitPointers(r.jsonPointers),
      reason: `${r.by}: ${r.reason}`,
    });
  }
  for (const o of model.objects) {
    const annotations: Record<string, string> = o.json.metadata?.annotations ?? {};
    const injector = CA_INJECTION_ANNOTATIONS.find((a) => a in annotations);
    const base = { group: groupOf(o.json.apiVersion), kind: o.json.kind, name: o.json.metadata.name, namespace: o.json.metadata.namespace, phase: o.phase };
    if (injector && WEBHOOK_CONFIGURATIONS.includes(o.json.kind)) {
      out.push({ ...base, ...splitPointers(['/webhooks/*/clientConfig/caBundle']), reason: `CA injected at run time (${injector})` });
    } else if (injector && o.json.kind === 'CustomResourceDefinition' && o.json.spec?.conversion?.webhook) {
      out.push({ ...base, ...splitPointers(['/spec/conversion/webhook/clientConfig/caBundle']), reason: `CA injected at run time (${injector})` });
    }
    if (o.json.kind === 'ClusterRole' && o.json.aggregationRule) {
      out.push({ ...base, ...splitPointers(['/rules']), reason: 'aggregated ClusterRole: the API server fills its rules from the roles its aggregationRule selects' });
    }
  }
  return dedupe(out);
}

/** `/webhooks/*\/clientConfig/caBundle` -> jq `.webhooks[]?.clientConfig.caBundle`; pointers without `*` stay pointers. */
export function splitPointers(pointers: string[]): { jsonPointers: string[]; jqPathExpressions: string[] } {
  const jsonPointers: string[] = [];
  const jqPathExpressions: string[] = [];
  for (const p of pointers) {
    const parts = p.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (!parts.includes('*')) {
      jsonPointers.push(p);
      continue;
    }
    const jq = parts.map((s, i) => (s === '*' ? `${i ? '' : '.'}[]?` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `.${s}` : `${i ? '' : '.'}[${JSON.stringify(s)}]`)).join('');
    jqPathExpressions.push(jq);
  }
  return { jsonPointers, jqPathExpressions };
}

function dedupe(fields: IgnoredField[]): IgnoredField[] {
  const seen = new Map<string, IgnoredField>();
  for (const f of fields) {
    const key = objectKey(f.group, f.kind, f.namespace, f.name);
    const prev = seen.get(key);
    if (!prev) {
      seen.set(key, f);
      continue;
    }
    seen.set(key, {
      ...prev,
      jsonPointers: union(prev.jsonPointers, f.jsonPointers),
      jqPathExpressions: union(prev.jqPathExpressions, f.jqPathExpressions),
      reason: prev.reason === f.reason ? prev.reason : `${prev.reason}; ${f.reason}`,
    });
  }
  return [...seen.values()];
}

function union(a: string[], b: string[]): string[] {
  return [...a, ...b.filter((x) => !a.includes(x))];
}

function groupOf(apiVersion: string): string {
  return String(apiVersion ?? '').includes('/') ? String(apiVersion).split('/')[0] : '';
}

function objectKey(group: string, kind: string, namespace: string | undefined, name: string): string {
  return `${group}/${kind}/${namespace ?? ''}/${name}`;
}
