import { App } from 'cdk8s';
import { LlamaStackOperator, llamaStackCrds } from '../../../constructs/llama-stack-k8s-operator';
import { LlamaStackDistribution, LlamaStackDistributionSpec } from '../../../imports/llamastack.io';
import { CrdScope, crdName } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { objectCounts } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

const b = build((app) => {
  const p = new Platform(app, 'llsd', { name: 'llama-stack', prerequisites: [] });
  new LlamaStackOperator(p, 'llama-stack-k8s-operator');
  return p;
});
const objects = b.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
const NAME = 'llama-stack-k8s-operator-controller-manager';

/** Builds the operator with one LlamaStackDistribution and returns the problems. */
function withDistribution(spec: LlamaStackDistributionSpec): string[] {
  return problemsOf(() => build((app) => {
    const p = new Platform(app, 'llsd', { name: 'llama-stack', prerequisites: [] });
    const op = new LlamaStackOperator(p, 'llama-stack-k8s-operator');
    new LlamaStackDistribution(op, 'Example', { metadata: { name: 'example', namespace: op.namespaceName }, spec });
    return p;
  }));
}

describe('LlamaStackDistribution CRD', () => {
  test('llamastack.io v1alpha1, namespaced, short name llsd, status and printer columns', () => {
    const [llsd] = llamaStackCrds.CRDS;
    expect(crdName(llsd)).toBe('llamastackdistributions.llamastack.io');
    expect(llsd.scope).toBe(CrdScope.NAMESPACED);
    expect(llsd.shortNames).toEqual(['llsd']);
    expect(llsd.versions.map((v) => [v.name, v.storage, v.subresources])).toEqual([['v1alpha1', true, { status: true }]]);
    expect(llsd.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Phase', 'Operator Version', 'Server Version', 'Available', 'Age']);
  });

  test('env, volumes and topology spread constraints are the core Kubernetes types', () => {
    const server = llamaStackCrds.llamaStackDistributionCrd.versions[0].schema.toJson().properties!.spec.properties!.server;
    expect(server.properties!.containerSpec.properties!.env.items!.required).toEqual(['name']);
    expect(Object.keys(server.properties!.podOverrides.properties!.volumes.items!.properties!)).toContain('persistentVolumeClaim');
    expect(server.properties!.topologySpreadConstraints.items!.required).toEqual(['maxSkew', 'topologyKey', 'whenUnsatisfiable']);
  });

  test('a distribution by name is accepted', () => {
    expect(withDistribution({ server: { distribution: { name: 'starter' } } })).toEqual([]);
  });

  test('fails when a distribution names both a distribution and an image (the CEL rule)', () => {
    const problems = withDistribution({ server: { distribution: { name: 'starter', image: 'quay.io/example/stack:1.0' } } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\[MLP002\] llsd\/llama-stack-k8s-operator\/Example: LlamaStackDistribution example: spec\.server\.distribution: set either distribution\.name or distribution\.image, not both/);
  });
});

describe('Llama Stack operator alone', () => {
  test('controller: image, args, env, leader election and resources', () => {
    const d = find('Deployment', NAME);
    expect(d.metadata.namespace).toBe('llama-stack-k8s-operator-system');
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/llamastack/llama-stack-k8s-operator:v0.9.0');
    expect(c.args).toEqual(['--leader-elect', '--health-probe-bind-address=:8081']);
    expect(c.env).toContainEqual({ name: 'OPERATOR_VERSION', value: '0.9.0' });
    expect(c.env).toContainEqual({ name: 'GOMEMLIMIT', value: '800MiB' });
    expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '256Mi' }, limits: { cpu: '500m', memory: '1Gi' } });
    expect(find('Role', `${NAME}-role`).rules).toContainEqual({ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
  });

  test('RBAC: owns distributions and manages what it deploys; no SCC rule off OpenShift', () => {
    const rules = find('ClusterRole', `${NAME}-role`).rules;
    const allows = (group: string, resource: string, verb: string) => rules.some((r: any) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && r.verbs.includes(verb));
    expect(allows('llamastack.io', 'llamastackdistributions', 'create')).toBe(true);
    expect(allows('llamastack.io', 'llamastackdistributions/finalizers', 'update')).toBe(true);
    expect(allows('policy', 'poddisruptionbudgets', 'create')).toBe(true);
    expect(allows('networking.k8s.io', 'networkpolicies', 'delete')).toBe(true);
    expect(allows('', 'persistentvolumeclaims', 'delete')).toBe(false);
    expect(allows('rbac.authorization.k8s.io', 'clusterrolebindings', 'create')).toBe(false);
    expect(allows('security.openshift.io', 'securitycontextconstraints', 'use')).toBe(false);
  });

  test('on OpenShift it may use the anyuid SCC, by name', () => {
    const p = new Platform(new App(), 'p', { name: 'p' });
    const op = new LlamaStackOperator(p, 'llsd', { openShift: true });
    expect(op.controller.clusterRules).toContainEqual({ apiGroups: ['security.openshift.io'], resources: ['securitycontextconstraints'], resourceNames: ['anyuid'], verbs: ['use'] });
  });

  test('aggregated user roles: editor into admin and edit, viewer into view', () => {
    expect(find('ClusterRole', 'llama-stack-k8s-operator-llsd-editor-role').metadata.labels).toEqual({
      'app.kubernetes.io/name': 'llama-stack-k8s-operator', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
    });
    expect(find('ClusterRole', 'llama-stack-k8s-operator-llsd-viewer-role').metadata.labels['rbac.authorization.k8s.io/aggregate-to-view']).toBe('true');
    expect(find('ClusterRole', 'llama-stack-k8s-operator-llsd-viewer-role').rules).toContainEqual({ apiGroups: ['llamastack.io'], resources: ['llamastackdistributions'], verbs: ['get', 'list', 'watch'] });
  });

  test('LLS-METRICS: plain-HTTP metrics on :8080 as v0.9.0 serves them, through upstream\'s Service name, fenced to the monitoring namespace', () => {
    const c = find('Deployment', NAME).spec.template.spec.containers[0];
    expect(c.ports).toContainEqual({ name: 'metrics', containerPort: 8080, protocol: 'TCP' });
    expect(find('Service', `${NAME}-metrics-service`).spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
    // Not declared secure: no TokenReview/SubjectAccessReview rules and no metrics-reader role.
    const rules = find('ClusterRole', `${NAME}-role`).rules.flatMap((r: any) => r.resources ?? []);
    expect(rules).not.toContain('tokenreviews');
    expect(objects.some((o) => o.metadata.name === `${NAME}-metrics-reader`)).toBe(false);
    const fence = find('NetworkPolicy', `${NAME}-metrics-fence`);
    expect(fence.spec.podSelector).toEqual({ matchLabels: find('Deployment', NAME).spec.selector.matchLabels });
    expect(fence.spec.ingress).toEqual([
      { from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['monitoring'] }] } }], ports: [{ port: 8080, protocol: 'TCP' }] },
      { ports: [{ port: 8081, protocol: 'TCP' }] },
    ]);
  });

  test('object counts', () => {
    expect(objectCounts(b.model)).toMatchSnapshot();
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });
});
