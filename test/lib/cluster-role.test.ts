import { App, Chart, Testing } from 'cdk8s';
import { ClusterRole } from '../../lib/cluster-role';
import { Rbac } from '../../lib/rbac';

function synth(make: (c: Chart) => void): any[] {
  const chart = new Chart(new App(), 'c');
  make(chart);
  return Testing.synth(chart);
}

describe('ClusterRole', () => {
  test('emits normalized rules as written, nonResourceURLs included', () => {
    const [role] = synth((c) => new ClusterRole(c, 'R', {
      name: 'metrics-reader',
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }, Rbac.read('', 'pods'), Rbac.read('', 'events')],
    }));
    expect(role).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics-reader' },
      rules: [
        { nonResourceURLs: ['/metrics'], verbs: ['get'] },
        { apiGroups: [''], resources: ['events', 'pods'], verbs: ['get', 'list', 'watch'] },
      ],
    });
  });

  test('aggregates by label and binds groups with a binding of the same name', () => {
    const [role, binding] = synth((c) => new ClusterRole(c, 'R', {
      name: 'x-admin', labels: { a: 'true' }, rules: [], aggregateFrom: ['example.com/aggregate-to-x-admin'], groups: ['system:authenticated'],
    }));
    expect(role.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-x-admin': 'true' } }] });
    expect(role.metadata.labels).toEqual({ a: 'true' });
    expect(binding).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'x-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'x-admin' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }],
    });
  });

  test('fails when a rule uses a wildcard', () => {
    expect(() => synth((c) => new ClusterRole(c, 'R', { name: 'r', rules: [{ apiGroups: [''], resources: ['*'], verbs: ['get'] }] })))
      .toThrow('c/R: RBAC rule {"apiGroups":[""],"resources":["*"],"verbs":["get"]} uses \'*\' in resources; list the resources the controller needs');
  });

  test('fails when it has no rules and aggregates nothing', () => {
    expect(() => synth((c) => new ClusterRole(c, 'R', { name: 'empty', rules: [] })))
      .toThrow('c/R: ClusterRole empty has no rules and aggregates nothing; give it rules or aggregateFrom');
  });
});
