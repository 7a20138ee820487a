import { newPlatform, TestComponent } from './support';
import {
  classifyDifferences, compareFacts, DeviationCategory, describeDifference, extractFacts, Fact, factValue, FactKind, imageName, LITERAL_VALUE_MAX, literalPattern,
  normalizeQuantity, parityDeviationProblems, ParityDeviation, patternMatches, withoutGeneratorHash,
} from '../../lib/parity';
import { valueDeviation } from '../../lib/parity-items';

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

  test('containers: command, args, env values, ports, mounts with their volume source; unmounted volumes; generator hashes dropped', () => {
    const facts = extractFacts([deployment('ctl', [{
      name: 'manager',
      command: ['/manager'],
      args: ['--leader-elect'],
      env: [{ name: 'A', value: 'x' }],
      ports: [{ containerPort: 9443, name: 'webhook' }],
      volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }],
    }], { volumes: [{ name: 'cfg', configMap: { name: 'config-5h7gm86k4c' } }, { name: 'spare', emptyDir: {} }] })]);
    expect(facts.filter((f) => f.object === 'Deployment/ctl container manager').map((f) => [f.kind, f.item ?? f.value, f.value])).toEqual([
      [FactKind.ARG, '--leader-elect', undefined],
      [FactKind.COMMAND, '["/manager"]', '["/manager"]'],
      [FactKind.ENV, 'A', 'value x'],
      [FactKind.MOUNT, '/etc/cfg', 'configMap:config'],
      [FactKind.PORT, '9443/TCP', undefined],
    ]);
    expect(find(facts, FactKind.VOLUME)).toEqual([{ kind: FactKind.VOLUME, object: 'Deployment/ctl', item: 'emptyDir' }]);
  });

  test('env: a value as written, valueFrom by its source name and key; envFrom by source', () => {
    const facts = extractFacts([deployment('ctl', [{
      name: 'm',
      env: [
        { name: 'LEVEL', value: 'info' },
        { name: 'EMPTY' },
        { name: 'HOST', valueFrom: { configMapKeyRef: { name: 'params-5h7gm86k4c', key: 'host' } } },
        { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
        { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      ],
      envFrom: [{ configMapRef: { name: 'settings' } }, { secretRef: { name: 'creds' }, prefix: 'DB_' }],
    }])]);
    expect(Object.fromEntries(find(facts, FactKind.ENV).map((f) => [f.item, f.value]))).toEqual({
      LEVEL: 'value info',
      EMPTY: 'value ',
      HOST: 'configMapKeyRef params/host',
      PASSWORD: 'secretKeyRef db/password',
      NS: 'fieldRef metadata.namespace',
      MEM: 'resourceFieldRef limits.memory / 1Mi',
    });
    expect(find(facts, FactKind.ENV_FROM).map((f) => f.item)).toEqual(['configMap:settings', 'secret:creds prefix DB_']);
  });

  test('values: short one-line values as written; long or multi-line ones as the digest of their normalized text, never the text', () => {
    const script = 'set -e\nexec /manager --flag\n';
    expect(factValue('--port=8080')).toEqual('--port=8080');
    expect(factValue('x'.repeat(LITERAL_VALUE_MAX))).toEqual('x'.repeat(LITERAL_VALUE_MAX));
    expect(factValue('x'.repeat(LITERAL_VALUE_MAX + 1))).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(factValue(script)).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Line ends, trailing spaces and blank edges do not count; the text does.
    expect(factValue('\r\nset -e  \r\nexec /manager --flag')).toEqual(factValue(script));
    expect(factValue('set -e\nexec /manager --flag=1')).not.toEqual(factValue(script));
    // A YAML or JSON document counts by its content, not its layout, comments or quoting.
    expect(factValue('# labels\na: "1"\nb: two\n')).toEqual(factValue('b: two\na: \'1\'\n'));
    expect(factValue('{\n  "b": [1, 2],\n  "a": true\n}')).toEqual(factValue('a: true\nb:\n- 1\n- 2\n'));
    expect(factValue('a: true\nb: 3\n')).not.toEqual(factValue('a: true\nb: 4\n'));
    // Long args are digests too.
    const facts = extractFacts([deployment('ctl', [{ name: 'm', args: ['-c', script] }])]);
    expect(find(facts, FactKind.ARG).map((f) => f.item)).toEqual(['-c', factValue(script)]);
    expect(JSON.stringify(facts)).not.toContain('exec /manager');
  });

  test('probes: handler with named ports resolved, and every threshold with Kubernetes\' default when unset', () => {
    const facts = extractFacts([deployment('ctl', [{
      name: 'm',
      ports: [{ name: 'health', containerPort: 8081 }],
      livenessProbe: { httpGet: { path: '/healthz', port: 'health' }, initialDelaySeconds: 15, periodSeconds: 20 },
      readinessProbe: { tcpSocket: { port: 3306 }, failureThreshold: 10 },
      startupProbe: { exec: { command: ['mysqladmin', 'ping'] }, timeoutSeconds: 5 },
    }])]);
    expect(find(facts, FactKind.PROBE).map((f) => [f.item, f.value])).toEqual([
      ['liveness', 'httpGet HTTP :8081/healthz'],
      ['readiness', 'tcpSocket :3306'],
      ['startup', 'exec ["mysqladmin","ping"]'],
    ]);
    const fields = Object.fromEntries(find(facts, FactKind.PROBE_FIELD).map((f) => [f.item, f.value]));
    expect(fields).toMatchObject({
      'liveness initialDelaySeconds': '15',
      'liveness periodSeconds': '20',
      'liveness timeoutSeconds': '1',
      'liveness failureThreshold': '3',
      'liveness successThreshold': '1',
      'readiness failureThreshold': '10',
      'readiness initialDelaySeconds': '0',
      'startup timeoutSeconds': '5',
    });
    expect(Object.keys(fields)).toHaveLength(15);
  });

  test('resources: requests and limits with quantities in one spelling', () => {
    const facts = extractFacts([deployment('ctl', [{ name: 'm', resources: { requests: { cpu: '0.1', memory: '1024Mi' }, limits: { 'cpu': 2, 'memory': '1G', 'nvidia.com/gpu': '1' } } }])]);
    expect(Object.fromEntries(find(facts, FactKind.RESOURCE).map((f) => [f.item, f.value]))).toEqual({
      'requests.cpu': '100m', 'requests.memory': '1Gi', 'limits.cpu': '2', 'limits.memory': '1000000000', 'limits.nvidia.com/gpu': '1',
    });
    expect(normalizeQuantity('100m')).toEqual(normalizeQuantity('0.1'));
    expect(normalizeQuantity('512Mi')).toEqual(normalizeQuantity(String(512 * 2 ** 20)));
  });

  test('monitors: selector and each endpoint\'s scheme and path, ServiceMonitors and PodMonitors', () => {
    const facts = extractFacts([
      { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'ctl', namespace: 'ns' }, spec: { selector: { matchLabels: { b: '2', a: '1' } }, endpoints: [{ port: 'https', scheme: 'https', path: '/metrics' }] } },
      { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { name: 'pods', namespace: 'ns' }, spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['y', 'x'] }] }, podMetricsEndpoints: [{ port: 'metrics' }] } },
    ]);
    expect(facts.map((f) => [f.kind, f.object, f.item, f.value])).toEqual([
      [FactKind.MONITOR, 'PodMonitor/pods', undefined, undefined],
      [FactKind.MONITOR, 'ServiceMonitor/ctl', undefined, undefined],
      [FactKind.MONITOR_FIELD, 'PodMonitor/pods', 'endpoint metrics', 'http /metrics'],
      [FactKind.MONITOR_FIELD, 'PodMonitor/pods', 'selector', 'app In x,y'],
      [FactKind.MONITOR_FIELD, 'ServiceMonitor/ctl', 'endpoint https', 'https /metrics'],
      [FactKind.MONITOR_FIELD, 'ServiceMonitor/ctl', 'selector', 'a=1, b=2'],
    ]);
  });

  test('custom resources: presence, and their commands, args and long texts by path (list items by name)', () => {
    const script = 'line one\nline two';
    const facts = extractFacts([
      { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'ClusterServingRuntime', metadata: { name: 'rt' }, spec: { containers: [{ name: 'main', image: 'i', command: ['sh', '-c', script], args: ['--port=8080'] }], template: script, short: 'kept out' } },
      { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'cert' }, spec: { dnsNames: ['x'] } },
      { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'built-in' } },
    ]);
    expect(facts.map((f) => [f.kind, f.object, f.item, f.value])).toEqual([
      [FactKind.CUSTOM_RESOURCE, 'ClusterServingRuntime/rt', undefined, undefined],
      [FactKind.CUSTOM_RESOURCE_TEXT, 'ClusterServingRuntime/rt', 'spec.containers[main].args', '["--port=8080"]'],
      [FactKind.CUSTOM_RESOURCE_TEXT, 'ClusterServingRuntime/rt', 'spec.containers[main].command', factValue(['sh', '-c', script])],
      [FactKind.CUSTOM_RESOURCE_TEXT, 'ClusterServingRuntime/rt', 'spec.template', factValue(script)],
    ]);
  });

  test('Services: selector labels and ports, a named target port resolved through the selected workload; ConfigMap keys and values', () => {
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
    expect(find(facts, FactKind.CONFIGMAP_KEY).map((f) => `${f.object}/${f.item} ${f.value}`)).toEqual(['cfg/blob eA==', 'cfg/config.yaml x']);
  });

  test('NetworkPolicies: selected pods (a one-value In as the label it means) and one fact per source and port, a named port resolved through the selected pods', () => {
    const np = (name: string, spec: any) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace: 'ns' }, spec });
    const istio = { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system', 'kubeflow'] }] } };
    const tenants = { namespaceSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'kubeflow-profile' } } };
    const facts = extractFacts([
      deployment('ctl', [{ name: 'manager', ports: [{ name: 'https-webhook', containerPort: 4443 }] }]),
      np('upstream', { podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['ctl'] }] }, policyTypes: ['Ingress'], ingress: [{ from: [istio, { podSelector: {} }] }, { from: [], ports: [{ port: 'https-webhook' }] }] }),
      np('ours', { podSelector: { matchLabels: { app: 'ctl' } }, ingress: [{ from: [tenants], ports: [{ port: 8080, endPort: 8090, protocol: 'UDP' }] }, { ports: [{ port: 4443 }] }] }),
    ]);
    expect(facts.filter((f) => f.object === 'NetworkPolicy/upstream').map((f) => f.value ?? f.item)).toEqual([
      'app=ctl (Ingress)',
      'ingress from any source to 4443/TCP',
      'ingress from namespace istio-system to any port',
      'ingress from namespace kubeflow to any port',
      'ingress from pods (every pod) to any port',
    ]);
    expect(facts.filter((f) => f.object === 'NetworkPolicy/ours').map((f) => f.value ?? f.item)).toEqual([
      'app=ctl (Ingress)',
      'ingress from any source to 4443/TCP',
      'ingress from namespaces app.kubernetes.io/part-of=kubeflow-profile to 8080-8090/UDP',
    ]);
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

describe('compareFacts: NetworkPolicies', () => {
  test('an extra NetworkPolicy counts (it changes who reaches pods); an extra rule of one upstream has counts too', () => {
    const up: Fact[] = [{ kind: FactKind.NETWORK_POLICY, object: 'NetworkPolicy/a', value: 'app=a (Ingress)' }, { kind: FactKind.NETWORK_POLICY_RULE, object: 'NetworkPolicy/a', item: 'ingress from any source to 9443/TCP' }];
    const ours: Fact[] = [...up, { kind: FactKind.NETWORK_POLICY_RULE, object: 'NetworkPolicy/a', item: 'ingress from namespace istio-system to any port' },
      { kind: FactKind.NETWORK_POLICY, object: 'NetworkPolicy/b', value: 'app=b (Ingress)' }, { kind: FactKind.NETWORK_POLICY_RULE, object: 'NetworkPolicy/b', item: 'ingress from any source to any port' }];
    expect(compareFacts(up, ours).map(describeDifference)).toEqual([
      'network-policy NetworkPolicy/b extra (ours app=b (Ingress))',
      'network-policy-rule NetworkPolicy/a [ingress from namespace istio-system to any port] extra',
    ]);
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

describe('value facts', () => {
  const C = 'Deployment/ctl container m';
  const base: Fact[] = [{ kind: FactKind.WORKLOAD, object: 'Deployment/ctl' }, { kind: FactKind.CONTAINER, object: 'Deployment/ctl', item: 'm' }];
  const withParents = (f: Fact): Fact[] => {
    switch (f.kind) {
      case FactKind.PROBE_FIELD: return [...base, { kind: FactKind.PROBE, object: f.object, item: f.item!.split(' ')[0], value: 'tcpSocket :1' }, f];
      case FactKind.MONITOR_FIELD: return [{ kind: FactKind.MONITOR, object: f.object }, f];
      case FactKind.CONFIGMAP_KEY: return [{ kind: FactKind.CONFIGMAP, object: f.object }, f];
      case FactKind.CUSTOM_RESOURCE_TEXT: return [{ kind: FactKind.CUSTOM_RESOURCE, object: f.object }, f];
      default: return [...base, f];
    }
  };
  // One fact of each value kind: upstream's value, ours.
  const cases: Array<[Fact, string]> = [
    [{ kind: FactKind.ENV, object: C, item: 'LEVEL', value: 'value info' }, 'value debug'],
    [{ kind: FactKind.ENV, object: C, item: 'HOST', value: 'configMapKeyRef params/host' }, 'configMapKeyRef params/other'],
    [{ kind: FactKind.COMMAND, object: C, value: '["/manager"]' }, '["/bin/manager"]'],
    [{ kind: FactKind.PROBE, object: C, item: 'liveness', value: 'httpGet HTTP :8081/healthz' }, 'tcpSocket :8081'],
    [{ kind: FactKind.PROBE_FIELD, object: C, item: 'readiness failureThreshold', value: '10' }, '3'],
    [{ kind: FactKind.RESOURCE, object: C, item: 'requests.memory', value: '70Mi' }, '64Mi'],
    [{ kind: FactKind.MONITOR_FIELD, object: 'ServiceMonitor/ctl', item: 'endpoint https', value: 'https /metrics' }, 'http /metrics'],
    [{ kind: FactKind.CONFIGMAP_KEY, object: 'cfg', item: 'config.yaml', value: factValue('a: 1\nb: 2\n') }, factValue('a: 1\nb: 3\n')],
    [{ kind: FactKind.CUSTOM_RESOURCE_TEXT, object: 'ClusterServingRuntime/rt', item: 'spec.containers[main].command', value: factValue('run\nthis') }, factValue('run\nthat')],
  ];
  const diffOf = ([f, ours]: [Fact, string]) => {
    const diffs = compareFacts(withParents(f), withParents({ ...f, value: ours }));
    expect(diffs).toHaveLength(1);
    return diffs[0];
  };

  test.each(cases.map((c) => [`${c[0].kind} ${c[0].item ?? ''}`, c]))('%s: a changed value is reported with both values; the same value is not', (_, c) => {
    const [f, ours] = c as [Fact, string];
    expect(diffOf([f, ours])).toEqual({ ...f, status: 'differs', expected: f.value, actual: ours });
    expect(compareFacts(withParents(f), withParents(f))).toEqual([]);
  });

  test.each(cases.map((c) => [`${c[0].kind} ${c[0].item ?? ''}`, c]))('%s: a value deviation covers it while it states upstream\'s value, and is stale once upstream\'s value changes', (_, c) => {
    const [f, ours] = c as [Fact, string];
    const d = diffOf([f, ours]);
    const dev = valueDeviation({ kind: f.kind, object: f.object, item: f.item }, f.value!, DeviationCategory.PLATFORM_INTEGRATION, 'why');
    expect(parityDeviationProblems(dev)).toEqual([]);
    const ok = classifyDifferences([d], [dev], []);
    expect([ok.declared, ok.undeclared, ok.staleDeviations]).toEqual([[d], [], []]);
    // Upstream moved to another value: the deviation states a value the facts no longer hold.
    const moved = diffOf([{ ...f, value: `${f.value}0` }, ours]);
    const stale = classifyDifferences([moved], [dev], []);
    expect([stale.declared, stale.undeclared, stale.staleDeviations]).toEqual([[], [moved], [dev]]);
    // A deviation that does not state upstream's value covers no value difference, and is refused.
    const vague: ParityDeviation = { fact: { kind: f.kind, object: f.object, item: f.item, status: 'differs' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: 'why' };
    expect(classifyDifferences([d], [vague], []).undeclared).toEqual([d]);
    expect(parityDeviationProblems(vague)).toEqual([`deviation ${f.kind} ${f.object}${f.item ? ` [${f.item}]` : ''} differs: a ${f.kind} value deviation must state upstream's value it replaces (fact.upstream)`]);
  });

  test('a deviation may not state upstream\'s value as a bare *, unless it requires a value relation', () => {
    const dev: ParityDeviation = { fact: { kind: FactKind.ENV, object: C, item: 'X', status: 'differs', upstream: '*' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: 'why' };
    expect(parityDeviationProblems(dev)).toEqual([`deviation env ${C} [X] differs (upstream *): upstream '*' matches every value; state the value upstream's facts hold`]);
    expect(parityDeviationProblems({ ...dev, values: 'same-image' })).toEqual([]);
  });

  test('same-image: covers another tag, digest or registry of the same image, nothing else', () => {
    const dev: ParityDeviation = { fact: { kind: FactKind.ENV, object: '*', status: 'differs', upstream: '*' }, values: 'same-image', category: DeviationCategory.PLATFORM_INTEGRATION, reason: 'why' };
    const env = (up: string, ours: string) => diffOf([{ kind: FactKind.ENV, object: C, item: 'IMAGE', value: `value ${up}` }, `value ${ours}`]);
    const covered = (up: string, ours: string) => classifyDifferences([env(up, ours)], [dev], []).declared.length === 1;
    expect(covered('quay.io/org/tool:latest', 'quay.io/org/tool:1.2')).toBe(true);
    expect(covered(`quay.io/org/tool@sha256:${'a'.repeat(64)}`, 'mirror.example.com:5000/org/tool:1.2')).toBe(true);
    expect(covered('quay.io/org/tool:latest', 'quay.io/org/other:latest')).toBe(false);
    expect(covered('info', 'debug')).toBe(false);
    expect(imageName('value registry.redhat.io/ubi9/ubi-minimal:9.6')).toEqual('ubi-minimal');
    expect(imageName('value kubeflow-userid')).toBeUndefined();
  });
  test('a monitor, custom resource or envFrom source upstream has and we lack is reported once; ours alone do not count', () => {
    const up: Fact[] = [
      ...base,
      { kind: FactKind.ENV_FROM, object: C, item: 'configMap:settings' },
      { kind: FactKind.MONITOR, object: 'ServiceMonitor/ctl' },
      { kind: FactKind.MONITOR_FIELD, object: 'ServiceMonitor/ctl', item: 'selector', value: 'app=ctl' },
      { kind: FactKind.CUSTOM_RESOURCE, object: 'ClusterServingRuntime/rt' },
      { kind: FactKind.CUSTOM_RESOURCE_TEXT, object: 'ClusterServingRuntime/rt', item: 'spec.containers[main].args', value: '["--port=8080"]' },
    ];
    const ours: Fact[] = [...base, { kind: FactKind.MONITOR, object: 'PodMonitor/ours' }, { kind: FactKind.CUSTOM_RESOURCE, object: 'ClusterServingRuntime/ours' }];
    expect(compareFacts(up, ours).map(describeDifference)).toEqual([
      'custom-resource ClusterServingRuntime/rt missing',
      'env-from Deployment/ctl container m [configMap:settings] missing',
      'monitor ServiceMonitor/ctl missing',
    ]);
  });
});
