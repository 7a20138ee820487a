import { App } from 'cdk8s';
import { JobSet, JobSetProps } from '../../../constructs/jobset';
import { CertificateProvider } from '../../../lib/certificates';
import { selectorOverlaps } from '../../../lib/checks';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform, PlatformProps } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { OpenDataHubPlatform } from '../../../platforms/opendatahub';
import { pinnable } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: JobSetProps = {}, platformProps: Partial<PlatformProps> = {}) {
  const p = new Platform(new App(), 'p', { name: 'jobset-only', certificates: CertificateProvider.selfManaged(), ...platformProps });
  const jobset = new JobSet(p, 'jobset', props);
  return { p, jobset };
}

const built = buildPlatform(platform().p);
/** Upstream's full selector (v0.12.0 config/default). */
const JOBSET_SELECTOR = { 'app.kubernetes.io/instance': 'jobset', 'app.kubernetes.io/managed-by': 'kustomize', 'app.kubernetes.io/name': 'jobset', 'control-plane': 'controller-manager' };
const { ofKind, named, container, can } = objectsOf(built);

describe('JobSet component', () => {
  test('JOBSET-SEL: the Deployment, webhook and metrics Services select upstream\'s full label set, which in Open Data Hub\'s shared namespace matches only JobSet\'s pods', () => {
    for (const name of ['jobset-webhook-service', 'jobset-metrics-service']) expect(named('Service', name).spec.selector).toEqual(JOBSET_SELECTOR);
    const odh = buildPlatform(new OpenDataHubPlatform(new App(), 'opendatahub'));
    const objects = odh.model.objects.map((o) => o.json);
    const pods = (o: any) => o.spec.template.metadata.labels;
    const workloads = objects.filter((o) => o.kind === 'Deployment' && o.metadata.namespace === 'opendatahub');
    // Several operators' pods carry kubebuilder's control-plane label...
    expect(workloads.filter((w) => pods(w)['control-plane'] === 'controller-manager').length).toBeGreaterThan(3);
    // ...but JobSet's Services and Deployment select only JobSet's.
    for (const sel of [...['jobset-webhook-service', 'jobset-metrics-service'].map((n) => objects.find((o) => o.kind === 'Service' && o.metadata.name === n).spec.selector),
      objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'jobset-controller-manager').spec.selector.matchLabels]) {
      const hits = workloads.filter((w) => Object.entries(sel as Record<string, string>).every(([k, v]) => pods(w)[k] === v));
      expect(hits.map((w) => w.metadata.name)).toEqual(['jobset-controller-manager']);
    }
    expect(selectorOverlaps(objects)).toEqual([]);
  });


  test('synthesizes alone (no requirements) with every check passing', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['jobset']);
    expect(built.model.components[0].requires).toEqual([]);
  });

  test('runs jobset-controller-manager in jobset-system from the v0.12.0 image with its Configuration', () => {
    const d = named('Deployment', 'jobset-controller-manager');
    expect(d.metadata.namespace).toBe('jobset-system');
    expect(d.spec.selector.matchLabels).toEqual(JOBSET_SELECTOR);
    const c = container('jobset-controller-manager');
    expect(c.image).toBe('registry.k8s.io/jobset/jobset:v0.12.0');
    expect(c.command).toEqual(['/manager']);
    expect(c.args.slice(0, 2)).toEqual(['--config=/controller_manager_config.yaml', '--zap-log-level=2']);
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '128Mi' }, limits: { memory: '4Gi' } });
    expect(c.ports).toEqual(expect.arrayContaining([{ name: 'webhook-server', containerPort: 9443, protocol: 'TCP' }, { name: 'health', containerPort: 8081, protocol: 'TCP' }]));
    expect(c.volumeMounts).toEqual(expect.arrayContaining([{ name: 'manager-config', mountPath: '/controller_manager_config.yaml', subPath: 'controller_manager_config.yaml', readOnly: true }]));
    const config = named('ConfigMap', 'jobset-manager-config').data['controller_manager_config.yaml'];
    expect(config).toContain('apiVersion: config.jobset.x-k8s.io/v1alpha1');
    expect(config).toContain('leaderElect: true');
  });

  test('ships both upstream webhook configurations: 2 mutating and 2 validating webhooks', () => {
    const m = named('MutatingWebhookConfiguration', 'jobset-mutating-webhook-configuration');
    const v = named('ValidatingWebhookConfiguration', 'jobset-validating-webhook-configuration');
    expect(m.webhooks.map((w: any) => [w.name, w.clientConfig.service.path, w.rules[0].operations])).toEqual([
      ['mjobset.kb.io', '/mutate-jobset-x-k8s-io-v1alpha2-jobset', ['CREATE']],
      ['mpod.kb.io', '/mutate--v1-pod', ['CREATE']],
    ]);
    expect(v.webhooks.map((w: any) => [w.name, w.clientConfig.service.path, w.rules[0].operations])).toEqual([
      ['vjobset.kb.io', '/validate-jobset-x-k8s-io-v1alpha2-jobset', ['CREATE', 'UPDATE']],
      ['vpod.kb.io', '/validate--v1-pod', ['CREATE']],
    ]);
    for (const w of [...m.webhooks, ...v.webhooks]) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'] });
      expect(w.clientConfig.service).toMatchObject({ name: 'jobset-webhook-service', namespace: 'jobset-system', port: 443 });
    }
    // The pod webhooks see only pods of JobSets.
    for (const w of [m.webhooks[1], v.webhooks[1]]) {
      expect(w.objectSelector).toEqual({ matchExpressions: [{ key: 'jobset.sigs.k8s.io/jobset-name', operator: 'Exists' }] });
      // Not upstream's: kube-system and jobset-system are left out (MLP053).
      expect(w.namespaceSelector).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['jobset-system', 'kube-system'] }] });
    }
  });

  test('the CRD converts through the webhook service at /convert', () => {
    const crd = named('CustomResourceDefinition', 'jobsets.jobset.x-k8s.io');
    expect(crd.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { name: 'jobset-webhook-service', namespace: 'jobset-system', path: '/convert', port: 443 } }, conversionReviewVersions: ['v1'] },
    });
  });

  test('RBAC: owns jobsets, manages Jobs and Services, deletes pods, reads nodes; the rotator patches only its own objects', () => {
    const role = 'jobset-controller-manager-role';
    expect(can('ClusterRole', role, 'jobset.x-k8s.io', 'jobsets', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'jobset.x-k8s.io', 'jobsets/status', 'update')).toBe(true);
    expect(can('ClusterRole', role, 'batch', 'jobs', 'delete')).toBe(true);
    expect(can('ClusterRole', role, 'batch', 'jobs/status', 'patch')).toBe(true);
    expect(can('ClusterRole', role, '', 'pods', 'delete')).toBe(true);
    expect(can('ClusterRole', role, '', 'pods', 'create')).toBe(false);
    expect(can('ClusterRole', role, '', 'nodes', 'list')).toBe(true);
    expect(can('ClusterRole', role, '', 'persistentvolumeclaims', 'create')).toBe(true);
    expect(can('ClusterRole', role, '', 'persistentvolumeclaims', 'delete')).toBe(false);
    expect(can('Role', role, 'coordination.k8s.io', 'leases', 'update')).toBe(true);
    // The certificate rotator patches only our configurations, CRD and Secret.
    expect(can('ClusterRole', role, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'update')).toBe(false);
    const rotator = 'jobset-controller-manager-cert-rotator';
    expect(can('ClusterRole', rotator, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'update', 'jobset-validating-webhook-configuration')).toBe(true);
    expect(can('ClusterRole', rotator, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'patch', 'jobset-mutating-webhook-configuration')).toBe(true);
    expect(can('ClusterRole', rotator, 'apiextensions.k8s.io', 'customresourcedefinitions', 'update', 'jobsets.jobset.x-k8s.io')).toBe(true);
    expect(can('ClusterRole', rotator, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'update', 'other')).toBe(false);
    expect(can('Role', rotator, '', 'secrets', 'update', 'jobset-webhook-server-cert')).toBe(true);
  });

  test('editor and viewer roles for users', () => {
    expect(can('ClusterRole', 'jobset-editor-role', 'jobset.x-k8s.io', 'jobsets', 'delete')).toBe(true);
    expect(can('ClusterRole', 'jobset-viewer-role', 'jobset.x-k8s.io', 'jobsets', 'delete')).toBe(false);
    expect(can('ClusterRole', 'jobset-viewer-role', 'jobset.x-k8s.io', 'jobsets/status', 'get')).toBe(true);
  });

  test('userRoles: false leaves the user roles out', () => {
    const b = buildPlatform(platform({ userRoles: false }).p);
    expect(objectsOf(b).ofKind('ClusterRole').map((r) => r.metadata.name)).not.toContain('jobset-editor-role');
  });

  test('namespace, replicas, resources and the image are typed props', () => {
    const b = buildPlatform(platform(
      { namespace: 'batch-system', replicas: 2, resources: { requests: { cpu: '1', memory: '1Gi' } } },
      { images: { registryMirror: 'mirror.example.com', overrides: { 'jobset/controller': { tag: 'v0.12.1' } } } },
    ).p);
    const d = objectsOf(b).named('Deployment', 'jobset-controller-manager');
    expect(d.metadata.namespace).toBe('batch-system');
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '1', memory: '1Gi' } });
    expect(d.spec.template.spec.containers[0].image).toBe('mirror.example.com/jobset/jobset:v0.12.1');
  });

  test('fails when replicas is not a whole number of at least 1', () => {
    expect(() => platform({ replicas: 0 })).toThrow('p/jobset: replicas 0 is not allowed; set a whole number >= 1 (leader election keeps one manager active)');
    expect(() => platform({ replicas: 1.5 })).toThrow('p/jobset: replicas 1.5 is not allowed; set a whole number >= 1 (leader election keeps one manager active)');
  });

  test('fails when the namespace is not a DNS label', () => {
    expect(() => platform({ namespace: 'Jobset' })).toThrow("p/jobset: namespace 'Jobset' is not a valid namespace name (lower-case DNS label, at most 63 characters)");
  });

  test('object counts', () => {
    const counts: Record<string, number> = {};
    for (const o of built.model.objects) counts[o.json.kind] = (counts[o.json.kind] ?? 0) + 1;
    expect(counts.CustomResourceDefinition).toBe(1);
    expect(ofKind('MutatingWebhookConfiguration').length + ofKind('ValidatingWebhookConfiguration').length).toBe(2);
  });

  test('self-managed certificate: an empty Secret, internal cert management on, caBundle left to the rotator', () => {
    expect(named('Secret', 'jobset-webhook-server-cert')).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'jobset-webhook-server-cert', namespace: 'jobset-system' } });
    expect(named('ConfigMap', 'jobset-manager-config').data['controller_manager_config.yaml']).toContain('internalCertManagement:\n  enable: true');
    expect(named('CustomResourceDefinition', 'jobsets.jobset.x-k8s.io').metadata.annotations?.['cert-manager.io/inject-ca-from']).toBeUndefined();
    expect(ofKind('Certificate')).toEqual([]);
    expect(built.model.objects.map((o) => o.json.metadata?.name)).toContain('jobset-controller-manager-cert-rotator');
  });

  test('with cert-manager as the provider: a Certificate, CA injection into CRD and webhooks, internal cert management off', () => {
    const b = buildPlatform(platform({}, { certificates: CertificateProvider.certManager(), prerequisites: [CERT_MANAGER] }).p);
    const o = objectsOf(b);
    expect(o.named('Certificate', 'jobset-serving-cert').spec.secretName).toBe('jobset-webhook-server-cert');
    expect(o.named('CustomResourceDefinition', 'jobsets.jobset.x-k8s.io').metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'jobset-system/jobset-serving-cert', 'mlplatform/minimum-kubernetes': '1.32', 'mlplatform/minimum-kubernetes-feature': expect.stringContaining('JobSet CRD') });
    expect(o.named('ValidatingWebhookConfiguration', 'jobset-validating-webhook-configuration').metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'jobset-system/jobset-serving-cert' });
    expect(o.named('ConfigMap', 'jobset-manager-config').data['controller_manager_config.yaml']).toContain('internalCertManagement:\n  enable: false');
    expect(o.ofKind('Secret')).toEqual([]);
  });

  test('secure metrics on 8443 behind jobset-metrics-service, with a metrics-reader role', () => {
    expect(named('Service', 'jobset-metrics-service').spec.ports).toEqual([{ name: 'metrics', port: 8443, targetPort: 'metrics', protocol: 'TCP' }]);
    expect(can('ClusterRole', 'jobset-controller-manager-metrics-reader', '', 'pods', 'get')).toBe(false);
    expect(named('ClusterRole', 'jobset-controller-manager-metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
    expect(can('ClusterRole', 'jobset-controller-manager-role', 'authentication.k8s.io', 'tokenreviews', 'create')).toBe(true);
  });

  test('snapshot of the whole output (CRD schemas as digests)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
