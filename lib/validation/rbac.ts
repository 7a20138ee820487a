import { ValidationIssue } from './issues';

/**
 * What the API server checks in rbac.authorization.k8s.io/v1 objects beyond their OpenAPI
 * schema (its RBAC validation code): the schema lets a rule without apiGroups or resources
 * through, the API server rejects the whole role. Facts from Kubernetes' RBAC validation;
 * messages are ours and name the fix.
 */

const RBAC_GROUP = 'rbac.authorization.k8s.io';

function ruleIssues(rule: any, at: string, namespaced: boolean): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const has = (f: string) => Array.isArray(rule?.[f]) && rule[f].length > 0;
  if (!has('verbs')) out.push({ rule: 'K8S-RBAC', path: `${at}.verbs`, message: 'a rule needs at least one verb' });
  if (has('nonResourceURLs')) {
    if (namespaced) out.push({ rule: 'K8S-RBAC', path: `${at}.nonResourceURLs`, message: 'a namespaced Role cannot grant non-resource URLs; move the rule to a ClusterRole' });
    if (has('apiGroups') || has('resources')) {
      out.push({ rule: 'K8S-RBAC', path: at, message: 'a rule cannot grant both resources and non-resource URLs; split it into two rules' });
    }
    return out;
  }
  if (!has('apiGroups')) out.push({ rule: 'K8S-RBAC', path: `${at}.apiGroups`, message: 'a resource rule needs at least one API group ("" for the core group); for non-resource URLs set nonResourceURLs' });
  if (!has('resources')) out.push({ rule: 'K8S-RBAC', path: `${at}.resources`, message: 'a resource rule needs at least one resource' });
  return out;
}

function roleIssues(obj: any): ValidationIssue[] {
  const namespaced = obj.kind === 'Role';
  const out = (obj.rules ?? []).flatMap((r: any, i: number) => ruleIssues(r, `rules[${i}]`, namespaced));
  if (!namespaced && obj.aggregationRule && !(obj.aggregationRule.clusterRoleSelectors ?? []).length) {
    out.push({ rule: 'K8S-RBAC', path: 'aggregationRule.clusterRoleSelectors', message: 'an aggregation rule needs at least one ClusterRole selector' });
  }
  return out;
}

function bindingIssues(obj: any): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const ref = obj.roleRef ?? {};
  if (ref.apiGroup !== RBAC_GROUP) out.push({ rule: 'K8S-RBAC', path: 'roleRef.apiGroup', message: `must be ${RBAC_GROUP} (got ${JSON.stringify(ref.apiGroup)})` });
  const kinds = obj.kind === 'RoleBinding' ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) out.push({ rule: 'K8S-ENUM', path: 'roleRef.kind', message: `a ${obj.kind} can reference ${kinds.join(' or ')} (got ${JSON.stringify(ref.kind)})` });
  if (!ref.name) out.push({ rule: 'K8S-RBAC', path: 'roleRef.name', message: 'the referenced role needs a name' });
  (obj.subjects ?? []).forEach((s: any, i: number) => {
    const at = `subjects[${i}]`;
    if (s.kind === 'ServiceAccount') {
      if (s.apiGroup) out.push({ rule: 'K8S-RBAC', path: `${at}.apiGroup`, message: 'a ServiceAccount subject has apiGroup "" (leave it out)' });
      if (!s.namespace && obj.kind === 'ClusterRoleBinding') out.push({ rule: 'K8S-RBAC', path: `${at}.namespace`, message: 'a ServiceAccount subject of a ClusterRoleBinding needs its namespace' });
    } else if (s.kind === 'User' || s.kind === 'Group') {
      if (s.apiGroup !== RBAC_GROUP) out.push({ rule: 'K8S-RBAC', path: `${at}.apiGroup`, message: `a ${s.kind} subject has apiGroup ${RBAC_GROUP}` });
    } else {
      out.push({ rule: 'K8S-ENUM', path: `${at}.kind`, message: `subject kind must be ServiceAccount, User or Group (got ${JSON.stringify(s.kind)})` });
    }
    if (!s.name) out.push({ rule: 'K8S-RBAC', path: `${at}.name`, message: 'a subject needs a name' });
  });
  return out;
}

/** The API server's RBAC validation of a Role, ClusterRole, RoleBinding or ClusterRoleBinding. */
export function rbacIssues(obj: any): ValidationIssue[] {
  if (obj?.apiVersion !== `${RBAC_GROUP}/v1`) return [];
  switch (obj.kind) {
    case 'Role':
    case 'ClusterRole':
      return roleIssues(obj);
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return bindingIssues(obj);
    default:
      return [];
  }
}
