import { App } from 'cdk8s';
import { KubeRay, KubeRayProps } from '../../../constructs/kuberay';
import { SparkOperator } from '../../../constructs/spark-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { allows } from '../../../lib/rbac';
import { buildPlatform } from '../../../lib/synth';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

/** A platform with KubeRay and only what it needs: cert-manager only for the webhook certificate. */
function platform(props: KubeRayProps = {}) {
  const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'kuberay', prerequisites: props.webhooks ? [CERT_MANAGER] : [] });
  return { platform: p, kuberay: new KubeRay(p, 'kuberay', props) };
}

const plain = build(() => platform().platform);
const withWebhooks = build(() => platform({ webhooks: true }).platform);
const objectsOf = (b: typeof plain) => b.model.objects.map((o) => o.json);
const find = (b: typeof plain, kind: string, name: string) => objectsOf(b).find((o) => o.kind === kind && o.metadata.name === name);

describe('KubeRay', () => {
  test('installs the four ray.io CRDs', () => {
    expect(objectsOf(plain).filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name)).toEqual([
      'rayclusters.ray.io', 'raycronjobs.ray.io', 'rayjobs.ray.io', 'rayservices.ray.io',
    ]);
    expect(plain.largeCrds.sort()).toEqual(['rayclusters.ray.io', 'rayjobs.ray.io', 'rayservices.ray.io']);
  });

  test('runs the operator image of v1.7.0 in ray-system with upstream flags and feature gates', () => {
    const d = find(plain, 'Deployment', 'kuberay-operator');
    expect(d.metadata.namespace).toBe('ray-system');
    const c = d.spec.template.spec.containers[0];
    // Upstream's container name, which kubectl logs -c and users' patches refer to.
    expect(c.name).toBe('kuberay-operator');
    expect(c.image).toBe('quay.io/kuberay/operator:v1.7.0');
    expect(c.command).toEqual(['/manager']);
    expect(c.args).toEqual(expect.arrayContaining(['--feature-gates=RayClusterStatusConditions=true,RayCronJob=true', '--metrics-addr=:8080', '--health-probe-bind-address=:8082']));
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '100m', memory: '512Mi' } });
    expect(c.env.map((e: any) => e.name)).not.toContain('ENABLE_WEBHOOKS');
    expect(c.ports).toContainEqual({ name: 'health', containerPort: 8082, protocol: 'TCP' });
    expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
  });

  test('leader election uses its own lease, in its own namespace', () => {
    const role = objectsOf(plain).find((o) => o.kind === 'Role' && o.metadata.namespace === 'ray-system');
    expect(allows(role.rules, 'coordination.k8s.io', 'leases', 'update')).toBe(true);
  });

  test('RBAC grants what the operator reconciles and creates, without wildcards', () => {
    const role = objectsOf(plain).find((o) => o.kind === 'ClusterRole' && o.metadata.name === 'kuberay-operator-role');
    const triples: Array<[string, string, string]> = [
      ['ray.io', 'rayclusters', 'create'], ['ray.io', 'raycronjobs', 'watch'], ['ray.io', 'rayjobs/status', 'patch'], ['ray.io', 'rayservices/finalizers', 'update'],
      ['', 'pods', 'deletecollection'], ['', 'pods/resize', 'patch'], ['', 'services/proxy', 'create'], ['batch', 'jobs', 'create'],
      ['networking.k8s.io', 'networkpolicies', 'create'], ['route.openshift.io', 'routes', 'create'], ['gateway.networking.k8s.io', 'httproutes', 'create'],
      ['cert-manager.io', 'certificates', 'create'], ['discovery.k8s.io', 'endpointslices', 'watch'], ['events.k8s.io', 'events', 'create'],
    ];
    for (const [g, r, v] of triples) expect([g, r, v, allows(role.rules, g, r, v)]).toEqual([g, r, v, true]);
    expect(allows(role.rules, '', 'secrets', 'patch')).toBe(false);
    expect(allows(role.rules, 'rbac.authorization.k8s.io', 'rolebindings', 'update')).toBe(false);
    for (const r of role.rules) expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
  });

  test('editor and viewer roles for RayJob, RayService and RayCronJob, as upstream (none for RayCluster)', () => {
    const names = objectsOf(plain).filter((o) => o.kind === 'ClusterRole' && /-(editor|viewer)-role$/.test(o.metadata.name)).map((o) => o.metadata.name);
    expect(names).toEqual(['rayjob-editor-role', 'rayjob-viewer-role', 'rayservice-editor-role', 'rayservice-viewer-role', 'raycronjob-editor-role', 'raycronjob-viewer-role']);
  });

  test('metrics: plain HTTP on 8080 through upstream\'s kuberay-operator Service, with the reason recorded', () => {
    expect(find(plain, 'Service', 'kuberay-operator').spec).toEqual({
      selector: { 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/component': 'kuberay-operator' },
      ports: [{ name: 'monitoring-port', port: 8080, targetPort: 'monitoring-port', protocol: 'TCP' }],
    });
    const { kuberay } = platform();
    expect(kuberay.operator.metrics?.authenticated).toBe(false);
    expect(kuberay.operator.metrics?.reason).toBe('KubeRay v1.7.0 serves its metrics over plain HTTP only (no secure-serving flag)');
  });

  test('no webhooks by default', () => {
    expect(objectsOf(plain).filter((o) => /WebhookConfiguration$/.test(o.kind))).toEqual([]);
    expect(find(plain, 'Service', 'kuberay-webhook-service')).toBeUndefined();
  });

  test('webhooks: three validating webhooks on ray.io/v1, failing closed, served on 9443', () => {
    const config = find(withWebhooks, 'ValidatingWebhookConfiguration', 'kuberay-validating-webhook-configuration');
    expect(config.webhooks.map((w: any) => [w.name, w.clientConfig.service.path, w.failurePolicy, w.sideEffects, w.rules[0].resources[0]])).toEqual([
      ['vraycluster.kb.io', '/validate-ray-io-v1-raycluster', 'Fail', 'None', 'rayclusters'],
      ['vrayjob.kb.io', '/validate-ray-io-v1-rayjob', 'Fail', 'None', 'rayjobs'],
      ['vrayservice.kb.io', '/validate-ray-io-v1-rayservice', 'Fail', 'None', 'rayservices'],
    ]);
    for (const w of config.webhooks) {
      expect(w.clientConfig.service).toMatchObject({ name: 'kuberay-webhook-service', namespace: 'ray-system', port: 443 });
      expect(w.rules[0]).toMatchObject({ apiGroups: ['ray.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'] });
      expect(w.admissionReviewVersions).toEqual(['v1']);
      expect(w.namespaceSelector).toBeUndefined();
    }
    const c = find(withWebhooks, 'Deployment', 'kuberay-operator').spec.template.spec.containers[0];
    expect(c.env).toContainEqual({ name: 'ENABLE_WEBHOOKS', value: 'true' });
    expect(c.ports).toContainEqual({ name: 'webhook-server', containerPort: 9443, protocol: 'TCP' });
  });

  test('webhook certificate from cert-manager, as upstream\'s webhook overlay; nothing needs it without webhooks', () => {
    expect(platform().kuberay.infrastructure).toEqual([]);
    expect(platform({ webhooks: true }).kuberay.infrastructure).toEqual(['cert-manager']);
    expect(find(withWebhooks, 'Certificate', 'kuberay-serving-cert').spec.secretName).toBe('kuberay-webhook-server-cert');
    expect(find(withWebhooks, 'ValidatingWebhookConfiguration', 'kuberay-validating-webhook-configuration').metadata.annotations)
      .toEqual({ 'cert-manager.io/inject-ca-from': 'ray-system/kuberay-serving-cert' });
  });

  test('KubeRay cannot rotate its own certificate: a self-managed platform falls back to its provider', () => {
    const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', {
      name: 'kuberay', certificates: CertificateProvider.selfManaged({ fallback: CertificateProvider.openShiftServiceCa() }),
    });
    const kuberay = new KubeRay(p, 'kuberay', { webhooks: true });
    expect(kuberay.webhookServer!.selfManaged).toBe(false);
    const out = kuberay.toJson();
    expect(out.find((o: any) => o.kind === 'Service' && o.metadata.name === 'kuberay-webhook-service').metadata.annotations)
      .toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'kuberay-webhook-server-cert' });
    expect(out.find((o: any) => o.kind === 'ValidatingWebhookConfiguration').metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    expect(problemsOf(() => buildPlatform(p))).toEqual([]);
  });

  test('incremental RayService upgrades require Gateway API', () => {
    const { kuberay } = platform({ featureGates: { RayServiceIncrementalUpgrade: true } });
    expect(kuberay.requires.map((r) => `${r.group}/${r.kind}`)).toEqual(['gateway.networking.k8s.io/Gateway', 'gateway.networking.k8s.io/HTTPRoute']);
    expect(platform().kuberay.requires).toEqual([]);
  });

  test('Ray cluster mTLS requires cert-manager certificates and issuers', () => {
    const { kuberay } = platform({ featureGates: { RayClusterMTLS: true } });
    expect(kuberay.requires.map((r) => `${r.group}/${r.kind}`)).toEqual(['cert-manager.io/Certificate', 'cert-manager.io/Issuer']);
  });

  test('fails to build when incremental upgrades are on and nothing provides Gateway API', () => {
    const { platform: p } = platform({ featureGates: { RayServiceIncrementalUpgrade: true } });
    expect(problemsOf(() => buildPlatform(p))[0]).toMatch(
      /^p\/kuberay: component 'kuberay' \(KubeRay\) requires gateway.networking.k8s.io\/Gateway \(RayService incremental upgrades create Gateways/);
  });

  test('feature gates merge over the defaults and can turn one off', () => {
    const { kuberay } = platform({ featureGates: { RayCronJob: false, RayJobDeletionPolicy: true } });
    expect(kuberay.featureGates).toEqual({ RayClusterStatusConditions: true, RayCronJob: false, RayJobDeletionPolicy: true });
  });

  test('watch namespaces become --watch-namespace', () => {
    const { kuberay } = platform({ watchNamespaces: ['team-a', 'team-b'] });
    expect(kuberay.operator.deployment.toJson().spec.template.spec.containers[0].args).toContain('--watch-namespace=team-a,team-b');
  });

  test('the operator image follows the platform\'s mirror and overrides', () => {
    const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', {
      name: 'kuberay', images: { registryMirror: 'mirror.example.com/ml', overrides: { 'kuberay/operator': { tag: 'v1.7.1' } } },
    });
    const kuberay = new KubeRay(p, 'kuberay');
    expect(kuberay.operator.deployment.toJson().spec.template.spec.containers[0].image).toBe('mirror.example.com/ml/kuberay/operator:v1.7.1');
  });

  test('shares a platform with the Spark Operator: no name collides and every check passes', () => {
    const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'batch', prerequisites: [CERT_MANAGER] });
    new KubeRay(p, 'kuberay', { webhooks: true });
    new SparkOperator(p, 'spark-operator');
    const built = buildPlatform(p);
    const configs = built.model.objects.filter((o) => /WebhookConfiguration$/.test(o.json.kind)).map((o) => `${o.json.kind}/${o.json.metadata.name}`);
    expect(configs.sort()).toEqual([
      'MutatingWebhookConfiguration/spark-operator-webhook',
      'ValidatingWebhookConfiguration/kuberay-validating-webhook-configuration',
      'ValidatingWebhookConfiguration/spark-operator-webhook',
    ]);
  });

  test('fails when a feature gate is malformed', () => {
    expect(() => platform({ featureGates: { 'ray-cron-job': true } })).toThrow(
      "p/kuberay: featureGates: 'ray-cron-job: true' is not a feature gate; use UpperCamelCase names with true or false, e.g. { RayCronJob: true }");
  });

  test('fails when a watch namespace is not a namespace name', () => {
    expect(() => platform({ watchNamespaces: ['Team_A'] })).toThrow(
      "p/kuberay: watchNamespaces: 'Team_A' is not a namespace name; list namespace names, or leave watchNamespaces unset to watch every namespace");
  });

  test('fails when watchNamespaces is empty', () => {
    expect(() => platform({ watchNamespaces: [] })).toThrow(
      'p/kuberay: watchNamespaces is empty; leave it unset to watch every namespace, or list the namespaces');
  });

  test('fails when replicas is not a whole number', () => {
    expect(() => platform({ replicas: 1.5 })).toThrow('p/kuberay/Operator: replicas 1.5 must be a whole number >= 0');
  });

  test('synthesizes alone with 0 findings and the same output twice', () => {
    const again = build(() => platform({ webhooks: true }).platform);
    expect([...again.files.entries()]).toEqual([...withWebhooks.files.entries()]);
  });

  test('full output, default', () => {
    expect(plain.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });

  test('full output, with webhooks', () => {
    expect(withWebhooks.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
