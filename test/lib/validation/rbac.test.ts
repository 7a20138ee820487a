import { rbacIssues, validateBuiltin } from '../../../lib/validation';

const role = (kind: 'Role' | 'ClusterRole', rules: unknown[], extra: object = {}) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name: 'r', ...(kind === 'Role' ? { namespace: 'ns' } : {}) },
  rules,
  ...extra,
});
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', roleRef: object, subjects: unknown[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name: 'b', ...(kind === 'RoleBinding' ? { namespace: 'ns' } : {}) },
  roleRef,
  subjects,
});
const REF = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' };

describe('API server RBAC validation', () => {
  test('valid roles and bindings pass, through validateBuiltin too', () => {
    const objs = [
      role('ClusterRole', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      role('Role', [{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['x'], verbs: ['update'] }]),
      role('ClusterRole', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }),
      binding('RoleBinding', { ...REF, kind: 'Role' }, [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }]),
      binding('ClusterRoleBinding', REF, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }]),
    ];
    for (const o of objs) expect(validateBuiltin(o)).toEqual([]);
  });

  test('fails when a rule has only verbs (the shape that once shipped: nonResourceURLs dropped)', () => {
    expect(validateBuiltin(role('ClusterRole', [{ verbs: ['get'] }]))).toMatchObject([
      { path: 'rules[0].apiGroups', message: 'a resource rule needs at least one API group ("" for the core group); for non-resource URLs set nonResourceURLs' },
      { path: 'rules[0].resources', message: 'a resource rule needs at least one resource' },
    ]);
  });

  test('fails when a rule has no verbs', () => {
    expect(rbacIssues(role('ClusterRole', [{ apiGroups: [''], resources: ['pods'], verbs: [] }]))).toMatchObject([
      { path: 'rules[0].verbs', message: 'a rule needs at least one verb' },
    ]);
  });

  test('fails when a namespaced Role grants non-resource URLs', () => {
    expect(rbacIssues(role('Role', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]))).toMatchObject([
      { path: 'rules[0].nonResourceURLs', message: 'a namespaced Role cannot grant non-resource URLs; move the rule to a ClusterRole' },
    ]);
  });

  test('fails when a rule mixes resources and non-resource URLs', () => {
    expect(rbacIssues(role('ClusterRole', [{ apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/metrics'], verbs: ['get'] }]))).toMatchObject([
      { path: 'rules[0]', message: 'a rule cannot grant both resources and non-resource URLs; split it into two rules' },
    ]);
  });

  test('fails when an aggregation rule has no selectors', () => {
    expect(rbacIssues(role('ClusterRole', [], { aggregationRule: { clusterRoleSelectors: [] } }))).toMatchObject([
      { path: 'aggregationRule.clusterRoleSelectors', message: 'an aggregation rule needs at least one ClusterRole selector' },
    ]);
  });

  test('fails when a ClusterRoleBinding references a Role', () => {
    expect(rbacIssues(binding('ClusterRoleBinding', { ...REF, kind: 'Role' }, [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }]))).toMatchObject([
      { path: 'roleRef.kind', message: 'a ClusterRoleBinding can reference ClusterRole (got "Role")' },
    ]);
  });

  test('fails when roleRef has the wrong API group, an unknown kind or no name', () => {
    expect(rbacIssues(binding('RoleBinding', { apiGroup: 'rbac.k8s.io', kind: 'Roles' }, []))).toMatchObject([
      { path: 'roleRef.apiGroup', message: 'must be rbac.authorization.k8s.io (got "rbac.k8s.io")' },
      { path: 'roleRef.kind', message: 'a RoleBinding can reference Role or ClusterRole (got "Roles")' },
      { path: 'roleRef.name', message: 'the referenced role needs a name' },
    ]);
  });

  test('fails when subjects are malformed', () => {
    expect(rbacIssues(binding('ClusterRoleBinding', REF, [
      { kind: 'ServiceAccount', name: 'sa' },
      { kind: 'ServiceAccount', apiGroup: 'rbac.authorization.k8s.io', name: 'sa', namespace: 'ns' },
      { kind: 'User', name: 'u' },
      { kind: 'Robot', name: 'r' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io' },
    ]))).toMatchObject([
      { path: 'subjects[0].namespace', message: 'a ServiceAccount subject of a ClusterRoleBinding needs its namespace' },
      { path: 'subjects[1].apiGroup', message: 'a ServiceAccount subject has apiGroup "" (leave it out)' },
      { path: 'subjects[2].apiGroup', message: 'a User subject has apiGroup rbac.authorization.k8s.io' },
      { path: 'subjects[3].kind', message: 'subject kind must be ServiceAccount, User or Group (got "Robot")' },
      { path: 'subjects[4].name', message: 'a subject needs a name' },
    ]);
  });
});
