import { App } from 'cdk8s';
import { parse } from 'yaml';
import { JobSet } from '../../../constructs/jobset';
import { DEFAULT_TRAINING_RUNTIME_NAMES, Trainer, TrainerProps } from '../../../constructs/trainer';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform, PlatformProps } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { pinnable, problemsOf } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: TrainerProps = {}, opts: { jobset?: boolean; platform?: Partial<PlatformProps> } = {}) {
  const p = new Platform(new App(), 'p', { name: 'trainer-only', certificates: CertificateProvider.selfManaged(), ...opts.platform });
  if (opts.jobset ?? true) new JobSet(p, 'jobset');
  const trainer = new Trainer(p, 'trainer', props);
  return { p, trainer };
}

const built = buildPlatform(platform().p);
const { objects, ofKind, named, container, can } = objectsOf(built, 'trainer');

describe('Trainer component', () => {
  test('synthesizes with only JobSet, which it requires, ordered first', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['jobset', 'trainer']);
    expect(built.model.components[1].requires).toEqual([
      { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet', reason: 'every TrainJob runs as a JobSet', providedBy: JobSet },
    ]);
  });

  test('fails without JobSet, naming the JobSet component', () => {
    expect(problemsOf(() => buildPlatform(platform({}, { jobset: false }).p))).toEqual([
      "p/trainer: component 'trainer' (Trainer) requires jobset.x-k8s.io/JobSet (every TrainJob runs as a JobSet), but no component of platform 'trainer-only' provides it " +
        "and no prerequisite declares it; add the JobSet component to the platform, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'jobset.x-k8s.io', kind: 'JobSet' }] }]",
    ]);
  });

  test('emits the three trainer.kubeflow.org CRDs', () => {
    expect(ofKind('CustomResourceDefinition').map((c) => c.metadata.name)).toEqual([
      'clustertrainingruntimes.trainer.kubeflow.org', 'trainingruntimes.trainer.kubeflow.org', 'trainjobs.trainer.kubeflow.org',
    ]);
  });

  test('runs kubeflow-trainer-controller-manager in kubeflow-system from the v2.3.0 image', () => {
    const d = named('Deployment', 'kubeflow-trainer-controller-manager');
    expect(d.metadata.namespace).toBe('kubeflow-system');
    // upstream's full selector (v2.3.0 manifests)
    expect(d.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'trainer', 'app.kubernetes.io/component': 'manager', 'app.kubernetes.io/part-of': 'kubeflow' });
    expect(d.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe('kubeflow');
    const c = container('kubeflow-trainer-controller-manager');
    expect(c.image).toBe('ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.3.0');
    expect(c.args.slice(0, 2)).toEqual(['--config=/controller_manager_config.yaml', '--zap-log-level=2']);
    expect(c.ports).toEqual(expect.arrayContaining([
      { name: 'webhook-server', containerPort: 9443, protocol: 'TCP' },
      { name: 'status-server', containerPort: 10443, protocol: 'TCP' },
    ]));
  });

  test('the Configuration names the webhook Service and Secret for certificate management, and the status server', () => {
    const config = named('ConfigMap', 'kubeflow-trainer-config').data['controller_manager_config.yaml'];
    expect(config).toContain('apiVersion: config.trainer.kubeflow.org/v1alpha1');
    expect(config).toContain('webhookServiceName: kubeflow-trainer-controller-manager');
    expect(config).toContain('webhookSecretName: kubeflow-trainer-webhook-cert');
    expect(config).toContain('resourceName: trainer.kubeflow.org');
    expect(config).toMatch(/statusServer:\n {2}port: 10443/);
  });

  test('the Configuration uses only the fields of v2.3.0\'s Configuration type: the manager decodes it strictly and exits on an unknown one', () => {
    const config = parse(named('ConfigMap', 'kubeflow-trainer-config').data['controller_manager_config.yaml']);
    // json tags of pkg/apis/config/v1alpha1/configuration_types.go at v2.3.0 (plus the TypeMeta fields).
    const fields = ['apiVersion', 'kind', 'webhook', 'leaderElection', 'metrics', 'health', 'controller', 'certManagement', 'clientConnection', 'statusServer', 'featureGates'];
    expect(Object.keys(config).filter((k) => !fields.includes(k))).toEqual([]);
    expect(config.statusServer).toEqual({ port: 10443, qps: 5, burst: 10 });
  });

  test('one Service serves the webhooks (443) and the TrainJob status server (10443)', () => {
    const svc = named('Service', 'kubeflow-trainer-controller-manager');
    expect(svc.spec.ports).toEqual([
      { name: 'https', port: 443, targetPort: 'webhook-server', protocol: 'TCP' },
      { name: 'status-server', port: 10443, targetPort: 'status-server', protocol: 'TCP' },
    ]);
  });

  test('webhooks: the TrainJob defaulter and three validators, runtimes skippable by label', () => {
    const m = named('MutatingWebhookConfiguration', 'defaulter.trainer.kubeflow.org');
    expect(m.webhooks.map((w: any) => [w.name, w.clientConfig.service.path])).toEqual([
      ['defaulter.trainjob.trainer.kubeflow.org', '/mutate-trainer-kubeflow-org-v1alpha1-trainjob'],
    ]);
    const v = named('ValidatingWebhookConfiguration', 'validator.trainer.kubeflow.org');
    expect(v.webhooks.map((w: any) => [w.name, w.clientConfig.service.path, w.objectSelector?.matchExpressions?.[0]?.key])).toEqual([
      ['validator.clustertrainingruntime.trainer.kubeflow.org', '/validate-trainer-kubeflow-org-v1alpha1-clustertrainingruntime', 'trainer.kubeflow.org/webhook-validation'],
      ['validator.trainingruntime.trainer.kubeflow.org', '/validate-trainer-kubeflow-org-v1alpha1-trainingruntime', 'trainer.kubeflow.org/webhook-validation'],
      ['validator.trainjob.trainer.kubeflow.org', '/validate-trainer-kubeflow-org-v1alpha1-trainjob', undefined],
    ]);
    for (const w of [...m.webhooks, ...v.webhooks]) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'] });
      expect(w.rules[0]).toMatchObject({ apiGroups: ['trainer.kubeflow.org'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'] });
      expect(w.clientConfig.service).toMatchObject({ name: 'kubeflow-trainer-controller-manager', namespace: 'kubeflow-system', port: 443 });
    }
  });

  test('RBAC: owns its kinds, manages JobSets and PodGroups, reads runtime classes and limit ranges', () => {
    const role = 'kubeflow-trainer-controller-manager-role';
    expect(can('ClusterRole', role, 'trainer.kubeflow.org', 'trainjobs/status', 'patch')).toBe(true);
    expect(can('ClusterRole', role, 'trainer.kubeflow.org', 'clustertrainingruntimes/finalizers', 'update')).toBe(true);
    expect(can('ClusterRole', role, 'jobset.x-k8s.io', 'jobsets', 'delete')).toBe(true);
    expect(can('ClusterRole', role, 'scheduling.x-k8s.io', 'podgroups', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'scheduling.volcano.sh', 'podgroups', 'delete')).toBe(false);
    expect(can('ClusterRole', role, 'node.k8s.io', 'runtimeclasses', 'watch')).toBe(true);
    expect(can('ClusterRole', role, '', 'limitranges', 'list')).toBe(true);
    expect(can('ClusterRole', role, '', 'secrets', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'update')).toBe(false);
    expect(can('ClusterRole', `${role.replace(/-role$/, '')}-cert-rotator`, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'update', 'defaulter.trainer.kubeflow.org')).toBe(true);
    expect(can('Role', role, 'coordination.k8s.io', 'leases', 'create')).toBe(true);
  });

  test('RBAC on its own kinds is what v2.3.0\'s manager does: update, finalizers and TrainJob status; users create and delete them', () => {
    const role = 'kubeflow-trainer-controller-manager-role';
    for (const kind of ['clustertrainingruntimes', 'trainingruntimes', 'trainjobs']) {
      for (const verb of ['get', 'list', 'watch', 'update', 'patch']) expect([kind, verb, can('ClusterRole', role, 'trainer.kubeflow.org', kind, verb)]).toEqual([kind, verb, true]);
      for (const verb of ['create', 'delete']) expect([kind, verb, can('ClusterRole', role, 'trainer.kubeflow.org', kind, verb)]).toEqual([kind, verb, false]);
      for (const verb of ['get', 'update', 'patch']) expect([kind, verb, can('ClusterRole', role, 'trainer.kubeflow.org', `${kind}/finalizers`, verb)]).toEqual([kind, verb, true]);
    }
    expect(can('ClusterRole', role, 'trainer.kubeflow.org', 'trainingruntimes/status', 'update')).toBe(false);
    expect(can('ClusterRole', role, 'trainer.kubeflow.org', 'clustertrainingruntimes/status', 'patch')).toBe(false);
  });

  test('user roles aggregate into Kubeflow\'s; every authenticated user may read cluster runtimes and the version', () => {
    expect(named('ClusterRole', 'kubeflow-trainer-admin').aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-trainer-admin': 'true' } }],
    });
    expect(can('ClusterRole', 'kubeflow-trainer-edit', 'trainer.kubeflow.org', 'trainjobs', 'create')).toBe(true);
    expect(can('ClusterRole', 'kubeflow-trainer-edit', 'trainer.kubeflow.org', 'trainingruntimes', 'create')).toBe(false);
    expect(can('ClusterRole', 'kubeflow-trainer-edit', '', 'pods/log', 'get')).toBe(true);
    expect(can('ClusterRole', 'kubeflow-trainer-view', 'trainer.kubeflow.org', 'trainjobs', 'delete')).toBe(false);
    expect(named('ClusterRoleBinding', 'kubeflow-trainer-view-cluster-runtimes').subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }]);
    expect(named('ConfigMap', 'kubeflow-trainer-public').data).toEqual({ kubeflow_trainer_version: 'v2.3.0' });
    expect(named('Role', 'kubeflow-trainer-public').rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['kubeflow-trainer-public'], verbs: ['get', 'list', 'watch'] }]);
  });

  test('installs the five default ClusterTrainingRuntimes as typed resources, after the CRDs', () => {
    const runtimes = ofKind('ClusterTrainingRuntime');
    expect(runtimes.map((r) => r.metadata.name)).toEqual(['torch-distributed', 'deepspeed-distributed', 'mlx-distributed', 'jax-distributed', 'xgboost-distributed']);
    expect(runtimes.map((r) => r.metadata.labels['trainer.kubeflow.org/framework'])).toEqual(['torch', 'deepspeed', 'mlx', 'jax', 'xgboost']);
    expect(built.model.objects.filter((o) => o.json.kind === 'ClusterTrainingRuntime').every((o) => o.phase === '30-resources')).toBe(true);
    const image = (r: any, job = 0) => r.spec.template.spec.replicatedJobs[job].template.spec.template.spec.containers[0].image;
    expect(runtimes.map((r) => image(r))).toEqual([
      'pytorch/pytorch:2.7.1-cuda12.6-cudnn9-runtime',
      'ghcr.io/kubeflow/trainer/deepspeed-runtime:v2.3.0',
      'ghcr.io/kubeflow/trainer/mlx-runtime:v2.3.0',
      'nvcr.io/nvidia/jax:25.10-py3',
      'ghcr.io/kubeflow/trainer/xgboost-runtime:v2.3.0',
    ]);
  });

  test('the MPI runtimes start the launcher once the sshd nodes are ready and succeed with it', () => {
    const ds = named('ClusterTrainingRuntime', 'deepspeed-distributed').spec;
    expect(ds.mlPolicy.mpi).toEqual({ numProcPerNode: 1, mpiImplementation: 'OpenMPI', sshAuthMountPath: '/home/mpiuser/.ssh', runLauncherAsNode: true });
    expect(ds.template.spec.successPolicy).toEqual({ operator: 'All', targetReplicatedJobs: ['launcher'] });
    const [node, launcher] = ds.template.spec.replicatedJobs;
    expect(node.template.spec.template.spec.containers[0].readinessProbe).toEqual({ tcpSocket: { port: 2222 }, initialDelaySeconds: 5 });
    expect(launcher.dependsOn).toEqual([{ name: 'node', status: 'Ready' }]);
    expect(launcher.template.metadata.labels).toEqual({ 'trainer.kubeflow.org/trainjob-ancestor-step': 'trainer' });
    expect(named('ClusterTrainingRuntime', 'jax-distributed').metadata.labels['trainer.kubeflow.org/webhook-validation']).toBe('disabled');
  });

  test('runtimes selects default runtimes by name; false installs none; images follow the platform', () => {
    const some = buildPlatform(platform({ runtimes: ['torch-distributed'] }, { platform: { images: { overrides: { 'trainer/torchRuntime': { tag: '2.8.0-cuda12.8-cudnn9-runtime' } } } } }).p);
    const rts = objectsOf(some).ofKind('ClusterTrainingRuntime');
    expect(rts.map((r) => r.metadata.name)).toEqual(['torch-distributed']);
    expect(rts[0].spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].image).toBe('pytorch/pytorch:2.8.0-cuda12.8-cudnn9-runtime');
    expect(objectsOf(buildPlatform(platform({ runtimes: false }).p)).ofKind('ClusterTrainingRuntime')).toEqual([]);
    expect(DEFAULT_TRAINING_RUNTIME_NAMES).toHaveLength(5);
  });

  test('userRoles: false leaves the user roles out but keeps the public ConfigMap', () => {
    const o = objectsOf(buildPlatform(platform({ userRoles: false }).p), 'trainer');
    expect(o.ofKind('ClusterRole').map((r) => r.metadata.name).filter((n) => n.startsWith('kubeflow-trainer-') && !n.startsWith('kubeflow-trainer-controller-manager'))).toEqual([]);
    expect(o.named('ConfigMap', 'kubeflow-trainer-public')).toBeDefined();
  });

  test('fails when a runtime name is unknown', () => {
    expect(() => platform({ runtimes: ['torch-distrib' as any] })).toThrow(
      "p/trainer: runtimes: unknown runtime 'torch-distrib'; choose from torch-distributed, deepspeed-distributed, mlx-distributed, jax-distributed, xgboost-distributed, or pass false for none",
    );
  });

  test('fails when a runtime is listed twice', () => {
    expect(() => platform({ runtimes: ['jax-distributed', 'jax-distributed'] })).toThrow("p/trainer: runtimes: 'jax-distributed' is listed twice; list each runtime once");
  });

  test('fails when replicas is not a whole number of at least 1', () => {
    expect(() => platform({ replicas: -1 })).toThrow('p/trainer: replicas -1 is not allowed; set a whole number >= 1 (leader election keeps one manager active)');
  });

  test('self-managed certificate: an empty Secret and certManagement on', () => {
    expect(named('Secret', 'kubeflow-trainer-webhook-cert').metadata.namespace).toBe('kubeflow-system');
    expect(named('ConfigMap', 'kubeflow-trainer-config').data['controller_manager_config.yaml']).toMatch(/certManagement:\n {2}enable: true/);
  });

  test('with cert-manager as the provider: a Certificate and certManagement off', () => {
    const o = objectsOf(buildPlatform(platform({}, { platform: { certificates: CertificateProvider.certManager(), prerequisites: [CERT_MANAGER] } }).p), 'trainer');
    expect(o.named('Certificate', 'kubeflow-trainer-serving-cert').spec.dnsNames).toEqual(['kubeflow-trainer-controller-manager.kubeflow-system.svc', 'kubeflow-trainer-controller-manager.kubeflow-system.svc.cluster.local']);
    expect(o.named('ConfigMap', 'kubeflow-trainer-config').data['controller_manager_config.yaml']).toMatch(/certManagement:\n {2}enable: false/);
  });

  test('secure metrics on 8443 behind their own Service', () => {
    expect(named('Service', 'kubeflow-trainer-controller-manager-metrics').spec.ports).toEqual([{ name: 'metrics', port: 8443, targetPort: 'metrics', protocol: 'TCP' }]);
    expect(named('ClusterRole', 'kubeflow-trainer-controller-manager-metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });

  test('snapshot of the trainer output (CRD schemas as digests)', () => {
    expect(objects.length).toBeGreaterThan(20);
    expect(built.model.objects.filter((o) => o.component.componentName === 'trainer').map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
