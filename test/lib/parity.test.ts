import { newPlatform, TestComponent } from './support';
import {
  classifyDifferences, compareFacts, DeviationCategory, describeDifference, extractFacts, Fact, FactKind, literalPattern, ParityDeviation, patternMatches, withoutGeneratorHash,
} from '../../lib/parity';

class Deviating extends TestComponent {
  public deviate(list: readonly ParityDeviation[]): void {
    this.declareParityDeviations(list);
  }
}

const deployment = (name: string, containers: any[], extra: any = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'ns' },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { serviceAccountName: `${name}-sa`, containers, ...extra } } },
});

const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', role: string, sa: string, ns?: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name: `${role}-binding`, ...(ns ? { namespace: ns } : {}) },
  roleRef: { kind: kind === 'ClusterRoleBinding' ? 'ClusterRole' : 'Role', name: role },
  subjects: [{ kind: 'ServiceAccount', name: sa, namespace: 'ns' }],
});

const find = (facts: Fact[], kind: FactKind, item?: string) => facts.filter((f) => f.kind === kind && (item === undefined || f.item === item));

describe('extractFacts', () => {
  test('webhooks: service, path, failurePolicy, sideEffects and one rule tuple per operation and resource', () => {
    const facts = extractFacts([{
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'cfg' },
      webhooks: [{
        name: 'mpod.example.io',
        clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/mutate' } },
        sideEffects: 'None',
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      }],
    }]);
    expect(facts.filter((f) => f.object === 'mutating mpod.example.io').map((f) => [f.kind, f.item, f.value])).toEqual([
      [FactKind.WEBHOOK, undefined, 'cfg'],
      [FactKind.WEBHOOK_FIELD, 'failurePolicy', 'Fail'],
      [FactKind.WEBHOOK_FIELD, 'path', '/mutate'],
      [FactKind.WEBHOOK_FIELD, 'service', 'svc:443'],
      [FactKind.WEBHOOK_FIELD, 'sideEffects', 'None'],
      [FactKind.WEBHOOK_RULE, 'CREATE||v1|pods|*', undefined],
      [FactKind.WEBHOOK_RULE, 'UPDATE||v1|pods|*', undefined],
    ]);
  });

  test('RBAC: triples through bindings of the workload\'s ServiceAccount, with aggregated rules, scope and names; a rejected role grants nothing', () => {
    const facts = extractFacts([
      deployment('ctl', [{ name: 'manager' }]),
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }] } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'part', labels: { agg: 'true' } }, rules: [{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['get'] }] },
      binding('ClusterRoleBinding', 'agg', 'ctl-sa'),
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'leases', namespace: 'ns' }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['lock'], verbs: ['update'] }] },
      binding('RoleBinding', 'leases', 'ctl-sa', 'ns'),
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'other', namespace: 'kube-system' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }] },
      binding('RoleBinding', 'other', 'ctl-sa', 'kube-system'),
      // Invalid: a resource rule without apiGroups; the API server rejects the role.
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'bad' }, rules: [{ resources: ['secrets'], verbs: ['get'] }] },
      binding('ClusterRoleBinding', 'bad', 'ctl-sa'),
    ]);
    expect(find(facts, FactKind.RBAC_SUBJECT)).toEqual([{ kind: FactKind.RBAC_SUBJECT, object: 'Deployment/ctl', value: 'ctl-sa' }]);
    const rbac = Object.fromEntries(find(facts, FactKind.RBAC).map((f) => [f.item, f.value]));
    expect(rbac['batch|jobs|get']).toEqual('cluster');
    expect(rbac['coordination.k8s.io|leases|update']).toEqual('namespace names lock');
    expect(rbac['|configmaps|deletecollection']).toEqual('namespace kube-system');
    expect(Object.keys(rbac).filter((k) => k.includes('secrets'))).toEqual([]);
  });

  test('containers: command, args, env names, ports, mounts with their volume source; unmounted volumes; generator hashes dropped', () => {
    const facts = extractFacts([deployment('ctl', [{
      name: 'manager',
      command: ['/manager'],
      args: ['--leader-elect'],
      env: [{ name: 'A', value: 'secret value' }],
      ports: [{ containerPort: 9443, name: 'webhook' }],
      volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }],
    }], { volumes: [{ name: 'cfg', configMap: { name: 'config-5h7gm86k4c' } }, { name: 'spare', emptyDir: {} }] })]);
    expect(facts.filter((f) => f.object === 'Deployment/ctl container manager').map((f) => [f.kind, f.item ?? f.value, f.value])).toEqual([
      [FactKind.ARG, '--leader-elect', undefined],
      [FactKind.COMMAND, '["/manager"]', '["/manager"]'],
      [FactKind.ENV, 'A', undefined],
      [FactKind.MOUNT, '/etc/cfg', 'configMap:config'],
      [FactKind.PORT, '9443/TCP', undefined],
    ]);
    expect(find(facts, FactKind.VOLUME)).toEqual([{ kind: FactKind.VOLUME, object: 'Deployment/ctl', item: 'emptyDir' }]);
    // Values are not facts: the env value appears nowhere.
    expect(JSON.stringify(facts)).not.toContain('secret value');
  });

  test('Services: selector labels and ports, a named target port resolved through the selected workload; ConfigMap keys', () => {
    const facts = extractFacts([
      deployment('ctl', [{ name: 'manager', ports: [{ name: 'webhook', containerPort: 9443 }] }]),
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'ns' }, spec: { selector: { app: 'ctl' }, ports: [{ port: 443, targetPort: 'webhook' }] } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg-bm2h4t6fk8', namespace: 'ns' }, data: { 'config.yaml': 'x' }, binaryData: { blob: 'eA==' } },
    ]);
    expect(facts.filter((f) => f.object === 'svc').map((f) => [f.kind, f.item, f.value])).toEqual([
      [FactKind.SERVICE, undefined, 'ClusterIP'],
      [FactKind.SERVICE_PORT, '443/TCP', '9443'],
      [FactKind.SERVICE_SELECTOR, 'app', 'ctl'],
    ]);
    expect(find(facts, FactKind.CONFIGMAP_KEY).map((f) => `${f.object}/${f.item}`)).toEqual(['cfg/blob', 'cfg/config.yaml']);
  });

  test('output is sorted and deterministic', () => {
    const objs = [deployment('b', [{ name: 'm', env: [{ name: 'Z' }, { name: 'A' }] }]), deployment('a', [{ name: 'm' }])];
    expect(extractFacts(objs)).toEqual(extractFacts([...objs].reverse()));
  });

  test('withoutGeneratorHash drops only a kustomize content hash', () => {
    expect(withoutGeneratorHash('params-5h7gm86k4c')).toEqual('params');
    expect(withoutGeneratorHash('kueue-manager-config')).toEqual('kueue-manager-config');
  });
});

describe('compareFacts', () => {
  const up: Fact[] = [
    { kind: FactKind.WORKLOAD, object: 'Deployment/ctl' },
    { kind: FactKind.CONTAINER, object: 'Deployment/ctl', item: 'manager' },
    { kind: FactKind.ENV, object: 'Deployment/ctl container manager', item: 'A' },
    { kind: FactKind.ENV, object: 'Deployment/ctl container manager', item: 'B' },
    { kind: FactKind.MOUNT, object: 'Deployment/ctl container manager', item: '/tmp', value: 'emptyDir' },
    { kind: FactKind.WORKLOAD, object: 'Deployment/gone' },
    { kind: FactKind.CONTAINER, object: 'Deployment/gone', item: 'x' },
    { kind: FactKind.ENV, object: 'Deployment/gone container x', item: 'C' },
  ];

  test('missing, extra and differing facts; nothing implied by a missing object is repeated', () => {
    const ours: Fact[] = [
      { kind: FactKind.WORKLOAD, object: 'Deployment/ctl' },
      { kind: FactKind.CONTAINER, object: 'Deployment/ctl', item: 'manager' },
      { kind: FactKind.ENV, object: 'Deployment/ctl container manager', item: 'A' },
      { kind: FactKind.ENV, object: 'Deployment/ctl container manager', item: 'EXTRA' },
      { kind: FactKind.MOUNT, object: 'Deployment/ctl container manager', item: '/tmp', value: 'secret:x' },
      // Under no upstream object: not compared.
      { kind: FactKind.WORKLOAD, object: 'Deployment/ours-only' },
      { kind: FactKind.ENV, object: 'Deployment/ours-only container y', item: 'D' },
    ];
    expect(compareFacts(up, ours).map(describeDifference)).toEqual([
      'env Deployment/ctl container manager [B] missing',
      'env Deployment/ctl container manager [EXTRA] extra',
      'mount Deployment/ctl container manager [/tmp] differs: upstream emptyDir, ours secret:x',
      'workload Deployment/gone missing',
    ]);
  });

  test('a workload\'s one container named otherwise is compared under upstream\'s name', () => {
    const ours: Fact[] = [
      { kind: FactKind.WORKLOAD, object: 'Deployment/ctl' },
      { kind: FactKind.CONTAINER, object: 'Deployment/ctl', item: 'main' },
      { kind: FactKind.ENV, object: 'Deployment/ctl container main', item: 'A' },
      { kind: FactKind.MOUNT, object: 'Deployment/ctl container main', item: '/tmp', value: 'emptyDir' },
      { kind: FactKind.WORKLOAD, object: 'Deployment/gone' },
      { kind: FactKind.CONTAINER, object: 'Deployment/gone', item: 'x' },
      { kind: FactKind.ENV, object: 'Deployment/gone container x', item: 'C' },
    ];
    expect(compareFacts(up, ours).map(describeDifference)).toEqual([
      'container Deployment/ctl [manager] differs: upstream named manager, ours named main',
      'env Deployment/ctl container manager [B] missing',
    ]);
  });

  test('an extra webhook counts; an extra Service does not', () => {
    const ours: Fact[] = [{ kind: FactKind.WEBHOOK, object: 'validating v.example.io', value: 'cfg' }, { kind: FactKind.SERVICE, object: 'metrics', value: 'ClusterIP' }];
    expect(compareFacts([], ours).map(describeDifference)).toEqual(['webhook validating v.example.io extra (ours cfg)']);
  });
});

describe('deviations and known defects', () => {
  const diffs = compareFacts(
    [{ kind: FactKind.WORKLOAD, object: 'Deployment/ctl' }, { kind: FactKind.CONTAINER, object: 'Deployment/ctl', item: 'm' }, { kind: FactKind.ARG, object: 'Deployment/ctl container m', item: '--a' }],
    [{ kind: FactKind.WORKLOAD, object: 'Deployment/ctl' }, { kind: FactKind.CONTAINER, object: 'Deployment/ctl', item: 'm' }, { kind: FactKind.ARG, object: 'Deployment/ctl container m', item: '--b=1' }],
  );

  test('patterns match kind, object and item with *, and status when given', () => {
    expect(patternMatches({ kind: FactKind.ARG, object: 'Deployment/* container m', item: '--b=*' }, diffs[1])).toBe(true);
    expect(patternMatches({ kind: FactKind.ARG, object: 'Deployment/* container m', item: '--b=*', status: 'missing' }, diffs[1])).toBe(false);
    expect(patternMatches({ kind: FactKind.ENV, object: '*' }, diffs[1])).toBe(false);
    // Regex characters in patterns are literal.
    expect(patternMatches({ kind: FactKind.ARG, object: 'Deployment/ctl.container m' }, diffs[1])).toBe(false);
  });

  test('a literal pattern matches only its text; a value pattern matches our value', () => {
    const wildcard = compareFacts(
      [{ kind: FactKind.WORKLOAD, object: 'Deployment/ctl' }, { kind: FactKind.RBAC_SUBJECT, object: 'Deployment/ctl', value: 'sa' }, { kind: FactKind.RBAC, object: 'Deployment/ctl', item: '*|deployments|get', value: 'cluster' }],
      [{ kind: FactKind.WORKLOAD, object: 'Deployment/ctl' }, { kind: FactKind.RBAC_SUBJECT, object: 'Deployment/ctl', value: 'sa' }, { kind: FactKind.RBAC, object: 'Deployment/ctl', item: 'apps|deployments|get', value: 'namespace' }],
    );
    expect(wildcard.map(describeDifference)).toEqual(['rbac Deployment/ctl [*|deployments|get] missing (upstream cluster)', 'rbac Deployment/ctl [apps|deployments|get] extra (ours namespace)']);
    const exact = { kind: FactKind.RBAC, object: 'Deployment/ctl', item: literalPattern('*|deployments|get') };
    expect(wildcard.map((d) => patternMatches(exact, d))).toEqual([true, false]);
    expect(wildcard.map((d) => patternMatches({ kind: FactKind.RBAC, object: '*', item: '*|deployments|get' }, d))).toEqual([true, true]);
    expect(wildcard.map((d) => patternMatches({ kind: FactKind.RBAC, object: '*', actual: 'namespace*' }, d))).toEqual([false, true]);
  });

  test('classification: declared, tolerated, undeclared, and stale entries on both sides', () => {
    const dev: ParityDeviation = { fact: { kind: FactKind.ARG, object: '*', item: '--b=1', status: 'extra' }, category: DeviationCategory.HARDENING, reason: 'why' };
    const staleDev: ParityDeviation = { fact: { kind: FactKind.ENV, object: '*' }, category: DeviationCategory.HARDENING, reason: 'why' };
    const known = { fact: { kind: FactKind.ARG, object: 'Deployment/ctl container m', item: '--a', status: 'missing' as const } };
    const staleKnown = { fact: { kind: FactKind.ARG, object: 'Deployment/ctl container m', item: '--gone' } };
    const c = classifyDifferences(diffs, [dev, staleDev], [known, staleKnown]);
    expect(c.declared.map(describeDifference)).toEqual(['arg Deployment/ctl container m [--b=1] extra']);
    expect([...c.tolerated.keys()]).toEqual([known]);
    expect(c.undeclared).toEqual([]);
    expect(c.staleDeviations).toEqual([staleDev]);
    expect(c.staleTolerated).toEqual([staleKnown]);
    expect(classifyDifferences(diffs, [], []).undeclared).toHaveLength(2);
  });

  test('a component keeps its declared deviations', () => {
    const dev: ParityDeviation = { fact: { kind: FactKind.ARG, object: 'Deployment/ctl container m', item: '--b=1' }, category: DeviationCategory.HARDENING, reason: 'why' };
    const c = new Deviating(newPlatform(), 'widgets');
    c.deviate([dev]);
    expect(c.parityDeviations).toEqual([dev]);
  });

  test('fails when a deviation has no reason, matches every object or has an unknown category', () => {
    const c = new Deviating(newPlatform(), 'widgets');
    expect(() => c.deviate([{ fact: { kind: FactKind.ARG, object: 'Deployment/x container m' }, category: DeviationCategory.HARDENING, reason: ' ' }]))
      .toThrow('p/widgets: parity deviations: deviation arg Deployment/x container m: reason is empty; say in one sentence why the component differs from upstream');
    expect(() => c.deviate([{ fact: { kind: FactKind.ENV, object: '**' }, category: DeviationCategory.HARDENING, reason: 'r' }]))
      .toThrow('p/widgets: parity deviations: deviation env **: object \'**\' matches every object; name the object (a \'*\' may stand for part of it)');
    expect(() => c.deviate([{ fact: { kind: FactKind.ENV, object: 'x' }, category: 'tidier' as DeviationCategory, reason: 'r' }]))
      .toThrow(`p/widgets: parity deviations: deviation env x: category 'tidier' is not one of ${Object.values(DeviationCategory).join(', ')}`);
  });
});
