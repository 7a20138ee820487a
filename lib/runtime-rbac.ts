import { Component } from './component';
import { Controller } from './controller';
import { PlatformModel } from './platform';
import { describeRule, isRuntimeBinding, PolicyRule, rbacResourceOf, RuntimeRole, uncoveredRules } from './rbac';
import { Workload } from './workload';

/**
 * What the roles and bindings operators create at run time need, against the RBAC of the
 * output, compared the way the API server's escalation check compares (MLP031; and the
 * declarations test/apiserver/runtime-grants.test.ts creates on a real server).
 */

/** An RBAC object as JSON (ClusterRole, Role, ClusterRoleBinding, RoleBinding). */
interface RbacJson {
  readonly kind: string;
  readonly apiVersion?: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Record<string, string> };
  readonly rules?: PolicyRule[];
  readonly aggregationRule?: { readonly clusterRoleSelectors?: Array<{ readonly matchLabels?: Record<string, string> }> };
  readonly roleRef?: { readonly kind: string; readonly name: string };
  readonly subjects?: Array<{ readonly kind: string; readonly name: string; readonly namespace?: string }>;
}

const isRbac = (j: any): j is RbacJson => typeof j?.apiVersion === 'string' && j.apiVersion.startsWith('rbac.authorization.k8s.io/') && ['ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding'].includes(j.kind);

/**
 * The rules of every ClusterRole in `objects`, aggregation included: a ClusterRole with an
 * aggregationRule holds its own rules plus those of every ClusterRole its selectors match,
 * repeated until nothing changes (kubeflow-admin aggregates kubeflow-edit, which aggregates
 * kubeflow-view), as Kubernetes' aggregation controller fills them in.
 */
export function clusterRoleRules(objects: readonly unknown[]): Map<string, PolicyRule[]> {
  const roles = objects.filter(isRbac).filter((j) => j.kind === 'ClusterRole');
  const out = new Map<string, PolicyRule[]>(roles.map((r) => [r.metadata.name, [...(r.rules ?? [])]]));
  const keyOf = (r: PolicyRule) => JSON.stringify(r);
  for (let changed = true; changed;) {
    changed = false;
    for (const role of roles) {
      const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map((s) => s.matchLabels ?? {}).filter((s) => Object.keys(s).length);
      if (!selectors.length) continue;
      const own = out.get(role.metadata.name)!;
      const have = new Set(own.map(keyOf));
      for (const other of roles) {
        if (other === role || !selectors.some((sel) => Object.entries(sel).every(([k, v]) => other.metadata.labels?.[k] === v))) continue;
        for (const r of out.get(other.metadata.name) ?? []) {
          if (!have.has(keyOf(r))) { have.add(keyOf(r)); own.push(r); changed = true; }
        }
      }
    }
  }
  return out;
}

/** A ServiceAccount: its name and namespace. */
export interface ServiceAccountRef {
  readonly name: string;
  readonly namespace: string;
}

/** Whether a binding's subjects include the ServiceAccount (by name, or through its groups). */
function bindsAccount(b: RbacJson, sa: ServiceAccountRef): boolean {
  return (b.subjects ?? []).some((s) => {
    if (s.kind === 'ServiceAccount') return s.name === sa.name && (s.namespace ?? b.metadata.namespace) === sa.namespace;
    if (s.kind === 'Group') return ['system:authenticated', 'system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`].includes(s.name);
    return s.kind === 'User' && s.name === `system:serviceaccount:${sa.namespace}:${sa.name}`;
  });
}

/**
 * The rules a ServiceAccount holds in the output: cluster-wide (`namespace` undefined),
 * the rules of the ClusterRoles its ClusterRoleBindings reference; in a namespace, those
 * plus the rules its RoleBindings in that namespace reference. Aggregated ClusterRoles count
 * with the rules they aggregate.
 */
export function heldRules(objects: readonly unknown[], sa: ServiceAccountRef, namespace?: string, clusterRoles = clusterRoleRules(objects)): PolicyRule[] {
  const rbac = objects.filter(isRbac);
  const roles = new Map(rbac.filter((j) => j.kind === 'Role').map((r) => [`${r.metadata.namespace}/${r.metadata.name}`, r.rules ?? []]));
  const out: PolicyRule[] = [];
  for (const b of rbac) {
    if (!b.roleRef || !bindsAccount(b, sa)) continue;
    if (b.kind === 'RoleBinding' && (namespace === undefined || b.metadata.namespace !== namespace)) continue;
    if (b.kind !== 'ClusterRoleBinding' && b.kind !== 'RoleBinding') continue;
    out.push(...(b.roleRef.kind === 'ClusterRole' ? clusterRoles.get(b.roleRef.name) ?? [] : roles.get(`${b.metadata.namespace}/${b.roleRef.name}`) ?? []));
  }
  return out;
}

/** Whether `held` allows one verb on an rbac.authorization.k8s.io resource (and name). */
function holds(held: readonly PolicyRule[], resource: string, verb: string, name?: string): boolean {
  return !uncoveredRules(held, [{ apiGroups: ['rbac.authorization.k8s.io'], resources: [resource], verbs: [verb], ...(name ? { resourceNames: [name] } : {}) }]).length;
}

/** A workload that creates RBAC at run time: a Controller or Workload with grants, in its component. */
export interface RuntimeRbacCreator {
  readonly component: Component;
  readonly creator: Controller | Workload;
  readonly serviceAccount: ServiceAccountRef;
  readonly grants: readonly RuntimeRole[];
}

/** Every Controller and Workload of the platform that declares run-time roles or bindings. */
export function runtimeRbacCreators(m: PlatformModel): RuntimeRbacCreator[] {
  const out: RuntimeRbacCreator[] = [];
  for (const component of m.components) {
    for (const c of component.node.findAll()) {
      if (!(c instanceof Controller || c instanceof Workload) || !c.grants.length) continue;
      out.push({ component, creator: c, serviceAccount: { name: c.serviceAccountName, namespace: c.namespace }, grants: c.grants });
    }
  }
  return out;
}

/** The rules a declared binding's role holds, or undefined when neither the declaration, the creator's roles nor the output says. */
export function boundRoleRules(g: RuntimeRole, siblings: readonly RuntimeRole[], clusterRoles: Map<string, PolicyRule[]>): PolicyRule[] | undefined {
  if (g.rules) return g.rules;
  const ref = g.roleRef!;
  const declared = siblings.find((s) => s.kind === ref.kind && s.name === ref.name && !isRuntimeBinding(s));
  if (declared) return declared.rules;
  return ref.kind === 'ClusterRole' ? clusterRoles.get(ref.name) : undefined;
}

/** Why the API server would refuse one declared run-time object, as text, or undefined when it would accept it. */
export function runtimeGrantProblem(objects: readonly unknown[], creator: RuntimeRbacCreator, g: RuntimeRole, clusterRoles = clusterRoleRules(objects)): string | undefined {
  const namespaced = g.kind === 'Role' || g.kind === 'RoleBinding';
  const ns = namespaced ? g.namespace : undefined;
  const held = heldRules(objects, creator.serviceAccount, ns, clusterRoles);
  const where = !namespaced ? 'cluster-wide' : ns ? `in namespace ${ns}` : 'cluster-wide (it creates it in the namespace of the object it serves, any namespace)';
  const resource = rbacResourceOf(g.kind);
  if (!holds(held, resource, 'create')) return `it lacks create on ${resource} (rbac.authorization.k8s.io) ${where}`;
  if (isRuntimeBinding(g)) {
    const ref = g.roleRef!;
    if (holds(held, rbacResourceOf(ref.kind), 'bind', ref.name)) return undefined;
    const rules = boundRoleRules(g, creator.grants, clusterRoles);
    if (!rules) return `it binds ${ref.kind} ${ref.name}, which is neither in the output nor declared, and holds no bind on it: declare the binding's rules (those of ${ref.name}) or grant bind on ${rbacResourceOf(ref.kind)}/${ref.name}`;
    const lacking = [...new Set(uncoveredRules(held, rules).map(describeRule))];
    return lacking.length ? `it binds ${ref.kind} ${ref.name}, granting ${lacking.join('; ')}, which it does not hold ${where}, nor bind on ${rbacResourceOf(ref.kind)}/${ref.name}` : undefined;
  }
  if (holds(held, resource, 'escalate')) return undefined;
  const lacking = [...new Set(uncoveredRules(held, g.rules ?? []).map(describeRule))];
  return lacking.length ? `it grants ${lacking.join('; ')}, which it does not hold ${where}, nor escalate on ${resource}` : undefined;
}

/** A name an operator forms at run time, made concrete: each `<part>` becomes `sample`. */
export function sampleName(name: string): string {
  return name.replace(/<[^>]*>/g, 'sample');
}

/**
 * The object a declared run-time role or binding stands for, as the operator would create
 * it: namespaced ones in their fixed namespace or `namespace`, names made concrete with
 * sampleName, bindings with one ServiceAccount subject (the escalation check does not look
 * at subjects).
 */
export function runtimeRbacObject(g: RuntimeRole, namespace: string): Record<string, unknown> {
  const namespaced = g.kind === 'Role' || g.kind === 'RoleBinding';
  const ns = g.namespace ?? namespace;
  const metadata = { name: sampleName(g.name), ...(namespaced ? { namespace: ns } : {}) };
  const base = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: g.kind, metadata };
  if (!isRuntimeBinding(g)) return { ...base, rules: g.rules };
  return {
    ...base,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: g.roleRef!.kind, name: sampleName(g.roleRef!.name) },
    subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }],
  };
}
