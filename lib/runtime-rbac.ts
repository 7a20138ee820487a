import { Component } from './component';
import { Controller } from './controller';
import { modelOfJson, ObjectModel, ServiceAccountRef } from './model';
import { PlatformModel } from './platform';
import { describeRule, isRuntimeBinding, PolicyRule, rbacResourceOf, RuntimeRole, uncoveredRules } from './rbac';
import { Workload } from './workload';

/**
 * What the roles and bindings operators create at run time need, against the RBAC of the
 * output, compared the way the API server's escalation check compares (MLP031; and the
 * declarations test/apiserver/runtime-grants.test.ts creates on a real server).
 */

/**
 * The rules of every ClusterRole in `objects`, aggregation included (lib/model.ts resolves
 * them once per list of objects).
 */
export function clusterRoleRules(objects: readonly unknown[]): ReadonlyMap<string, PolicyRule[]> {
  return modelOfJson(objects).clusterRoleRules;
}

export type { ServiceAccountRef };

/**
 * The rules a ServiceAccount holds in the output: cluster-wide (`namespace` undefined),
 * the rules of the ClusterRoles its ClusterRoleBindings reference; in a namespace, those
 * plus the rules its RoleBindings in that namespace reference (lib/model.ts).
 */
export function heldRules(objects: readonly unknown[] | ObjectModel, sa: ServiceAccountRef, namespace?: string): PolicyRule[] {
  return modelFrom(objects).rulesHeldBy(sa, namespace);
}

const modelFrom = (objects: readonly unknown[] | ObjectModel): ObjectModel => (objects instanceof ObjectModel ? objects : modelOfJson(objects));

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
export function boundRoleRules(g: RuntimeRole, siblings: readonly RuntimeRole[], clusterRoles: ReadonlyMap<string, PolicyRule[]>): PolicyRule[] | undefined {
  if (g.rules) return g.rules;
  const ref = g.roleRef!;
  const declared = siblings.find((s) => s.kind === ref.kind && s.name === ref.name && !isRuntimeBinding(s));
  if (declared) return declared.rules;
  return ref.kind === 'ClusterRole' ? clusterRoles.get(ref.name) : undefined;
}

/** Why the API server would refuse one declared run-time object, as text, or undefined when it would accept it. */
export function runtimeGrantProblem(objects: readonly unknown[] | ObjectModel, creator: RuntimeRbacCreator, g: RuntimeRole): string | undefined {
  const model = modelFrom(objects);
  const clusterRoles = model.clusterRoleRules;
  const namespaced = g.kind === 'Role' || g.kind === 'RoleBinding';
  const ns = namespaced ? g.namespace : undefined;
  const held = model.rulesHeldBy(creator.serviceAccount, ns);
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
