import { App } from 'cdk8s';
import { parse } from 'yaml';
import {
  BUILTIN_INTEGRATIONS, Kueue, KUEUE_INTEGRATIONS, KueueIntegration, KueueProps, UPSTREAM_DEFAULT_INTEGRATIONS,
} from '../../../constructs/kueue';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER, Prerequisite } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { pinnable, problemsOf } from '../../platforms/helpers';

/** Kinds of the other components Kueue's integrations manage, declared present (those components are separate). */
const JOB_KINDS: Prerequisite = {
  name: 'job-operators',
  provides: [
    { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet' },
    ...['MPIJob', 'PaddleJob', 'PyTorchJob', 'TFJob', 'XGBoostJob', 'JAXJob'].map((kind) => ({ group: 'kubeflow.org', kind })),
    { group: 'trainer.kubeflow.org', kind: 'TrainJob' },
    ...['RayJob', 'RayCluster', 'RayService'].map((kind) => ({ group: 'ray.io', kind })),
    { group: 'workload.codeflare.dev', kind: 'AppWrapper' },
    { group: 'leaderworkerset.x-k8s.io', kind: 'LeaderWorkerSet' },
    { group: 'sparkoperator.k8s.io', kind: 'SparkApplication' },
  ],
};

function platform(props: KueueProps = {}, prerequisites: Prerequisite[] = [CERT_MANAGER, JOB_KINDS], certificates?: CertificateProvider): { platform: Platform; kueue: Kueue } {
  const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'p', prerequisites, certificates });
  return { platform: p, kueue: new Kueue(p, 'kueue', props) };
}

function objects(props: KueueProps = {}): any[] {
  return buildPlatform(platform(props).platform).model.objects.map((o) => o.json);
}

const find = (objs: any[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} (have ${objs.filter((x) => x.kind === kind).map((x) => x.metadata.name).join(', ')})`);
  return o;
};

const ALL = [...KUEUE_INTEGRATIONS];

describe('Kueue webhooks', () => {
  test('with every integration: the 21 mutating and 22 validating webhooks of v0.19.2, with upstream names and paths', () => {
    const objs = objects({ integrations: ALL });
    const m = find(objs, 'MutatingWebhookConfiguration', 'kueue-mutating-webhook-configuration');
    const v = find(objs, 'ValidatingWebhookConfiguration', 'kueue-validating-webhook-configuration');
    expect(m.webhooks.map((w: any) => `${w.name} ${w.clientConfig.service.path}`)).toEqual([
      'mappwrapper.kb.io /mutate-workload-codeflare-dev-v1beta2-appwrapper',
      'mclusterqueue.kb.io /mutate-kueue-x-k8s-io-v1beta2-clusterqueue',
      'mdeployment.kb.io /mutate-apps-v1-deployment',
      'mjaxjob.kb.io /mutate-kubeflow-org-v1-jaxjob',
      'mjob.kb.io /mutate-batch-v1-job',
      'mjobset.kb.io /mutate-jobset-x-k8s-io-v1alpha2-jobset',
      'mleaderworkerset.kb.io /mutate-leaderworkerset-x-k8s-io-v1-leaderworkerset',
      'mmpijob.kb.io /mutate-kubeflow-org-v2beta1-mpijob',
      'mpaddlejob.kb.io /mutate-kubeflow-org-v1-paddlejob',
      'mpod.kb.io /mutate--v1-pod',
      'mpytorchjob.kb.io /mutate-kubeflow-org-v1-pytorchjob',
      'mraycluster.kb.io /mutate-ray-io-v1-raycluster',
      'mrayjob.kb.io /mutate-ray-io-v1-rayjob',
      'mrayservice.kb.io /mutate-ray-io-v1-rayservice',
      'mresourceflavor.kb.io /mutate-kueue-x-k8s-io-v1beta2-resourceflavor',
      'msparkapplication.kb.io /mutate-sparkoperator-k8s-io-v1beta2-sparkapplication',
      'mstatefulset.kb.io /mutate-apps-v1-statefulset',
      'mtfjob.kb.io /mutate-kubeflow-org-v1-tfjob',
      'mtrainjob.kb.io /mutate-trainer-kubeflow-org-v1alpha1-trainjob',
      'mworkload.kb.io /mutate-kueue-x-k8s-io-v1beta2-workload',
      'mxgboostjob.kb.io /mutate-kubeflow-org-v1-xgboostjob',
    ]);
    expect(v.webhooks.map((w: any) => w.name)).toEqual([
      'vappwrapper.kb.io', 'vclusterqueue.kb.io', 'vcohort.kb.io', 'vdeployment.kb.io', 'vjaxjob.kb.io', 'vjob.kb.io', 'vjobset.kb.io',
      'vleaderworkerset.kb.io', 'vmpijob.kb.io', 'vpaddlejob.kb.io', 'vpod.kb.io', 'vpytorchjob.kb.io', 'vraycluster.kb.io', 'vrayjob.kb.io',
      'vrayservice.kb.io', 'vresourceflavor.kb.io', 'vsparkapplication.kb.io', 'vstatefulset.kb.io', 'vtfjob.kb.io', 'vtrainjob.kb.io',
      'vworkload.kb.io', 'vxgboostjob.kb.io',
    ]);
    for (const w of [...m.webhooks, ...v.webhooks]) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'] });
      expect(w.clientConfig.service).toMatchObject({ name: 'kueue-webhook-service', namespace: 'kueue-system', port: 443 });
    }
  });

  test('job webhooks skip kube-system and Kueue\'s namespace; Kueue\'s own kinds have no selector', () => {
    const objs = objects({ namespace: 'queues', integrations: ['batch/job'] });
    const m = find(objs, 'MutatingWebhookConfiguration', 'kueue-mutating-webhook-configuration');
    const job = m.webhooks.find((w: any) => w.name === 'mjob.kb.io');
    expect(job.namespaceSelector).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'queues'] }] });
    expect(job.rules).toEqual([{ apiGroups: ['batch'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['jobs'] }]);
    expect(m.webhooks.find((w: any) => w.name === 'mworkload.kb.io').namespaceSelector).toBeUndefined();
    const v = find(objs, 'ValidatingWebhookConfiguration', 'kueue-validating-webhook-configuration');
    expect(v.webhooks.find((w: any) => w.name === 'vworkload.kb.io').rules[0].resources).toEqual(['workloads', 'workloads/status']);
    expect(v.webhooks.find((w: any) => w.name === 'vjob.kb.io').rules[0].operations).toEqual(['CREATE', 'UPDATE']);
  });

  test('deployments, statefulsets and leaderworkersets are mutated on create and update', () => {
    const m = find(objects({ integrations: ALL }), 'MutatingWebhookConfiguration', 'kueue-mutating-webhook-configuration');
    for (const name of ['mdeployment.kb.io', 'mstatefulset.kb.io', 'mleaderworkerset.kb.io']) {
      expect(m.webhooks.find((w: any) => w.name === name).rules[0].operations).toEqual(['CREATE', 'UPDATE']);
    }
  });

  test('by default only the built-in integrations: 7 mutating and 8 validating webhooks', () => {
    const objs = objects();
    expect(find(objs, 'MutatingWebhookConfiguration', 'kueue-mutating-webhook-configuration').webhooks).toHaveLength(7);
    expect(find(objs, 'ValidatingWebhookConfiguration', 'kueue-validating-webhook-configuration').webhooks).toHaveLength(8);
  });

  test('the five conversion webhooks point at the webhook service', () => {
    const crds = objects().filter((o) => o.kind === 'CustomResourceDefinition');
    expect(crds).toHaveLength(11);
    const converted = crds.filter((c) => c.spec.conversion?.strategy === 'Webhook');
    expect(converted.map((c) => c.metadata.name).sort()).toEqual([
      'clusterqueues.kueue.x-k8s.io', 'cohorts.kueue.x-k8s.io', 'localqueues.kueue.x-k8s.io', 'multikueueclusters.kueue.x-k8s.io', 'workloads.kueue.x-k8s.io',
    ]);
    for (const c of converted) {
      expect(c.spec.conversion.webhook).toMatchObject({ clientConfig: { service: { name: 'kueue-webhook-service', namespace: 'kueue-system', path: '/convert', port: 443 } }, conversionReviewVersions: ['v1'] });
    }
  });
});

describe('Kueue webhook certificate', () => {
  test('self-managed: Kueue rotates its own certificate (internalCertManagement on), no cert-manager objects', () => {
    const { platform: p, kueue } = platform({}, [JOB_KINDS], CertificateProvider.selfManaged());
    expect(kueue.webhookServer.selfManaged).toBe(true);
    const b = buildPlatform(p);
    const objs = b.model.objects.map((o) => o.json);
    expect(objs.filter((o) => o.apiVersion.startsWith('cert-manager.io/'))).toEqual([]);
    expect(find(objs, 'Secret', 'kueue-webhook-server-cert').metadata.namespace).toBe('kueue-system');
    expect(find(objs, 'ConfigMap', 'kueue-manager-config').data['controller_manager_config.yaml']).toContain(
      'internalCertManagement:\n  enable: true\n  webhookServiceName: kueue-webhook-service\n  webhookSecretName: kueue-webhook-server-cert\n',
    );
    const rotator = find(objs, 'ClusterRole', 'kueue-controller-manager-cert-rotator');
    const named = (resource: string) => rotator.rules.find((r: any) => r.resources.includes(resource) && r.resourceNames)?.resourceNames;
    expect(named('mutatingwebhookconfigurations')).toEqual(['kueue-mutating-webhook-configuration']);
    expect(named('validatingwebhookconfigurations')).toEqual(['kueue-validating-webhook-configuration']);
    expect(named('customresourcedefinitions')).toEqual([
      'clusterqueues.kueue.x-k8s.io', 'cohorts.kueue.x-k8s.io', 'localqueues.kueue.x-k8s.io', 'multikueueclusters.kueue.x-k8s.io', 'workloads.kueue.x-k8s.io',
    ]);
    expect(kueue.webhookServer.runtimeChanges().map((c) => `${c.kind} ${c.name}`)).toEqual(expect.arrayContaining([
      'Secret kueue-webhook-server-cert', 'MutatingWebhookConfiguration kueue-mutating-webhook-configuration', 'CustomResourceDefinition workloads.kueue.x-k8s.io',
    ]));
  });

  test('cert-manager: a Certificate for the webhook Service, CA injected, internalCertManagement off', () => {
    const { kueue, platform: p } = platform();
    expect(kueue.webhookServer.selfManaged).toBe(false);
    const objs = buildPlatform(p).model.objects.map((o) => o.json);
    expect(find(objs, 'Certificate', 'kueue-serving-cert').spec.secretName).toBe('kueue-webhook-server-cert');
    expect(find(objs, 'MutatingWebhookConfiguration', 'kueue-mutating-webhook-configuration').metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'kueue-system/kueue-serving-cert' });
    expect(find(objs, 'CustomResourceDefinition', 'workloads.kueue.x-k8s.io').metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kueue-system/kueue-serving-cert');
    expect(find(objs, 'ConfigMap', 'kueue-manager-config').data['controller_manager_config.yaml']).toContain('internalCertManagement:\n  enable: false\n');
  });
});

describe('Kueue requirements follow the integrations', () => {
  test('built-in integrations require nothing', () => {
    expect(platform().kueue.requires).toEqual([]);
  });

  test('each integration of another component requires its kind and version, without naming a provider class yet', () => {
    const reqs = platform({ integrations: ALL }).kueue.requires;
    expect(reqs.map((r) => `${r.group}/${r.version} ${r.kind}`)).toEqual([
      'jobset.x-k8s.io/v1alpha2 JobSet', 'kubeflow.org/v2beta1 MPIJob', 'kubeflow.org/v1 PaddleJob', 'kubeflow.org/v1 PyTorchJob', 'kubeflow.org/v1 TFJob',
      'kubeflow.org/v1 XGBoostJob', 'kubeflow.org/v1 JAXJob', 'trainer.kubeflow.org/v1alpha1 TrainJob', 'ray.io/v1 RayJob', 'ray.io/v1 RayCluster',
      'ray.io/v1 RayService', 'workload.codeflare.dev/v1beta2 AppWrapper', 'leaderworkerset.x-k8s.io/v1 LeaderWorkerSet', 'sparkoperator.k8s.io/v1beta2 SparkApplication',
    ]);
    for (const r of reqs) expect(r.providedBy).toBeUndefined();
  });

  test('fails at synth when an enabled integration\'s kind has no provider in the platform', () => {
    const { platform: p } = platform({ integrations: ['batch/job', 'ray.io/rayjob'] }, [CERT_MANAGER]);
    expect(problemsOf(() => buildPlatform(p))).toEqual([
      "p/kueue: component 'kueue' (Kueue) requires ray.io/RayJob (the 'ray.io/rayjob' integration is enabled: Kueue's webhooks and controller manage ray.io/v1 RayJobs (provided by KubeRay)), " +
        "but no component of platform 'p' provides it and no prerequisite declares it; add a component that provides it, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'ray.io', kind: 'RayJob' }] }]",
    ]);
  });

  test('upstream\'s default list is exported and valid', () => {
    expect(UPSTREAM_DEFAULT_INTEGRATIONS).toHaveLength(12);
    expect(() => platform({ integrations: [...UPSTREAM_DEFAULT_INTEGRATIONS] })).not.toThrow();
    expect(BUILTIN_INTEGRATIONS).toEqual(['batch/job', 'pod', 'deployment', 'statefulset']);
  });
});

describe('Kueue manager', () => {
  test('image, args, ports, probes, resources and the configuration mount', () => {
    const d = find(objects({ featureGates: { TopologyAwareScheduling: true, LocalQueueMetrics: false } }), 'Deployment', 'kueue-controller-manager');
    expect(d.spec.selector.matchLabels).toEqual({ 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'kueue' });
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('registry.k8s.io/kueue/kueue:v0.19.2');
    expect(c.command).toEqual(['/manager']);
    expect(c.args.slice(0, 3)).toEqual(['--config=/controller_manager_config.yaml', '--zap-log-level=2', '--feature-gates=LocalQueueMetrics=false,TopologyAwareScheduling=true']);
    expect(c.ports.map((p: any) => `${p.name}:${p.containerPort}`)).toEqual(['health:8081', 'https:8443', 'webhook-server:9443', 'visibility:8082']);
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '2', memory: '512Mi' } });
    expect(c.volumeMounts).toEqual(expect.arrayContaining([{ name: 'manager-config', mountPath: '/controller_manager_config.yaml', subPath: 'controller_manager_config.yaml' }]));
    expect(d.spec.template.spec.volumes).toEqual(expect.arrayContaining([{ name: 'manager-config', configMap: { name: 'kueue-manager-config' } }]));
    expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  });

  test('KUEUE-VIS: the read-only manager has a writable emptyDir at /visibility, where the visibility server writes its certificate', () => {
    const d = find(objects(), 'Deployment', 'kueue-controller-manager');
    const c = d.spec.template.spec.containers[0];
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    const mount = c.volumeMounts.find((m: any) => m.mountPath === '/visibility');
    expect(mount).toEqual({ name: 'visibility', mountPath: '/visibility' });
    expect(d.spec.template.spec.volumes).toContainEqual({ name: 'visibility', emptyDir: {} });
  });

  test('secure metrics behind upstream\'s metrics Service', () => {
    const objs = objects();
    const svc = find(objs, 'Service', 'kueue-controller-manager-metrics-service');
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    expect(find(objs, 'ClusterRole', 'kueue-controller-manager-metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
    const role = find(objs, 'ClusterRole', 'kueue-controller-manager-role');
    expect(role.rules).toEqual(expect.arrayContaining([{ apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] }]));
  });

  test('the image follows the platform\'s overrides', () => {
    const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], images: { registryMirror: 'mirror.example.com', overrides: { 'kueue/controller': { tag: 'v0.19.3' } } } });
    const k = new Kueue(p, 'kueue');
    expect(k.image('controller')).toBe('mirror.example.com/kueue/kueue:v0.19.3');
  });

  test('RBAC: no wildcard, Kueue\'s kinds, the job kinds of enabled integrations only, namespaced secrets and leases', () => {
    const objs = objects({ integrations: ['batch/job', 'ray.io/rayjob'] });
    const role = find(objs, 'ClusterRole', 'kueue-controller-manager-role');
    const text = JSON.stringify(role.rules);
    expect(text).not.toContain('"*"');
    const has = (group: string, resource: string, verbs: string[]) =>
      role.rules.some((r: any) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && verbs.every((v) => r.verbs.includes(v)));
    expect(has('kueue.x-k8s.io', 'workloads', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'])).toBe(true);
    expect(has('kueue.x-k8s.io', 'clusterqueues', ['get', 'list', 'update', 'watch'])).toBe(true);
    expect(has('kueue.x-k8s.io', 'clusterqueues', ['create'])).toBe(false);
    expect(has('batch', 'jobs', ['delete', 'get', 'list', 'patch', 'update', 'watch'])).toBe(true);
    expect(has('ray.io', 'rayjobs', ['get', 'list', 'watch'])).toBe(true);
    expect(has('ray.io', 'rayclusters', ['get'])).toBe(false);
    expect(has('kubeflow.org', 'pytorchjobs', ['get'])).toBe(false);
    expect(has('', 'pods', ['get', 'list', 'watch', 'patch', 'update', 'delete'])).toBe(true);
    const ns = find(objs, 'Role', 'kueue-controller-manager-role');
    const nsHas = (group: string, resource: string, verbs: string[]) =>
      ns.rules.some((r: any) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && verbs.every((v) => r.verbs.includes(v)));
    expect(nsHas('', 'secrets', ['get', 'list', 'update', 'watch'])).toBe(true);
    expect(nsHas('coordination.k8s.io', 'leases', ['create', 'get', 'update'])).toBe(true);
    expect(nsHas('', 'configmaps', ['create', 'get', 'update'])).toBe(true);
  });

  test('the watches cover the enabled job kinds', () => {
    const { kueue } = platform({ integrations: ['batch/job', 'trainer.kubeflow.org/trainjob'] });
    expect(kueue.controller.watches).toEqual(expect.arrayContaining([
      { group: 'batch', resource: 'jobs' },
      { group: 'trainer.kubeflow.org', resource: 'trainjobs' },
      { group: 'trainer.kubeflow.org', resource: 'clustertrainingruntimes' },
      { group: 'kueue.x-k8s.io', resource: 'clusterqueues' },
    ]));
  });
});

describe('Kueue manager configuration', () => {
  test('controller_manager_config.yaml, rendered in a fixed order', () => {
    const cm = find(objects({ integrations: ['batch/job', 'pod', 'statefulset', 'jobset.x-k8s.io/jobset'] }), 'ConfigMap', 'kueue-manager-config');
    expect(cm.data['controller_manager_config.yaml']).toBe([
      'apiVersion: config.kueue.x-k8s.io/v1beta2',
      'kind: Configuration',
      'namespace: kueue-system',
      'health:',
      '  healthProbeBindAddress: :8081',
      'metrics:',
      '  bindAddress: :8443',
      'webhook:',
      '  port: 9443',
      'leaderElection:',
      '  leaderElect: true',
      '  resourceName: c1f6bfd2.kueue.x-k8s.io',
      'controller:',
      '  groupKindConcurrency:',
      '    Job.batch: 5',
      '    Pod: 5',
      '    Workload.kueue.x-k8s.io: 10',
      '    LocalQueue.kueue.x-k8s.io: 5',
      '    Cohort.kueue.x-k8s.io: 1',
      '    ClusterQueue.kueue.x-k8s.io: 5',
      '    ResourceFlavor.kueue.x-k8s.io: 1',
      'clientConnection:',
      '  qps: 300',
      '  burst: 500',
      'internalCertManagement:',
      '  enable: false',
      'manageJobsWithoutQueueName: false',
      'integrations:',
      '  frameworks:',
      '    - batch/job',
      '    - pod',
      '    - statefulset',
      '    - jobset.x-k8s.io/jobset',
      '',
    ].join('\n'));
  });

  test('typed settings and extra fields', () => {
    const cm = find(objects({
      config: {
        clientConnection: { qps: 100, burst: 200 },
        manageJobsWithoutQueueName: true,
        managedJobsNamespaceSelector: { matchLabels: { 'kueue.example.com/managed': 'true' } },
        waitForPodsReady: { timeout: '5m', blockAdmission: true, requeuingStrategy: { timestamp: 'Creation', backoffLimitCount: 5 } },
        fairSharing: { preemptionStrategies: ['LessThanOrEqualToFinalShare', 'LessThanInitialShare'] },
        extra: { objectRetentionPolicies: { workloads: { afterFinished: '1h' } } },
      },
    }), 'ConfigMap', 'kueue-manager-config');
    const text = cm.data['controller_manager_config.yaml'];
    expect(text).toContain('clientConnection:\n  qps: 100\n  burst: 200\n');
    expect(text).toContain('manageJobsWithoutQueueName: true\nmanagedJobsNamespaceSelector:\n  matchLabels:\n    kueue.example.com/managed: "true"\n');
    expect(text).toContain([
      'waitForPodsReady:', '  timeout: 5m', '  blockAdmission: true', '  requeuingStrategy:', '    timestamp: Creation', '    backoffLimitCount: 5',
      'fairSharing:', '  preemptionStrategies:', '    - LessThanOrEqualToFinalShare', '    - LessThanInitialShare', 'integrations:',
    ].join('\n'));
    expect(text.endsWith('objectRetentionPolicies:\n  workloads:\n    afterFinished: 1h\n')).toBe(true);
  });
});

describe('Kueue manager configuration, as v0.19.2 reads it at start', () => {
  test('reconcile concurrency per kind is upstream\'s (controller.groupKindConcurrency)', () => {
    const text = find(objects(), 'ConfigMap', 'kueue-manager-config').data['controller_manager_config.yaml'];
    expect(parse(text).controller).toEqual({
      groupKindConcurrency: {
        'Job.batch': 5,
        'Pod': 5,
        'Workload.kueue.x-k8s.io': 10,
        'LocalQueue.kueue.x-k8s.io': 5,
        'Cohort.kueue.x-k8s.io': 1,
        'ClusterQueue.kueue.x-k8s.io': 5,
        'ResourceFlavor.kueue.x-k8s.io': 1,
      },
    });
  });
});

describe('Kueue visibility API and user roles', () => {
  test('two APIServices on the manager\'s visibility Service, and the auth-reader RoleBinding in kube-system', () => {
    const objs = objects();
    for (const version of ['v1beta1', 'v1beta2']) {
      expect(find(objs, 'APIService', `${version}.visibility.kueue.x-k8s.io`).spec).toEqual({
        group: 'visibility.kueue.x-k8s.io',
        version,
        groupPriorityMinimum: 100,
        versionPriority: 100,
        insecureSkipTLSVerify: true,
        service: { name: 'kueue-visibility-server', namespace: 'kueue-system' },
      });
    }
    const svc = find(objs, 'Service', 'kueue-visibility-server');
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 8082, protocol: 'TCP' }]);
    expect(svc.spec.selector).toEqual({ 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'kueue' });
    const rb = find(objs, 'RoleBinding', 'kueue-visibility-server-auth-reader');
    expect(rb.metadata.namespace).toBe('kube-system');
    expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' });
    expect(rb.subjects).toEqual([{ kind: 'ServiceAccount', name: 'kueue-controller-manager', namespace: 'kueue-system' }]);
  });

  test('visibility: false leaves the API out', () => {
    expect(objects({ visibility: false }).filter((o) => o.kind === 'APIService')).toEqual([]);
  });

  test('batch-admin and batch-user aggregate the editor and viewer roles', () => {
    const objs = objects({ integrations: ['batch/job', 'pod', 'ray.io/raycluster'] });
    expect(find(objs, 'ClusterRole', 'kueue-batch-admin-role').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.kueue.x-k8s.io/batch-admin': 'true' } }] });
    expect(find(objs, 'ClusterRole', 'kueue-batch-user-role').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.kueue.x-k8s.io/batch-user': 'true' } }] });
    const names = objs.filter((o) => o.kind === 'ClusterRole' && /-(editor|viewer)-role$/.test(o.metadata.name)).map((o) => o.metadata.name).sort();
    expect(names).toEqual([
      'kueue-clusterqueue-editor-role', 'kueue-clusterqueue-viewer-role', 'kueue-cohort-editor-role', 'kueue-cohort-viewer-role',
      'kueue-job-editor-role', 'kueue-job-viewer-role', 'kueue-localqueue-editor-role', 'kueue-localqueue-viewer-role',
      'kueue-pending-workloads-cq-viewer-role', 'kueue-pending-workloads-lq-viewer-role',
      'kueue-raycluster-editor-role', 'kueue-raycluster-viewer-role', 'kueue-resourceflavor-editor-role', 'kueue-resourceflavor-viewer-role',
      'kueue-topology-editor-role', 'kueue-topology-viewer-role', 'kueue-workload-editor-role', 'kueue-workload-viewer-role',
    ]);
    expect(find(objs, 'ClusterRole', 'kueue-job-viewer-role').metadata.labels).toEqual({
      'rbac.kueue.x-k8s.io/role': 'job-viewer',
      'rbac.kueue.x-k8s.io/batch-admin': 'true',
      'rbac.kueue.x-k8s.io/batch-user': 'true',
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
    });
    expect(find(objs, 'ClusterRole', 'kueue-raycluster-viewer-role').metadata.labels['rbac.kueue.x-k8s.io/batch-user']).toBeUndefined();
    expect(find(objs, 'ClusterRole', 'kueue-clusterqueue-viewer-role').metadata.labels).toEqual({
      'rbac.kueue.x-k8s.io/role': 'clusterqueue-viewer', 'rbac.kueue.x-k8s.io/batch-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
    });
    expect(find(objs, 'ClusterRole', 'kueue-job-editor-role').rules).toEqual([
      { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
      { apiGroups: ['batch'], resources: ['jobs/status'], verbs: ['get'] },
    ]);
  });
});

describe('Kueue default queues', () => {
  function queues(make: (k: Kueue) => void): string[] {
    const { platform: p, kueue } = platform();
    make(kueue);
    return problemsOf(() => buildPlatform(p));
  }
  const quota = (flavor: string) => ({
    namespaceSelector: {},
    resourceGroups: [{ coveredResources: ['cpu', 'memory'], flavors: [{ name: flavor, resources: [{ name: 'cpu', nominalQuota: 9 }, { name: 'memory', nominalQuota: '36Gi' }] }] }],
  });

  test('a flavor, a cluster queue and a local queue, applied after the CRDs, validated against them', () => {
    const { platform: p, kueue } = platform();
    kueue.addResourceFlavor('default-flavor');
    const cq = kueue.addClusterQueue('cluster-queue', { spec: quota('default-flavor') });
    kueue.addLocalQueue('user-queue', { namespace: 'default', clusterQueue: cq });
    const b = buildPlatform(p);
    const crs = b.model.objects.filter((o) => o.json.apiVersion === 'kueue.x-k8s.io/v1beta2');
    expect(crs.map((o) => `${o.phase} ${o.json.kind} ${o.json.metadata.name}`)).toEqual([
      '30-resources ResourceFlavor default-flavor', '30-resources ClusterQueue cluster-queue', '30-resources LocalQueue user-queue',
    ]);
    expect(crs[2].json.metadata.namespace).toBe('default');
    expect(crs[2].json.spec).toEqual({ clusterQueue: 'cluster-queue' });
  });

  test('fails when a cluster queue names a flavor the platform lacks, naming both', () => {
    expect(queues((k) => {
      k.addResourceFlavor('spot');
      k.addClusterQueue('cq', { spec: quota('on-demand') });
    })).toEqual([
      "p/kueue/ClusterQueue-cq: ClusterQueue 'cq' gives quota for ResourceFlavor 'on-demand', which is not in the platform; add it with addResourceFlavor('on-demand') or fix the name (flavors: spot)",
    ]);
  });

  test('fails when a local queue names a cluster queue the platform lacks, naming both', () => {
    expect(queues((k) => k.addLocalQueue('lq', { namespace: 'default', clusterQueue: 'main' }))).toEqual([
      "p/kueue/LocalQueue-lq: LocalQueue 'default/lq' submits to ClusterQueue 'main', which is not in the platform; add it with addClusterQueue('main', ...) or fix the name (cluster queues: none)",
    ]);
  });

  test('fails when a queue breaks a CEL rule of its CRD (checked at synth)', () => {
    const problems = queues((k) => {
      k.addResourceFlavor('f');
      k.addClusterQueue('cq', { spec: { resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: 1, borrowingLimit: 1 }] }] }] } });
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\[MLP002\] p\/kueue\/ClusterQueue-cq: ClusterQueue cq: .*borrowingLimit needs a cohort/);
  });
});

describe('Kueue props', () => {
  const fails = (props: KueueProps) => () => platform(props);

  test('fails when an integration is unknown', () => {
    expect(fails({ integrations: ['batch/job', 'kubeflow.org/mxjob' as KueueIntegration] })).toThrow(
      `p/kueue: integrations: 'kubeflow.org/mxjob' is not a job integration of Kueue v0.19.2; choose from ${KUEUE_INTEGRATIONS.join(', ')}`,
    );
  });

  test('fails when an integration is listed twice', () => {
    expect(fails({ integrations: ['batch/job', 'batch/job'] })).toThrow("p/kueue: integrations: 'batch/job' is listed twice; list each integration once");
  });

  test('fails when no integration is enabled', () => {
    expect(fails({ integrations: [] })).toThrow("p/kueue: integrations: the list is empty; enable at least one job integration (e.g. 'batch/job')");
  });

  test('fails when deployment, statefulset or leaderworkerset is enabled without pod', () => {
    expect(fails({ integrations: ['batch/job', 'deployment'] })).toThrow(
      "p/kueue: integrations: 'deployment' needs 'pod' enabled as well (Kueue manages its pods through the pod integration); add 'pod'",
    );
  });

  test('fails when client rate limits are not positive or burst is below qps', () => {
    expect(fails({ config: { clientConnection: { qps: 0 } } })).toThrow('p/kueue: config.clientConnection.qps: 0 must be a whole number > 0');
    expect(fails({ config: { clientConnection: { qps: 400, burst: 300 } } })).toThrow('p/kueue: config.clientConnection.burst: 300 is below qps 400; burst must be at least qps');
  });

  test('fails when extra sets a field the component manages', () => {
    expect(fails({ config: { extra: { integrations: {} } } })).toThrow(
      "p/kueue: config.extra.integrations: the component sets 'integrations' itself; use the typed prop (or the component's props) instead",
    );
  });

  test('fails when a waitForPodsReady duration or backoff is malformed', () => {
    expect(fails({ config: { waitForPodsReady: { timeout: '5 minutes' } } })).toThrow("p/kueue: config.waitForPodsReady.timeout: '5 minutes' is not a duration; write it like 5m, 1h30m or 90s");
    expect(fails({ config: { waitForPodsReady: { timeout: '5m', requeuingStrategy: { backoffLimitCount: -1 } } } })).toThrow(
      'p/kueue: config.waitForPodsReady.requeuingStrategy.backoffLimitCount: -1 must be a whole number >= 0',
    );
  });

  test('fails when fair sharing lists no strategy or one twice', () => {
    expect(fails({ config: { fairSharing: { preemptionStrategies: [] } } })).toThrow(
      'p/kueue: config.fairSharing.preemptionStrategies: [] must list one or both of LessThanOrEqualToFinalShare, LessThanInitialShare, each once',
    );
  });

  test('fails when a feature gate name is malformed', () => {
    expect(fails({ featureGates: { 'topology-aware': true } })).toThrow("p/kueue: featureGates: 'topology-aware' is not a feature gate name (UpperCamelCase, e.g. TopologyAwareScheduling)");
  });

  test('fails when the managed namespaces include kube-system with the pod integration on', () => {
    expect(fails({ config: { managedJobsNamespaceSelector: {} } })).toThrow(
      "p/kueue: config.managedJobsNamespaceSelector selects namespace 'kube-system' while the pod integration is on: Kueue would gate its own and the system's pods; exclude it (kubernetes.io/metadata.name NotIn [kube-system, kueue-system])",
    );
  });

  test('fails when replicas is negative (more than one is fine: leader election is always on)', () => {
    expect(() => platform({ replicas: 2 })).not.toThrow();
    expect(fails({ replicas: -1 })).toThrow('p/kueue/ControllerManager: replicas -1 must be a whole number >= 0');
  });
});

describe('Kueue alone', () => {
  test('synthesizes in a platform with only its requirements, with 0 findings', () => {
    const { platform: p, kueue } = platform({}, [CERT_MANAGER]);
    kueue.addResourceFlavor('default-flavor');
    kueue.addClusterQueue('cluster-queue', { spec: { namespaceSelector: {}, resourceGroups: [{ coveredResources: ['cpu', 'memory'], flavors: [{ name: 'default-flavor', resources: [{ name: 'cpu', nominalQuota: 9 }, { name: 'memory', nominalQuota: '36Gi' }] }] }] } });
    kueue.addLocalQueue('user-queue', { namespace: 'default', clusterQueue: 'cluster-queue' });
    const b = buildPlatform(p);
    expect([...b.files.keys()]).toEqual([
      '00-foundation/00-namespaces.yaml', '00-foundation/kueue.yaml', '10-controllers/kueue.yaml', '20-webhooks/kueue.yaml', '30-resources/kueue.yaml', 'REPORT.md', 'kustomization.yaml',
    ]);
    expect(b.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });

  test('synthesizes with every integration when their kinds are present', () => {
    const b = buildPlatform(platform({ integrations: ALL }).platform);
    expect(b.model.objects.length).toBeGreaterThan(0);
  });
});
