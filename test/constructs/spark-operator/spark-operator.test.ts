import { App } from 'cdk8s';
import { SparkOperator, SparkOperatorProps } from '../../../constructs/spark-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { Platform } from '../../../lib/platform';
import { allows } from '../../../lib/rbac';
import { build, pinnable } from '../../platforms/helpers';

/** Spark needs nothing else: not even cert-manager, since its webhook issues its own certificate. */
function platform(props: SparkOperatorProps = {}, certificates?: CertificateProvider) {
  const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'spark', certificates });
  return { platform: p, spark: new SparkOperator(p, 'spark-operator', props) };
}

const standard = build(() => platform().platform);
const objects = standard.model.objects.map((o) => o.json);
const find = (kind: string, name: string, namespace?: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name && (namespace === undefined || o.metadata.namespace === namespace));
const container = (name: string) => find('Deployment', name).spec.template.spec.containers[0];

describe('SparkOperator', () => {
  test('installs the three sparkoperator.k8s.io CRDs', () => {
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name)).toEqual([
      'scheduledsparkapplications.sparkoperator.k8s.io', 'sparkapplications.sparkoperator.k8s.io', 'sparkconnects.sparkoperator.k8s.io',
    ]);
  });

  test('runs the controller and the webhook as two Deployments of one image', () => {
    const controller = container('spark-operator-controller');
    const webhook = container('spark-operator-webhook');
    expect(controller.image).toBe('ghcr.io/kubeflow/spark-operator/controller:2.5.2');
    expect(webhook.image).toBe(controller.image);
    expect(controller.args.slice(0, 2)).toEqual(['controller', 'start']);
    expect(webhook.args.slice(0, 2)).toEqual(['webhook', 'start']);
    expect(find('Deployment', 'spark-operator-controller').spec.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': 'spark-operator', 'app.kubernetes.io/instance': 'spark-operator', 'app.kubernetes.io/component': 'controller',
    });
    expect(find('Deployment', 'spark-operator-webhook').spec.selector.matchLabels['app.kubernetes.io/component']).toBe('webhook');
    // Upstream's container names, which kubectl logs -c and users' patches refer to.
    expect([controller.name, webhook.name]).toEqual(['controller', 'webhook']);
  });

  test('controller flags: job namespaces, leader election lock, metrics, feature gates', () => {
    expect(container('spark-operator-controller').args).toEqual(expect.arrayContaining([
      '--namespaces=default',
      '--controller-threads=10',
      '--enable-ui-service=true',
      '--leader-election=true',
      '--leader-election-lock-name=spark-operator-controller-lock',
      '--leader-election-lock-namespace=spark-operator',
      '--metrics-bind-address=:8080',
      '--feature-gates=PartialRestart=false,LoadSparkDefaults=false',
      '--scheduled-spark-application-timestamp-precision=nanos',
    ]));
  });

  test('webhook flags name its secret, service and both configurations', () => {
    expect(container('spark-operator-webhook').args).toEqual(expect.arrayContaining([
      '--namespaces=default',
      '--webhook-secret-name=spark-operator-webhook-certs',
      '--webhook-secret-namespace=spark-operator',
      '--webhook-svc-name=spark-operator-webhook-svc',
      '--webhook-svc-namespace=spark-operator',
      '--webhook-port=9443',
      '--mutating-webhook-name=spark-operator-webhook',
      '--validating-webhook-name=spark-operator-webhook',
      '--leader-election-lock-name=spark-operator-webhook-lock',
    ]));
    expect(container('spark-operator-webhook').ports).toContainEqual({ name: 'webhook-server', containerPort: 9443, protocol: 'TCP' });
  });

  test('four mutating and three validating webhooks, failing closed, limited to the job namespaces', () => {
    const mutating = find('MutatingWebhookConfiguration', 'spark-operator-webhook');
    const validating = find('ValidatingWebhookConfiguration', 'spark-operator-webhook');
    expect(mutating.webhooks.map((w: any) => [w.name, w.clientConfig.service.path])).toEqual([
      ['mutate--v1-pod.sparkoperator.k8s.io', '/mutate--v1-pod'],
      ['mutate-sparkoperator-k8s-io-v1beta2-sparkapplication.sparkoperator.k8s.io', '/mutate-sparkoperator-k8s-io-v1beta2-sparkapplication'],
      ['mutate-sparkoperator-k8s-io-v1beta2-scheduledsparkapplication.sparkoperator.k8s.io', '/mutate-sparkoperator-k8s-io-v1beta2-scheduledsparkapplication'],
      ['mutate-sparkoperator-k8s-io-v1alpha1-sparkconnect.sparkoperator.k8s.io', '/mutate-sparkoperator-k8s-io-v1alpha1-sparkconnect'],
    ]);
    expect(validating.webhooks.map((w: any) => w.name)).toEqual([
      'validate-sparkoperator-k8s-io-v1beta2-sparkapplication.sparkoperator.k8s.io',
      'validate-sparkoperator-k8s-io-v1beta2-scheduledsparkapplication.sparkoperator.k8s.io',
      'validate-sparkoperator-k8s-io-v1alpha1-sparkconnect.sparkoperator.k8s.io',
    ]);
    for (const w of [...mutating.webhooks, ...validating.webhooks]) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', matchPolicy: 'Exact', timeoutSeconds: 10, admissionReviewVersions: ['v1'] });
      expect(w.clientConfig.service).toMatchObject({ name: 'spark-operator-webhook-svc', namespace: 'spark-operator', port: 443 });
      expect(w.namespaceSelector).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] });
    }
    for (const w of mutating.webhooks) expect(w.reinvocationPolicy).toBe('Never');
    expect(mutating.webhooks[0].objectSelector).toEqual({ matchLabels: { 'sparkoperator.k8s.io/launched-by-spark-operator': 'true' } });
    expect(mutating.webhooks[0].rules).toEqual([{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }]);
    expect(validating.webhooks[2].rules).toEqual([{ apiGroups: ['sparkoperator.k8s.io'], apiVersions: ['v1alpha1'], resources: ['sparkconnects'], operations: ['CREATE', 'UPDATE'] }]);
  });

  test('the webhook rotates its own certificate: an empty Secret, a writable cert dir, no cert-manager', () => {
    expect(find('Secret', 'spark-operator-webhook-certs', 'spark-operator')).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'spark-operator-webhook-certs', namespace: 'spark-operator' } });
    expect(objects.filter((o) => o.kind === 'Certificate' || o.kind === 'Issuer')).toEqual([]);
    const pod = find('Deployment', 'spark-operator-webhook').spec.template.spec;
    expect(pod.volumes).toEqual([{ name: 'webhook-cert', emptyDir: {} }]);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'webhook-cert', mountPath: '/etc/k8s-webhook-server/serving-certs' }]);
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) expect(find(kind, 'spark-operator-webhook').metadata.annotations).toBeUndefined();
    expect(standard.model.platform.prerequisites).toEqual([]);
  });

  test('the rotator may write only its Secret and patch only its two configurations', () => {
    const role = find('Role', 'spark-operator-webhook-cert-rotator', 'spark-operator');
    expect(allows(role.rules, '', 'secrets', 'update', 'spark-operator-webhook-certs')).toBe(true);
    expect(allows(role.rules, '', 'secrets', 'update', 'other')).toBe(false);
    const cluster = find('ClusterRole', 'spark-operator-webhook-cert-rotator');
    expect(allows(cluster.rules, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'update', 'spark-operator-webhook')).toBe(true);
    expect(allows(cluster.rules, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'update', 'kueue-validating-webhook-configuration')).toBe(false);
    // It creates the Secret again if someone deletes it.
    expect(allows(find('Role', 'spark-operator-webhook-role', 'spark-operator').rules, '', 'secrets', 'create')).toBe(true);
  });

  test('records the caBundle and Secret it changes at run time', () => {
    const { spark } = platform();
    expect(spark.webhookServer.runtimeChanges().map((c) => `${c.kind} ${c.name} ${c.jsonPointers.join(',')}`)).toEqual([
      'Secret spark-operator-webhook-certs /data',
      'ValidatingWebhookConfiguration spark-operator-webhook /webhooks/*/clientConfig/caBundle',
      'MutatingWebhookConfiguration spark-operator-webhook /webhooks/*/clientConfig/caBundle',
    ]);
  });

  test('stays self-managed whatever the platform provider', () => {
    for (const provider of [CertificateProvider.certManager(), CertificateProvider.openShiftServiceCa(), CertificateProvider.selfManaged()]) {
      expect(platform({}, provider).spark.webhookServer.selfManaged).toBe(true);
    }
  });

  test('metrics: plain HTTP on 8080 through a Service, with the reason recorded', () => {
    const { spark } = platform();
    for (const c of [spark.controller, spark.webhook]) {
      expect(c.metrics?.authenticated).toBe(false);
      expect(c.metrics?.reason).toMatch(/plain HTTP only/);
    }
    expect(container('spark-operator-controller').args).toEqual(expect.arrayContaining(['--enable-metrics=true', '--metrics-bind-address=:8080', '--metrics-labels=app_type']));
    expect(find('Service', 'spark-operator-controller-metrics-service').spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  test('the webhook Service selects the webhook pods only', () => {
    expect(find('Service', 'spark-operator-webhook-svc').spec.selector['app.kubernetes.io/component']).toBe('webhook');
  });

  test('controller RBAC: reconciles the Spark kinds, submits drivers, no wildcards', () => {
    const role = find('ClusterRole', 'spark-operator-controller-role');
    const triples: Array<[string, string, string]> = [
      ['sparkoperator.k8s.io', 'sparkapplications', 'create'], ['sparkoperator.k8s.io', 'scheduledsparkapplications/status', 'update'],
      ['sparkoperator.k8s.io', 'sparkconnects/finalizers', 'update'], ['', 'pods', 'create'], ['', 'services', 'patch'], ['', 'configmaps', 'create'],
      ['networking.k8s.io', 'ingresses', 'create'], ['apiextensions.k8s.io', 'customresourcedefinitions', 'get'], ['', 'events', 'create'],
    ];
    for (const [g, r, v] of triples) expect([g, r, v, allows(role.rules, g, r, v)]).toEqual([g, r, v, true]);
    expect(allows(role.rules, 'apiextensions.k8s.io', 'customresourcedefinitions', 'list')).toBe(false);
    // Its own kinds as v2.5.2's markers: no patch or update on them, status and finalizers
    // by update only; SparkApplications created and deleted (scheduled runs), the others not.
    const denied: Array<[string, string]> = [
      ['sparkapplications', 'patch'], ['sparkapplications', 'update'], ['scheduledsparkapplications', 'create'], ['scheduledsparkapplications', 'delete'],
      ['scheduledsparkapplications', 'update'], ['sparkconnects', 'create'], ['sparkconnects', 'delete'], ['sparkconnects', 'patch'],
      ['sparkapplications/status', 'patch'], ['sparkapplications/status', 'get'], ['sparkconnects/status', 'patch'], ['scheduledsparkapplications/status', 'get'],
    ];
    for (const [r, v] of denied) expect([r, v, allows(role.rules, 'sparkoperator.k8s.io', r, v)]).toEqual([r, v, false]);
    for (const r of ['sparkapplications', 'scheduledsparkapplications', 'sparkconnects']) {
      for (const v of ['get', 'list', 'watch']) expect([r, v, allows(role.rules, 'sparkoperator.k8s.io', r, v)]).toEqual([r, v, true]);
    }
    expect(allows(role.rules, 'sparkoperator.k8s.io', 'sparkapplications', 'delete')).toBe(true);
    for (const r of [...objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').flatMap((o) => o.rules)]) {
      expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
    }
  });

  test('webhook RBAC: reads quotas, pods and applications, writes nothing cluster-wide', () => {
    const role = find('ClusterRole', 'spark-operator-webhook-role');
    expect(allows(role.rules, '', 'resourcequotas', 'list')).toBe(true);
    expect(allows(role.rules, '', 'pods', 'watch')).toBe(true);
    expect(allows(role.rules, 'sparkoperator.k8s.io', 'scheduledsparkapplications', 'get')).toBe(true);
    expect(allows(role.rules, '', 'pods', 'create')).toBe(false);
  });

  test('drivers get a service account and Role in each job namespace', () => {
    expect(find('ServiceAccount', 'spark-operator-spark', 'default')).toBeDefined();
    const role = find('Role', 'spark-role', 'default');
    expect(allows(role.rules, '', 'pods', 'deletecollection')).toBe(true);
    expect(allows(role.rules, '', 'persistentvolumeclaims', 'create')).toBe(true);
    expect(find('RoleBinding', 'spark-role-binding', 'default').subjects).toEqual([{ kind: 'ServiceAccount', name: 'spark-operator-spark', namespace: 'default' }]);
  });

  test('editor and viewer roles for SparkApplication and ScheduledSparkApplication', () => {
    expect(objects.filter((o) => o.kind === 'ClusterRole' && /-(editor|viewer)-role$/.test(o.metadata.name)).map((o) => o.metadata.name)).toEqual([
      'sparkapplication-editor-role', 'sparkapplication-viewer-role', 'scheduledsparkapplication-editor-role', 'scheduledsparkapplication-viewer-role',
    ]);
  });

  test('more job namespaces: created when new, listed in flags and selectors', () => {
    const { spark } = platform({ jobNamespaces: ['default', 'spark-jobs'] });
    const out = spark.toJson();
    expect(out.filter((o: any) => o.kind === 'Namespace').map((o: any) => o.metadata.name)).toEqual(['spark-operator', 'spark-jobs']);
    expect(out.filter((o: any) => o.kind === 'Role' && o.metadata.name === 'spark-role').map((o: any) => o.metadata.namespace)).toEqual(['default', 'spark-jobs']);
    expect(spark.controller.deployment.toJson().spec.template.spec.containers[0].args).toContain('--namespaces=default,spark-jobs');
    const validating = out.find((o: any) => o.kind === 'ValidatingWebhookConfiguration');
    expect(validating.webhooks[0].namespaceSelector.matchExpressions[0].values).toEqual(['default', 'spark-jobs']);
  });

  test('all namespaces: no selector, an empty --namespaces, no driver accounts', () => {
    const { spark } = platform({ allNamespaces: true });
    const out = spark.toJson();
    expect(spark.jobNamespaces).toBeUndefined();
    expect(spark.webhook.deployment.toJson().spec.template.spec.containers[0].args).toContain('--namespaces=');
    for (const w of out.find((o: any) => o.kind === 'MutatingWebhookConfiguration').webhooks) expect(w.namespaceSelector).toBeUndefined();
    expect(out.filter((o: any) => o.metadata.name === 'spark-operator-spark')).toEqual([]);
  });

  test('one image for both workloads, overridable through the platform', () => {
    const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'spark', images: { overrides: { 'spark-operator/operator': { digest: `sha256:${'a'.repeat(64)}` } } } });
    const spark = new SparkOperator(p, 'spark-operator');
    for (const c of [spark.controller, spark.webhook]) {
      expect(c.deployment.toJson().spec.template.spec.containers[0].image).toBe(`ghcr.io/kubeflow/spark-operator/controller@sha256:${'a'.repeat(64)}`);
    }
  });

  test('resource quota enforcement is a webhook flag', () => {
    const { spark } = platform({ resourceQuotaEnforcement: true });
    expect(spark.webhook.deployment.toJson().spec.template.spec.containers[0].args).toContain('--enable-resource-quota-enforcement=true');
    expect(container('spark-operator-webhook').args).not.toContain('--enable-resource-quota-enforcement=true');
  });

  test('fails when jobNamespaces and allNamespaces are both set', () => {
    expect(() => platform({ jobNamespaces: ['default'], allNamespaces: true })).toThrow(
      'p/spark-operator: jobNamespaces [default] and allNamespaces: true exclude each other; drop jobNamespaces to watch every namespace, or drop allNamespaces');
  });

  test('fails when jobNamespaces is empty', () => {
    expect(() => platform({ jobNamespaces: [] })).toThrow(
      'p/spark-operator: jobNamespaces is empty; list the namespaces applications run in, or set allNamespaces: true');
  });

  test('fails when a job namespace is not a namespace name', () => {
    expect(() => platform({ jobNamespaces: ['Spark Jobs'] })).toThrow(
      "p/spark-operator: jobNamespaces: 'Spark Jobs' is not a namespace name; use lower-case DNS labels such as 'spark-jobs'");
  });

  test('fails when controllerThreads is not a positive whole number', () => {
    expect(() => platform({ controllerThreads: 0 })).toThrow('p/spark-operator: controllerThreads 0 must be a whole number >= 1');
  });

  test('fails when webhookReplicas is negative', () => {
    expect(() => platform({ webhookReplicas: -1 })).toThrow('p/spark-operator/Webhook: replicas -1 must be a whole number >= 0');
  });

  test('synthesizes alone with 0 findings and the same output twice', () => {
    const again = build(() => platform().platform);
    expect([...again.files.entries()]).toEqual([...standard.files.entries()]);
  });

  test('full output', () => {
    expect(standard.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
