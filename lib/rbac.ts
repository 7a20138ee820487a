import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { declareSecurityExceptions, onlyChecks, SecurityException } from './security';

/** One RBAC rule, as rbac.authorization.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  readonly apiGroups?: string[];
  readonly resources?: string[];
  readonly resourceNames?: string[];
  readonly verbs: string[];
  readonly nonResourceURLs?: string[];
}

export const READ_VERBS = ['get', 'list', 'watch'];
export const WRITE_VERBS = ['create', 'delete', 'patch', 'update'];
export const MANAGE_VERBS = [...READ_VERBS, ...WRITE_VERBS].sort();

/**
 * RBAC that upstream grants and a component deliberately does not, with the reason: kept
 * next to the component's rules so that a comparison with upstream's roles can tell an
 * omission from an oversight (scripts/rbac-diff.ts), and tested to be really absent.
 */
export interface LeftOutRbac {
  /** The ServiceAccount upstream binds the grant to. */
  readonly serviceAccount: string;
  readonly group: string;
  readonly resources: string[];
  /** @default every verb upstream grants on them */
  readonly verbs?: string[];
  readonly reason: string;
}

/** A resource a controller touches, in RBAC terms. */
export interface ResourceRef {
  /** '' for the core group */
  readonly group: string;
  /** plural resource name, e.g. deployments, inferenceservices/status */
  readonly resource: string;
}

/** Intent-level RBAC: what a controller reads and what it manages. */
export const Rbac = {
  read: (group: string, ...resources: string[]): PolicyRule => ({ apiGroups: [group], resources, verbs: READ_VERBS }),
  manage: (group: string, ...resources: string[]): PolicyRule => ({ apiGroups: [group], resources, verbs: MANAGE_VERBS }),
  verbs: (group: string, resources: string[], verbs: string[]): PolicyRule => ({ apiGroups: [group], resources, verbs: [...verbs].sort() }),
  /** What a controller needs on a kind it owns: full control, plus its status and finalizers. */
  own: (group: string, plural: string): PolicyRule[] => [
    { apiGroups: [group], resources: [plural], verbs: MANAGE_VERBS },
    { apiGroups: [group], resources: [`${plural}/status`], verbs: ['get', 'patch', 'update'] },
    { apiGroups: [group], resources: [`${plural}/finalizers`], verbs: ['update'] },
  ],
  /** A user role that edits a kind (kubebuilder's `<kind>-editor-role`): full control, status read. */
  editor: (group: string, plural: string): PolicyRule[] => [
    { apiGroups: [group], resources: [plural], verbs: MANAGE_VERBS },
    { apiGroups: [group], resources: [`${plural}/status`], verbs: ['get'] },
  ],
  /** A user role that views a kind (kubebuilder's `<kind>-viewer-role`): read, status read. */
  viewer: (group: string, plural: string): PolicyRule[] => [
    { apiGroups: [group], resources: [plural], verbs: READ_VERBS },
    { apiGroups: [group], resources: [`${plural}/status`], verbs: ['get'] },
  ],
};

/** Kubernetes' system:auth-delegator, as the API server bootstraps it: token and access reviews. */
export const AUTH_DELEGATOR_RULES: PolicyRule[] = [
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
];

/**
 * Rejects wildcards: least privilege is a promise of this project. `wildcardsBecause`, the
 * reason of a declared `wildcardRbac` exception, lets them through (MLP051 lists it).
 */
export function checkRules(where: string, rules: readonly PolicyRule[], wildcardsBecause?: string): void {
  for (const r of rules) {
    for (const [field, values] of [['verbs', r.verbs], ['resources', r.resources ?? []], ['apiGroups', r.apiGroups ?? []]] as const) {
      if (values.includes('*') && !wildcardsBecause) {
        throw new Error(`${where}: RBAC rule ${JSON.stringify(r)} uses '*' in ${field}; list the ${field} the controller needs, or declare securityExceptions: [{ check: 'wildcardRbac', reason: '...' }] with upstream's reason`);
      }
    }
    if (!r.verbs.length) throw new Error(`${where}: RBAC rule ${JSON.stringify(r)} has no verbs`);
  }
}

/** Whether the rules allow `verb` on group/resource (optionally a named object). */
export function allows(rules: readonly PolicyRule[], group: string, resource: string, verb: string, name?: string): boolean {
  return rules.some(
    (r) =>
      (r.apiGroups ?? []).includes(group) &&
      (r.resources ?? []).includes(resource) &&
      r.verbs.includes(verb) &&
      (!r.resourceNames?.length || (name !== undefined && r.resourceNames.includes(name))),
  );
}

/** Merges rules with the same groups, resourceNames and verbs; sorts for stable output. */
export function normalizeRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const byKey = new Map<string, { apiGroups?: string[]; resources: Set<string>; resourceNames?: string[]; verbs: string[]; nonResourceURLs?: string[] }>();
  for (const r of rules) {
    const verbs = [...new Set(r.verbs)].sort();
    if (r.nonResourceURLs?.length) {
      const key = `nr|${verbs.join(',')}`;
      const e = byKey.get(key) ?? { resources: new Set<string>(), verbs, nonResourceURLs: [] };
      e.nonResourceURLs = [...new Set([...(e.nonResourceURLs ?? []), ...r.nonResourceURLs])].sort();
      byKey.set(key, e);
      continue;
    }
    const groups = [...new Set(r.apiGroups ?? [])].sort();
    const names = [...new Set(r.resourceNames ?? [])].sort();
    const key = `${groups.join(',')}|${names.join(',')}|${verbs.join(',')}`;
    const e = byKey.get(key) ?? { apiGroups: groups, resources: new Set<string>(), resourceNames: names.length ? names : undefined, verbs };
    for (const res of r.resources ?? []) e.resources.add(res);
    byKey.set(key, e);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, e]) => {
      const out: any = {};
      if (e.apiGroups) out.apiGroups = e.apiGroups;
      if (e.nonResourceURLs) out.nonResourceURLs = e.nonResourceURLs;
      if (e.resources.size) out.resources = [...e.resources].sort();
      if (e.resourceNames) out.resourceNames = e.resourceNames;
      out.verbs = e.verbs;
      return out as PolicyRule;
    });
}

/**
 * A rule as rbac.authorization.k8s.io/v1 spells it. Roles are emitted as plain objects on
 * purpose: cdk8s-plus-28's PolicyRule binding spells `nonResourceURLs` as `nonResourceUrLs`
 * and silently drops the field under its API name, which once shipped an invalid ClusterRole.
 */
export function renderPolicyRule(r: PolicyRule): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (r.apiGroups) out.apiGroups = [...r.apiGroups];
  if (r.nonResourceURLs?.length) out.nonResourceURLs = [...r.nonResourceURLs];
  if (r.resources?.length) out.resources = [...r.resources];
  if (r.resourceNames?.length) out.resourceNames = [...r.resourceNames];
  out.verbs = [...r.verbs];
  return out;
}

export interface RoleObjectProps {
  readonly name: string;
  /** Set for a Role; unset for a ClusterRole. */
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  /** The rules, or a function producing them at synth (for rules that grow after construction). */
  readonly rules: readonly PolicyRule[] | (() => readonly PolicyRule[]);
  /** ClusterRole only: aggregate the rules of ClusterRoles with these labels. */
  readonly aggregateFrom?: Array<Record<string, string>>;
  /** Only `wildcardRbac`: '*' in verbs, resources or API groups, with upstream's reason (listed in REPORT.md). */
  readonly securityExceptions?: SecurityException[];
}

/** The reason of a wildcardRbac exception among `exceptions`, if any. */
export function wildcardReason(exceptions: readonly SecurityException[] | undefined): string | undefined {
  return exceptions?.find((e) => e.check === 'wildcardRbac')?.reason;
}

/** A Role (namespace set) or ClusterRole, its rules normalized and checked for wildcards. */
export function roleObject(scope: Construct, id: string, props: RoleObjectProps): ApiObject {
  const kind = props.namespace ? 'Role' : 'ClusterRole';
  onlyChecks(`${scope.node.path}/${id}`, props.securityExceptions, ['wildcardRbac']);
  const rules = () => {
    const rs = normalizeRules(typeof props.rules === 'function' ? props.rules() : props.rules);
    checkRules(`${scope.node.path}/${id}`, rs, wildcardReason(props.securityExceptions));
    return rs.map(renderPolicyRule);
  };
  // Fixed rules: normalized and checked once, in the constructor (where a failure points to the caller).
  const fixed = typeof props.rules === 'function' ? undefined : rules();
  if (props.aggregateFrom && props.namespace) throw new Error(`${scope.node.path}/${id}: aggregateFrom applies to ClusterRoles only; drop the namespace or the aggregation`);
  // An aggregating ClusterRole's rules belong to the clusterrole-aggregation controller, which
  // replaces them with those of the roles it selects. Declaring them (even `rules: []`) would
  // make every apply take the field back and empty the role until the controller fills it
  // again: users lose their access for that moment, and apply never reports it unchanged.
  if (props.aggregateFrom && typeof props.rules !== 'function' && props.rules.length) {
    throw new Error(`${scope.node.path}/${id}: ClusterRole ${props.name} aggregates other roles (aggregateFrom), so the API server replaces its rules; move its ${props.rules.length} rule(s) to a ClusterRole labelled ${Object.entries(props.aggregateFrom[0] ?? {}).map(([k, v]) => `${k}=${v}`).join(',')}`);
  }
  const labels = props.labels && Object.keys(props.labels).length ? props.labels : undefined;
  const role = new ApiObject(scope, id, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: { name: props.name, namespace: props.namespace, labels },
    ...(props.aggregateFrom
      ? { aggregationRule: { clusterRoleSelectors: props.aggregateFrom.map((matchLabels) => ({ matchLabels })) } }
      : { rules: fixed ?? Lazy.any({ produce: rules }) }),
  });
  declareSecurityExceptions(role, props.securityExceptions);
  return role;
}

export interface BindingObjectProps {
  readonly name: string;
  /** Set for a RoleBinding; unset for a ClusterRoleBinding. */
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly roleRef: { readonly kind: 'Role' | 'ClusterRole'; readonly name: string };
  /** ServiceAccounts bound, as namespace/name pairs. */
  readonly serviceAccounts: Array<{ readonly name: string; readonly namespace: string }>;
  /** Groups bound (e.g. system:authenticated, for roles every user gets). @default - none */
  readonly groups?: string[];
}

/** A RoleBinding (namespace set) or ClusterRoleBinding of ServiceAccounts to a role. */
export function bindingObject(scope: Construct, id: string, props: BindingObjectProps): ApiObject {
  if (!props.namespace && props.roleRef.kind === 'Role') {
    throw new Error(`${scope.node.path}/${id}: a ClusterRoleBinding can only reference a ClusterRole (got Role ${props.roleRef.name}); set namespace to make a RoleBinding`);
  }
  const labels = props.labels && Object.keys(props.labels).length ? props.labels : undefined;
  return new ApiObject(scope, id, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: props.namespace ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: { name: props.name, namespace: props.namespace, labels },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: props.roleRef.kind, name: props.roleRef.name },
    subjects: [
      ...props.serviceAccounts.map((sa) => ({ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace })),
      ...(props.groups ?? []).map((name) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name })),
    ],
  });
}

/** What an operator creates at run time: a role, or a binding to a role. */
export type RuntimeRbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/**
 * A Role, ClusterRole, RoleBinding or ClusterRoleBinding an operator creates at run time
 * (one per custom resource, say). The API server refuses to let anyone create a role
 * granting a permission they do not hold themselves unless they hold `escalate` on roles,
 * and a binding to a role whose permissions they do not hold unless they hold `bind` on it
 * (its escalation check, which does not care whether the resources exist). A Controller or
 * Workload adds the rules of the roles it declares here (and of bindings that carry their
 * role's rules) to its own RBAC, and MLP031 proves, on the whole output, that its
 * ServiceAccount holds what each one needs; test/apiserver/runtime-grants.test.ts lets a
 * real API server decide the same.
 */
export interface RuntimeRole {
  /** The kind the operator creates. */
  readonly kind: RuntimeRbacKind;
  /** Its name as the operator forms it, with the variable parts in angle brackets, e.g. pipeline-runner-<dspa>. */
  readonly name: string;
  /** When the operator creates it, and from what (its code or template at the modelled tag). */
  readonly createdFor: string;
  /**
   * Role and RoleBinding: the namespace it is created in, when that is fixed (e.g. the
   * operator's own namespace). RoleBindings there count towards what the creator holds.
   * @default - the namespace of the object it serves, any namespace: the creator must hold it cluster-wide
   */
  readonly namespace?: string;
  /**
   * Role and ClusterRole: its rules. resourceNames in them are the names it forms at run
   * time: the operator holds the rule for every name. Bindings: the rules of the role bound
   * when that role is neither in the output nor declared here (a built-in ClusterRole such
   * as system:auth-delegator); they are then held like a role's.
   * @default - none (bindings: the rules of roleRef as the output or the creator's roles declare them)
   */
  readonly rules?: PolicyRule[];
  /** RoleBinding and ClusterRoleBinding: the role bound (a ClusterRoleBinding binds ClusterRoles only). */
  readonly roleRef?: { readonly kind: 'Role' | 'ClusterRole'; readonly name: string };
}

/** Whether a run-time RBAC object is a binding. */
export function isRuntimeBinding(g: RuntimeRole): boolean {
  return g.kind === 'RoleBinding' || g.kind === 'ClusterRoleBinding';
}

/** The rbac.authorization.k8s.io resource of a kind, e.g. rolebindings. */
export function rbacResourceOf(kind: RuntimeRbacKind | 'Role' | 'ClusterRole'): string {
  return `${kind.toLowerCase()}s`;
}

/**
 * A permission no owns/watches declaration shows: a direct client call (a clientset Get,
 * List or Delete outside the informer cache), or a verb a server checks on the caller with a
 * SubjectAccessReview (e.g. Kubeflow Pipelines' `report` on workflows).
 */
export interface RbacNeed {
  readonly rule: PolicyRule;
  /** What the program does with it, where (file or function at the modelled tag). */
  readonly reason: string;
}

/**
 * Permissions a workload needs that no owns/watches declaration shows: the roles it creates
 * at run time, its direct client calls and the verbs checked on it by SubjectAccessReview.
 * Controller and Workload both take these props; `rbacNeeds` resolves them.
 */
export interface RbacNeedsProps {
  /**
   * Roles, ClusterRoles and bindings it creates at run time, as data. The API server
   * refuses a role that grants more than its creator holds, so their rules (and those a
   * binding carries) become the workload's own cluster-wide RBAC, and MLP031 proves its
   * ServiceAccount holds what each one needs.
   * @default - none
   */
  readonly grants?: RuntimeRole[];
  /**
   * Permissions it uses through direct client calls (outside its watches), each with what it
   * does; added to its cluster-wide RBAC and checked by MLP031.
   * @default - none
   */
  readonly clientCalls?: RbacNeed[];
  /**
   * Verbs a server checks on its ServiceAccount with a SubjectAccessReview (e.g. a
   * custom verb such as `report`); added to its cluster-wide RBAC and checked by MLP031.
   * @default - none
   */
  readonly accessReviews?: RbacNeed[];
}

/** RbacNeedsProps resolved: every list present, and the cluster-wide rules they add. */
export interface RbacNeeds {
  readonly grants: RuntimeRole[];
  readonly clientCalls: RbacNeed[];
  readonly accessReviews: RbacNeed[];
  /**
   * The rules to hold cluster-wide: roles it creates live in any namespace (or are
   * ClusterRoles), and so do the objects it calls on. A role's resourceNames formed at run
   * time (per object, `<name>`) make it hold the rule for every name; fixed names are kept.
   * Rules the workload's explicit rules already cover are left out.
   */
  readonly rules: PolicyRule[];
}

/**
 * Validates and resolves a workload's grants, clientCalls and accessReviews (`where`: its
 * construct path; `explicit`: the cluster-wide rules it declares besides, which may already
 * allow creating the kinds it creates).
 */
export function rbacNeeds(where: string, props: RbacNeedsProps, explicit: readonly PolicyRule[] = []): RbacNeeds {
  const grants = props.grants ?? [];
  const clientCalls = props.clientCalls ?? [];
  const accessReviews = props.accessReviews ?? [];
  for (const g of grants) {
    const what = `${where}: grants: ${g.kind} ${g.name}`;
    if (!g.createdFor.trim()) throw new Error(`${what} has no createdFor; say when the operator creates it and from what code or template`);
    if (isRuntimeBinding(g)) {
      if (!g.roleRef) throw new Error(`${what} has no roleRef; name the role the operator binds`);
      if (g.kind === 'ClusterRoleBinding' && g.roleRef.kind !== 'ClusterRole') throw new Error(`${what} binds Role ${g.roleRef.name}; a ClusterRoleBinding can only bind a ClusterRole`);
      if (g.rules && !g.rules.length) throw new Error(`${what} has an empty rules list; drop rules (the bound role's rules are then resolved from the output) or list them`);
    } else {
      if (g.roleRef) throw new Error(`${what} has a roleRef; only RoleBindings and ClusterRoleBindings bind a role`);
      if (!g.rules?.length) throw new Error(`${what} has no rules; list the rules the operator puts in it, or drop it`);
    }
    if (g.namespace !== undefined && (g.kind === 'ClusterRole' || g.kind === 'ClusterRoleBinding')) throw new Error(`${what} has namespace ${g.namespace}; a ${g.kind} is cluster-wide: drop the namespace`);
  }
  for (const [prop, list] of [['clientCalls', clientCalls], ['accessReviews', accessReviews]] as const) {
    for (const n of list) if (!n.reason.trim()) throw new Error(`${where}: ${prop}: ${JSON.stringify(n.rule)} has no reason; say what the program does with it`);
  }
  // Creating one needs create on its kind, and the rules it grants (a binding: those it carries).
  const creates = [...new Set(grants.map((g) => rbacResourceOf(g.kind)))].filter((r) => !allows(explicit, 'rbac.authorization.k8s.io', r, 'create')).sort();
  // A granted rule the explicit rules already cover adds nothing (and would repeat them in the output).
  // Names formed at run time (`<dspa>`) stand for every name: the rule is held for all; fixed names are kept.
  const held = (r: PolicyRule): PolicyRule => {
    if (!r.resourceNames?.some((n) => n.includes('<'))) return r;
    const { resourceNames: _names, ...rest } = r;
    return rest;
  };
  const granted = grants.flatMap((g) => (g.rules ?? []).map(held)).filter((r) => uncoveredRules(explicit, [r]).length);
  const rules = [
    ...(creates.length ? [Rbac.verbs('rbac.authorization.k8s.io', creates, ['create'])] : []),
    ...granted, ...clientCalls.map((n) => n.rule), ...accessReviews.map((n) => n.rule),
  ];
  return { grants, clientCalls, accessReviews, rules };
}

/** One rule broken down to one API group, resource, verb and (optionally) name, as the API server's escalation check compares them. */
function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCovered(held: readonly string[], resource: string): boolean {
  if (held.includes('*') || held.includes(resource)) return true;
  const slash = resource.indexOf('/');
  if (slash < 0) return false;
  return held.includes(`${resource.slice(0, slash)}/*`) || held.includes(`*/${resource.slice(slash + 1)}`);
}

function urlCovered(held: readonly string[], url: string): boolean {
  return held.some((h) => h === '*' || h === url || (h.endsWith('*') && url.startsWith(h.slice(0, -1))));
}

/** Whether one held rule covers one broken-down rule (one group, resource or URL, verb and name at most). */
function ruleCovers(held: PolicyRule, sub: PolicyRule): boolean {
  const has = (set: readonly string[] | undefined, v: string) => (set ?? []).includes('*') || (set ?? []).includes(v);
  if (!has(held.verbs, sub.verbs[0])) return false;
  if (sub.nonResourceURLs?.length) return urlCovered(held.nonResourceURLs ?? [], sub.nonResourceURLs[0]);
  if (!has(held.apiGroups, sub.apiGroups![0])) return false;
  if (!resourceCovered(held.resources ?? [], sub.resources![0])) return false;
  // A held rule limited to names covers only requests for those names.
  if (!held.resourceNames?.length) return true;
  return !!sub.resourceNames?.length && held.resourceNames.includes(sub.resourceNames[0]);
}

/**
 * The parts of `wanted` that `held` does not cover, the way the API server's RBAC escalation
 * check compares rules (k8s.io/kubernetes pkg/registry/rbac/validation, Covers): each wanted
 * rule is broken down to one API group, resource, resource name and verb, and each part
 * must be covered by some held rule, where '*' in verbs, API groups or resources covers all,
 * `<resource>/*` and `*\/<subresource>` cover subresources, a held rule without
 * resourceNames covers every name, and a non-resource URL ending in '*' covers its prefix.
 * Empty when `held` covers all of `wanted`.
 */
export function uncoveredRules(held: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdown).filter((sub) => !held.some((h) => ruleCovers(h, sub)));
}

/** A broken-down rule in one line, e.g. `delete pods (core)` or `get secrets/db (core)`. */
export function describeRule(r: PolicyRule): string {
  if (r.nonResourceURLs?.length) return `${r.verbs.join(',')} ${r.nonResourceURLs.join(',')}`;
  const names = r.resourceNames?.length ? `/${r.resourceNames.join(',')}` : '';
  return `${r.verbs.join(',')} ${(r.resources ?? []).join(',')}${names} (${(r.apiGroups ?? []).map((g) => g || 'core').join(',')})`;
}
