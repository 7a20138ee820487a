import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { findObject, newPlatform, TestComponent } from './support';
import { aggregateTo, AggregatedClusterRole, AggregatedClusterRoleProps, aggregationLabel, KubeflowRole } from '../../lib/aggregation';

function role(props: AggregatedClusterRoleProps): { c: TestComponent; role: AggregatedClusterRole } {
  let r!: AggregatedClusterRole;
  const c = new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
    r = new AggregatedClusterRole(self, 'Role', props);
  });
  return { c, role: r };
}

describe('ClusterRole aggregation', () => {
  test('kubeflow-* targets use the Kubeflow domain, others the Kubernetes domain', () => {
    expect(aggregationLabel(KubeflowRole.EDIT)).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true' });
    expect(aggregationLabel('kubeflow-notebooks-admin')).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-notebooks-admin': 'true' });
    expect(aggregationLabel('view')).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(aggregationLabel('notebooks-admin')).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-notebooks-admin': 'true' });
  });

  test('a role with rules is labelled into its targets', () => {
    const { c } = role({ name: 'widgets-edit', aggregateTo: [KubeflowRole.EDIT, 'edit'], rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'create'] }] });
    const r = findObject(c, 'ClusterRole', 'widgets-edit');
    expect(r.metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(r.rules).toEqual([{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'get'] }]);
    expect(r.aggregationRule).toBeUndefined();
  });

  test('an aggregating role selects the label of its name (or aggregationTarget) and declares no rules (the aggregation controller owns them)', () => {
    const { c, role: r } = role({ name: 'prefix-widgets-admin', aggregating: true, aggregationTarget: 'kubeflow-widgets-admin', aggregateTo: [KubeflowRole.ADMIN] });
    const json = findObject(c, 'ClusterRole', 'prefix-widgets-admin');
    expect(json.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-widgets-admin': 'true' } }] });
    expect(json.rules).toBeUndefined();
    expect(json.metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-admin': 'true' });
    expect(r.selectorLabel).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-widgets-admin': 'true' });
  });

  test('nonResourceURLs survive the conversion into the binding', () => {
    const { c } = role({ name: 'metrics-reader', rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] });
    expect(findObject(c, 'ClusterRole', 'metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });

  test('aggregateTo labels an existing ClusterRole', () => {
    const c = new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
      const r = new k8s.KubeClusterRole(self, 'R', { metadata: { name: 'widgets-view' }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] });
      aggregateTo(r, KubeflowRole.VIEW);
    });
    expect(findObject(c, 'ClusterRole', 'widgets-view').metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true' });
  });

  test('fails when aggregateTo is given a Role', () => {
    expect(() => new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
      const r = new ApiObject(self, 'R', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'widgets', namespace: 'test-system' } });
      aggregateTo(r, KubeflowRole.VIEW);
    })).toThrow('p/test/R: only a ClusterRole can be aggregated (got Role widgets); aggregation labels on a Role have no effect');
  });

  test('fails when an aggregating role has rules', () => {
    expect(() => role({ name: 'widgets-admin', aggregating: true, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] }))
      .toThrow("p/test/Role: ClusterRole widgets-admin aggregates other roles, so the API server replaces its rules; move the 1 rule(s) to a role aggregated into it (aggregateTo: ['widgets-admin'])");
  });

  test('fails when a role has neither rules nor aggregation', () => {
    expect(() => role({ name: 'widgets-empty' })).toThrow('p/test/Role: ClusterRole widgets-empty has no rules and aggregates nothing; give it rules or set aggregating: true');
  });

  test('fails when aggregationTarget is set on a role that does not aggregate', () => {
    expect(() => role({ name: 'widgets-view', aggregationTarget: 'kubeflow-widgets-view', rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] }))
      .toThrow("p/test/Role: aggregationTarget 'kubeflow-widgets-view' applies only to an aggregating role; set aggregating: true or remove it");
  });

  test('fails when a role is aggregated into itself', () => {
    expect(() => role({ name: 'kubeflow-widgets', aggregating: true, aggregateTo: ['kubeflow-widgets'] }))
      .toThrow("p/test/Role: ClusterRole kubeflow-widgets cannot be aggregated into itself; remove 'kubeflow-widgets' from aggregateTo");
  });

  test('fails when a target is not a ClusterRole name', () => {
    expect(() => aggregationLabel('Kubeflow Edit')).toThrow("aggregation target 'Kubeflow Edit' is not a ClusterRole name (lower-case letters, digits, '-' and '.')");
  });

  test("fails when a rule uses '*'", () => {
    expect(() => role({ name: 'widgets-all', rules: [{ apiGroups: ['example.com'], resources: ['*'], verbs: ['get'] }] }))
      .toThrow("uses '*' in resources");
  });
});
