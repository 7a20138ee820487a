import { App } from 'cdk8s';
import { TrainingOperator, TrainingOperatorProps } from '../../../constructs/training-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { pinnable } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: TrainingOperatorProps = {}) {
  const p = new Platform(new App(), 'p', { name: 'training-operator-only', certificates: CertificateProvider.selfManaged() });
  const op = new TrainingOperator(p, 'training-operator', props);
  return { p, op };
}

const built = buildPlatform(platform().p);
const { ofKind, named, container, can } = objectsOf(built);

describe('TrainingOperator component (deprecated upstream)', () => {
  test('synthesizes alone: it requires nothing', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['training-operator']);
    expect(built.model.components[0].requires).toEqual([]);
  });

  test('emits the six kubeflow.org/v1 job CRDs', () => {
    expect(ofKind('CustomResourceDefinition').map((c) => c.metadata.name)).toEqual([
      'tfjobs.kubeflow.org', 'pytorchjobs.kubeflow.org', 'mpijobs.kubeflow.org', 'xgboostjobs.kubeflow.org', 'paddlejobs.kubeflow.org', 'jaxjobs.kubeflow.org',
    ]);
  });

  test('runs training-operator in kubeflow with its cert-controller flags', () => {
    const d = named('Deployment', 'training-operator');
    expect(d.metadata.namespace).toBe('kubeflow');
    expect(d.spec.selector.matchLabels).toEqual({ 'control-plane': 'kubeflow-training-operator' });
    expect(d.spec.template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
    expect(d.spec.template.spec.terminationGracePeriodSeconds).toBe(10);
    const c = container('training-operator');
    // Upstream's container name, which kubectl logs -c and users' patches refer to.
    expect(c.name).toBe('training-operator');
    expect(c.image).toBe('kubeflow/training-operator:v1-5170a36');
    expect(c.command).toEqual(['/manager']);
    expect(c.args).toEqual(expect.arrayContaining([
      '--webhook-server-port=9443', '--webhook-service-name=training-operator', '--webhook-secret-name=training-operator-webhook-cert',
      '--health-probe-bind-address=:8081', '--leader-elect',
    ]));
    expect(c.args.filter((a: string) => a.startsWith('--enable-scheme'))).toEqual([]);
    expect(c.env.map((e: any) => e.name)).toEqual(expect.arrayContaining(['MY_POD_NAMESPACE', 'MY_POD_NAME']));
  });

  test('one validating configuration with five webhooks; MPIJob has none', () => {
    const v = named('ValidatingWebhookConfiguration', 'validator.training-operator.kubeflow.org');
    expect(v.webhooks.map((w: any) => [w.name, w.clientConfig.service.path, w.rules[0].resources[0]])).toEqual([
      ['validator.tfjob.training-operator.kubeflow.org', '/validate-kubeflow-org-v1-tfjob', 'tfjobs'],
      ['validator.pytorchjob.training-operator.kubeflow.org', '/validate-kubeflow-org-v1-pytorchjob', 'pytorchjobs'],
      ['validator.xgboostjob.training-operator.kubeflow.org', '/validate-kubeflow-org-v1-xgboostjob', 'xgboostjobs'],
      ['validator.paddlejob.training-operator.kubeflow.org', '/validate-kubeflow-org-v1-paddlejob', 'paddlejobs'],
      ['validator.jaxjob.training-operator.kubeflow.org', '/validate-kubeflow-org-v1-jaxjob', 'jaxjobs'],
    ]);
    for (const w of v.webhooks) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'] });
      expect(w.rules[0]).toMatchObject({ apiGroups: ['kubeflow.org'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'] });
      expect(w.clientConfig.service).toMatchObject({ name: 'training-operator', namespace: 'kubeflow', port: 443 });
    }
    expect(ofKind('MutatingWebhookConfiguration')).toEqual([]);
  });

  test('RBAC: owns the job kinds; pods, exec for MPI, launcher roles, HPAs for elastic jobs, PodGroups', () => {
    const role = 'training-operator-role';
    expect(can('ClusterRole', role, 'kubeflow.org', 'mpijobs/finalizers', 'update')).toBe(true);
    expect(can('ClusterRole', role, '', 'pods/exec', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'rbac.authorization.k8s.io', 'roles', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'rbac.authorization.k8s.io', 'roles', 'delete')).toBe(false);
    expect(can('ClusterRole', role, 'autoscaling', 'horizontalpodautoscalers', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'scheduling.volcano.sh', 'podgroups', 'delete')).toBe(true);
    expect(can('ClusterRole', role, '', 'secrets', 'create')).toBe(false);
    expect(can('ClusterRole', role, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'update')).toBe(false);
    expect(can('ClusterRole', 'training-operator-cert-rotator', 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'update', 'validator.training-operator.kubeflow.org')).toBe(true);
    expect(can('ClusterRole', 'training-operator-cert-rotator', 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'update', 'validator.training-operator.kubeflow.org')).toBe(false);
  });

  test('Kubeflow user roles: admin aggregates edit; edit manages jobs and claims; view reads', () => {
    expect(named('ClusterRole', 'kubeflow-training-admin').aggregationRule.clusterRoleSelectors[0].matchLabels)
      .toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-training-admin': 'true' });
    expect(can('ClusterRole', 'kubeflow-training-edit', 'kubeflow.org', 'pytorchjobs', 'create')).toBe(true);
    expect(can('ClusterRole', 'kubeflow-training-edit', '', 'persistentvolumeclaims', 'delete')).toBe(true);
    expect(can('ClusterRole', 'kubeflow-training-view', 'kubeflow.org', 'tfjobs', 'delete')).toBe(false);
    expect(can('ClusterRole', 'kubeflow-training-view', 'kubeflow.org', 'jaxjobs/status', 'get')).toBe(true);
  });

  test('schemes selects job kinds: only their CRDs, webhooks, --enable-scheme flags and roles', () => {
    const o = objectsOf(buildPlatform(platform({ schemes: ['pytorchjob', 'mpijob'] }).p));
    expect(o.ofKind('CustomResourceDefinition').map((c) => c.metadata.name)).toEqual(['pytorchjobs.kubeflow.org', 'mpijobs.kubeflow.org']);
    expect(o.container('training-operator').args.filter((a: string) => a.startsWith('--enable-scheme'))).toEqual(['--enable-scheme=pytorchjob', '--enable-scheme=mpijob']);
    expect(o.named('ValidatingWebhookConfiguration', 'validator.training-operator.kubeflow.org').webhooks.map((w: any) => w.name))
      .toEqual(['validator.pytorchjob.training-operator.kubeflow.org']);
    expect(o.can('ClusterRole', 'kubeflow-training-edit', 'kubeflow.org', 'tfjobs', 'create')).toBe(false);
  });

  test('fails when schemes is empty', () => {
    expect(() => platform({ schemes: [] })).toThrow('p/training-operator: schemes is empty; enable at least one of tfjob, pytorchjob, mpijob, xgboostjob, paddlejob, jaxjob, or leave the component out');
  });

  test('fails when a scheme is unknown', () => {
    expect(() => platform({ schemes: ['mxjob' as any] })).toThrow("p/training-operator: schemes: unknown scheme 'mxjob'; choose from tfjob, pytorchjob, mpijob, xgboostjob, paddlejob, jaxjob");
  });

  test('fails when a scheme is listed twice', () => {
    expect(() => platform({ schemes: ['tfjob', 'tfjob'] })).toThrow("p/training-operator: schemes: 'tfjob' is listed twice; list each scheme once");
  });

  test('fails when replicas is not a whole number of at least 1', () => {
    expect(() => platform({ replicas: 0 })).toThrow('p/training-operator: replicas 0 is not allowed; set a whole number >= 1 (leader election keeps one operator active)');
  });

  test('always rotates its own certificate: even under cert-manager, no Certificate and no cert-manager prerequisite', () => {
    const p = new Platform(new App(), 'p', { name: 'cm', certificates: CertificateProvider.certManager() });
    new TrainingOperator(p, 'training-operator');
    const o = objectsOf(buildPlatform(p));
    expect(o.ofKind('Certificate')).toEqual([]);
    expect(o.named('Secret', 'training-operator-webhook-cert').metadata.namespace).toBe('kubeflow');
    expect(o.named('ValidatingWebhookConfiguration', 'validator.training-operator.kubeflow.org').metadata.annotations).toBeUndefined();
  });

  test('plain HTTP metrics on 8080 (an explicit opt-out), scraped through prometheus annotations', () => {
    expect(container('training-operator').args).toContain('--metrics-bind-address=:8080');
    const svc = named('Service', 'training-operator-metrics');
    expect(svc.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics', 'prometheus.io/port': '8080' });
    expect(svc.spec.ports).toEqual([{ name: 'monitoring-port', port: 8080, targetPort: 'monitoring-port', protocol: 'TCP' }]);
  });

  test('snapshot of the whole output (CRD schemas as digests)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
