import { Chart, Testing } from 'cdk8s';
import { allows, bindingObject as binding, checkRules, describeRule, MANAGE_VERBS, normalizeRules, PolicyRule, Rbac, READ_VERBS, roleObject as role, uncoveredRules } from '../../lib/rbac';

describe('Rbac intents', () => {
  test('read, manage, verbs and own', () => {
    expect(Rbac.read('apps', 'deployments')).toEqual({ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] });
    expect(Rbac.manage('', 'configmaps').verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(Rbac.verbs('', ['events'], ['patch', 'create'])).toEqual({ apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] });
    expect(Rbac.own('example.com', 'widgets')).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: MANAGE_VERBS },
      { apiGroups: ['example.com'], resources: ['widgets/status'], verbs: ['get', 'patch', 'update'] },
      { apiGroups: ['example.com'], resources: ['widgets/finalizers'], verbs: ['update'] },
    ]);
  });

  test('editor and viewer user roles', () => {
    expect(Rbac.editor('example.com', 'widgets')).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
      { apiGroups: ['example.com'], resources: ['widgets/status'], verbs: ['get'] },
    ]);
    expect(Rbac.viewer('example.com', 'widgets')).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['example.com'], resources: ['widgets/status'], verbs: ['get'] },
    ]);
    expect(() => checkRules('x', [...Rbac.editor('example.com', 'widgets'), ...Rbac.viewer('example.com', 'widgets')])).not.toThrow();
  });
});

describe('normalizeRules', () => {
  test('merges rules with the same groups and verbs and sorts groups, resources and verbs', () => {
    const rules = normalizeRules([
      Rbac.read('apps', 'statefulsets'),
      Rbac.manage('', 'configmaps'),
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['watch', 'list', 'get', 'get'] },
      Rbac.read('apps', 'deployments'),
    ]);
    // Sorted by the merge key (groups|names|verbs): the core group '' sorts after named groups.
    expect(rules).toEqual([
      { apiGroups: ['apps'], resources: ['deployments', 'statefulsets'], verbs: READ_VERBS },
      { apiGroups: [''], resources: ['configmaps'], verbs: MANAGE_VERBS },
    ]);
  });

  test('output order does not depend on input order', () => {
    const input = [Rbac.read('apps', 'statefulsets'), Rbac.manage('', 'configmaps'), Rbac.read('', 'pods'), ...Rbac.own('example.com', 'widgets')];
    expect(normalizeRules([...input].reverse())).toEqual(normalizeRules(input));
  });

  test('keeps rules with different verbs or resourceNames apart', () => {
    const rules = normalizeRules([
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['b', 'a'], verbs: ['get'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
    ]);
    expect(rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'], verbs: ['get'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
    ]);
  });

  test('merges nonResourceURLs rules by verbs', () => {
    const rules = normalizeRules([
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
      { nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] },
    ]);
    expect(rules).toEqual([{ nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] }]);
  });

  test('is idempotent', () => {
    const once = normalizeRules([...Rbac.own('example.com', 'widgets'), Rbac.read('', 'pods', 'services')]);
    expect(normalizeRules(once)).toEqual(once);
  });
});

describe('allows', () => {
  const rules: PolicyRule[] = [
    Rbac.read('apps', 'deployments'),
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get', 'update'] },
  ];

  test('matches group, resource and verb', () => {
    expect(allows(rules, 'apps', 'deployments', 'list')).toBe(true);
    expect(allows(rules, 'apps', 'deployments', 'delete')).toBe(false);
    expect(allows(rules, '', 'deployments', 'list')).toBe(false);
    expect(allows(rules, 'apps', 'statefulsets', 'list')).toBe(false);
  });

  test('a rule without resourceNames allows every name', () => {
    expect(allows(rules, 'apps', 'deployments', 'get', 'anything')).toBe(true);
  });

  test('a rule with resourceNames allows only those names', () => {
    expect(allows(rules, '', 'configmaps', 'get', 'settings')).toBe(true);
    expect(allows(rules, '', 'configmaps', 'update', 'settings')).toBe(true);
    expect(allows(rules, '', 'configmaps', 'get', 'other')).toBe(false);
    expect(allows(rules, '', 'configmaps', 'get')).toBe(false);
  });
});

describe('uncoveredRules (the API server\'s escalation check)', () => {
  const missing = (held: PolicyRule[], wanted: PolicyRule[]) => uncoveredRules(held, wanted).map(describeRule);

  test('breaks a wanted rule down to group, resource and verb, and reports each part no held rule covers', () => {
    expect(missing([Rbac.read('', 'pods')], [Rbac.verbs('', ['pods', 'pods/log'], ['get', 'delete'])])).toEqual(['delete pods (core)', 'delete pods/log (core)', 'get pods/log (core)']);
    expect(missing([Rbac.read('', 'pods'), Rbac.verbs('', ['pods', 'pods/log'], ['delete', 'get'])], [Rbac.verbs('', ['pods', 'pods/log'], ['get', 'delete'])])).toEqual([]);
  });

  test('the group must match: apps deployments do not cover extensions deployments', () => {
    expect(missing([Rbac.manage('apps', 'deployments')], [{ apiGroups: ['apps', 'extensions'], resources: ['deployments'], verbs: ['get'] }])).toEqual(['get deployments (extensions)']);
  });

  test("granting '*' needs '*': every listed verb is not the wildcard verb", () => {
    expect(missing([Rbac.manage('', 'pods')], [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }])).toEqual(['* pods (core)']);
    expect(missing([{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }], [Rbac.manage('', 'pods'), { apiGroups: [''], resources: ['pods'], verbs: ['*'] }])).toEqual([]);
  });

  test("'*' in held groups or resources covers every group or resource; '<resource>/*' and '*/<sub>' cover subresources", () => {
    const wanted = [Rbac.verbs('kubeflow.org', ['pytorchjobs', 'pytorchjobs/status'], ['get'])];
    expect(missing([{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }], wanted)).toEqual([]);
    expect(missing([{ apiGroups: ['kubeflow.org'], resources: ['pytorchjobs', 'pytorchjobs/*'], verbs: ['get'] }], wanted)).toEqual([]);
    expect(missing([{ apiGroups: ['kubeflow.org'], resources: ['pytorchjobs', '*/status'], verbs: ['get'] }], wanted)).toEqual([]);
    expect(missing([{ apiGroups: ['kubeflow.org'], resources: ['pytorchjobs'], verbs: ['get'] }], wanted)).toEqual(['get pytorchjobs/status (kubeflow.org)']);
  });

  test('a held rule without names covers every name; one with names covers only those, never the unnamed rule', () => {
    const named = (names: string[]): PolicyRule => ({ apiGroups: [''], resources: ['services'], resourceNames: names, verbs: ['get'] });
    expect(missing([Rbac.read('', 'services')], [named(['a', 'b'])])).toEqual([]);
    expect(missing([named(['a'])], [named(['a', 'b'])])).toEqual(['get services/b (core)']);
    expect(missing([named(['a'])], [Rbac.read('', 'services')])).toEqual(['get services (core)', 'list services (core)', 'watch services (core)']);
  });

  test('non-resource URLs: exact, or a held prefix ending in *', () => {
    expect(missing([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }], [{ nonResourceURLs: ['/metrics', '/healthz'], verbs: ['get'] }])).toEqual(['get /healthz']);
    expect(missing([{ nonResourceURLs: ['/api/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/api/v1'], verbs: ['get'] }])).toEqual([]);
  });
});

describe('checkRules', () => {
  test('accepts explicit rules', () => {
    expect(() => checkRules('here', [Rbac.read('', 'pods'), ...Rbac.own('example.com', 'widgets')])).not.toThrow();
  });

  test("fails when verbs contain '*'", () => {
    expect(() => checkRules('p/c/Manager', [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }])).toThrow(
      'p/c/Manager: RBAC rule {"apiGroups":[""],"resources":["pods"],"verbs":["*"]} uses \'*\' in verbs; list the verbs the controller needs',
    );
  });

  test("fails when resources contain '*'", () => {
    expect(() => checkRules('here', [{ apiGroups: ['apps'], resources: ['*'], verbs: ['get'] }])).toThrow(
      'here: RBAC rule {"apiGroups":["apps"],"resources":["*"],"verbs":["get"]} uses \'*\' in resources; list the resources the controller needs',
    );
  });

  test("fails when apiGroups contain '*'", () => {
    expect(() => checkRules('here', [{ apiGroups: ['*'], resources: ['pods'], verbs: ['get'] }])).toThrow(
      'here: RBAC rule {"apiGroups":["*"],"resources":["pods"],"verbs":["get"]} uses \'*\' in apiGroups; list the apiGroups the controller needs',
    );
  });

  test('fails when a rule has no verbs', () => {
    expect(() => checkRules('here', [{ apiGroups: [''], resources: ['pods'], verbs: [] }])).toThrow(
      'here: RBAC rule {"apiGroups":[""],"resources":["pods"],"verbs":[]} has no verbs',
    );
  });
});

describe('roleObject and bindingObject', () => {
  const chart = () => new Chart(Testing.app(), 'c');

  test('rules keep nonResourceURLs under the API name, normalized', () => {
    const c = chart();
    role(c, 'R', { name: 'metrics', rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }, Rbac.read('', 'pods')] });
    expect(Testing.synth(c)).toEqual([{
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
    }]);
  });

  test('a namespace makes a Role; aggregation makes an aggregated ClusterRole; rules may be produced late', () => {
    const c = chart();
    const late: PolicyRule[] = [];
    role(c, 'R', { name: 'r', namespace: 'ns', rules: () => late });
    role(c, 'A', { name: 'agg', rules: [], aggregateFrom: [{ 'example.com/aggregate-to-agg': 'true' }] });
    late.push(Rbac.read('', 'secrets'));
    const [r, a] = Testing.synth(c);
    expect(r).toMatchObject({ kind: 'Role', metadata: { name: 'r', namespace: 'ns' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: READ_VERBS }] });
    expect(a).toMatchObject({ kind: 'ClusterRole', aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-agg': 'true' } }] } });
  });

  test('AGGREGATED-RULES: an aggregating ClusterRole declares no rules (the aggregation controller owns them: a re-apply would empty the role); rules of its own fail, naming the label to move them under', () => {
    const c = chart();
    role(c, 'A', { name: 'agg', rules: [], aggregateFrom: [{ 'example.com/aggregate-to-agg': 'true' }] });
    const [a] = Testing.synth(c);
    expect(a).not.toHaveProperty('rules');
    expect(() => role(chart(), 'B', { name: 'agg', rules: [Rbac.read('', 'pods')], aggregateFrom: [{ 'example.com/aggregate-to-agg': 'true' }] })).toThrow(
      'c/B: ClusterRole agg aggregates other roles (aggregateFrom), so the API server replaces its rules; move its 1 rule(s) to a ClusterRole labelled example.com/aggregate-to-agg=true',
    );
  });

  test('bindings bind ServiceAccounts', () => {
    const c = chart();
    binding(c, 'B', { name: 'b', roleRef: { kind: 'ClusterRole', name: 'r' }, serviceAccounts: [{ name: 'sa', namespace: 'ns' }] });
    expect(Testing.synth(c)[0]).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }],
    });
  });

  test('bindings bind groups (e.g. every authenticated user), after the ServiceAccounts', () => {
    const c = chart();
    binding(c, 'B', { name: 'b', namespace: 'ns', roleRef: { kind: 'Role', name: 'r' }, serviceAccounts: [{ name: 'sa', namespace: 'ns' }], groups: ['system:authenticated'] });
    expect(Testing.synth(c)[0].subjects).toEqual([
      { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
    ]);
  });

  test('fails when a ClusterRoleBinding references a Role', () => {
    expect(() => binding(chart(), 'B', { name: 'b', roleRef: { kind: 'Role', name: 'r' }, serviceAccounts: [] })).toThrow(
      'c/B: a ClusterRoleBinding can only reference a ClusterRole (got Role r); set namespace to make a RoleBinding',
    );
  });

  test('fails when a namespaced Role aggregates', () => {
    expect(() => role(chart(), 'R', { name: 'r', namespace: 'ns', rules: [], aggregateFrom: [{ a: 'b' }] })).toThrow(
      'c/R: aggregateFrom applies to ClusterRoles only; drop the namespace or the aggregation',
    );
  });

  test("fails when a rule uses '*'", () => {
    expect(() => role(chart(), 'R', { name: 'r', rules: [{ apiGroups: [''], resources: ['*'], verbs: ['get'] }] })).toThrow('c/R: RBAC rule');
  });
});
