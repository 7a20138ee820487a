import { App } from 'cdk8s';
import { PodDefaultsWebhook, podDefaultCrds } from '../../../constructs/admission-webhook';
import { ProfileController } from '../../../constructs/profile-controller';
import { CertificateProvider } from '../../../lib/certificates';
import { interceptingWebhooks } from '../../../lib/checks';
import { CERT_MANAGER } from '../../../lib/component';
import { rootSchema } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { wiringTable } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

const alone = build((app) => {
  const p = new Platform(app, 'p', { name: 'poddefaults', prerequisites: [CERT_MANAGER] });
  new PodDefaultsWebhook(p, 'admission-webhook');
  return p;
});
const objects = alone.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};

describe('PodDefault CRD', () => {
  const def = podDefaultCrds.podDefaultCrd;
  test('kubeflow.org/v1alpha1 PodDefault, namespaced, one served storage version with status', () => {
    expect(`${def.plural}.${def.group}`).toBe('poddefaults.kubeflow.org');
    expect(def.scope).toBe('Namespaced');
    expect(def.shortNames).toBeUndefined();
    expect(def.versions.map((v) => [v.name, v.served, v.storage, v.subresources?.status])).toEqual([['v1alpha1', true, true, true]]);
  });

  test('selector is required; sidecars and init containers are core containers; volume mounts need a name and a path', () => {
    const spec = rootSchema(def.versions[0].schema).toJson().properties!.spec;
    expect(spec.required).toEqual(['selector']);
    expect(spec.properties!.selector['x-kubernetes-map-type']).toBe('atomic');
    expect(spec.properties!.sidecars.items!.required).toEqual(['name']);
    expect(spec.properties!.initContainers.items!.properties!.image).toEqual({ type: 'string' });
    expect(spec.properties!.volumeMounts.items!.required).toEqual(['mountPath', 'name']);
    expect(Object.keys(spec.properties!).sort()).toEqual([
      'annotations', 'args', 'automountServiceAccountToken', 'command', 'desc', 'env', 'envFrom', 'imagePullSecrets', 'initContainers',
      'labels', 'selector', 'serviceAccountName', 'sidecars', 'tolerations', 'volumeMounts', 'volumes',
    ]);
  });
});

describe('PodDefaultsWebhook', () => {
  test('synthesizes alone with cert-manager present: every check passes', () => {
    expect(alone.model.components.map((c) => c.componentName)).toEqual(['admission-webhook']);
  });

  test('the mutating webhook as upstream: name, path, pods on CREATE, fail closed, v1beta1 and v1 reviews, profile namespaces only', () => {
    const cfg = find('MutatingWebhookConfiguration', 'poddefaults-webhook-mutating-webhook-configuration');
    expect(cfg.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'kubeflow/poddefaults-webhook-cert' });
    expect(cfg.webhooks).toEqual([{
      name: 'poddefaults-webhook-deployment.kubeflow.org',
      admissionReviewVersions: ['v1beta1', 'v1'],
      clientConfig: { service: { name: 'poddefaults-webhook-service', namespace: 'kubeflow', path: '/apply-poddefault', port: 443 } },
      failurePolicy: 'Fail',
      namespaceSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'kubeflow-profile' } },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      sideEffects: 'None',
    }]);
    expect(wiringTable(alone.model)).toEqual([
      'mutating poddefaults-webhook-mutating-webhook-configuration/poddefaults-webhook-deployment.kubeflow.org -> kubeflow/poddefaults-webhook-service:443/apply-poddefault -> Deployment/poddefaults-webhook-deployment:4443 -> cert-manager kubeflow/poddefaults-webhook-cert -> Fail',
    ]);
  });

  test('the server: upstream names, image, TLS flags, port 4443, no probes, runs as 65532', () => {
    const d = find('Deployment', 'poddefaults-webhook-deployment');
    const pod = d.spec.template.spec;
    expect(d.metadata.namespace).toBe('kubeflow');
    expect(pod.serviceAccountName).toBe('poddefaults-webhook-service-account');
    expect(d.spec.template.metadata.labels).toMatchObject({ 'app': 'poddefaults', 'app.kubernetes.io/component': 'poddefaults' });
    const c = pod.containers[0];
    expect(c.name).toBe('poddefaults-webhook');
    expect(c.image).toBe('ghcr.io/kubeflow/dashboard/poddefaults-webhook:v2.0.0');
    expect(c.args).toEqual(['--tlsCertFile=/etc/webhook/certs/tls.crt', '--tlsKeyFile=/etc/webhook/certs/tls.key']);
    expect(c.ports).toEqual([{ name: 'https-webhook', containerPort: 4443, protocol: 'TCP' }]);
    expect(c.livenessProbe).toBeUndefined();
    expect(c.readinessProbe).toBeUndefined();
    expect(c.securityContext).toMatchObject({ runAsUser: 65532, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(c.volumeMounts).toEqual([{ name: 'webhook-cert', mountPath: '/etc/webhook/certs', readOnly: true }]);
    expect(pod.volumes).toEqual([{ name: 'webhook-cert', secret: { secretName: 'poddefaults-webhook-certs', defaultMode: 420 } }]);
  });

  test('Service 443 -> https-webhook and a cert-manager Certificate into poddefaults-webhook-certs', () => {
    expect(find('Service', 'poddefaults-webhook-service').spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 'https-webhook', protocol: 'TCP' }]);
    expect(find('Certificate', 'poddefaults-webhook-cert').spec).toMatchObject({
      secretName: 'poddefaults-webhook-certs',
      dnsNames: ['poddefaults-webhook-service.kubeflow.svc', 'poddefaults-webhook-service.kubeflow.svc.cluster.local'],
    });
  });

  test('RBAC: the server reads PodDefaults; users get them through the Kubeflow roles', () => {
    expect(find('ClusterRole', 'poddefaults-webhook-deployment-role').rules).toEqual([{ apiGroups: ['kubeflow.org'], resources: ['poddefaults'], verbs: ['get', 'list', 'watch'] }]);
    expect(find('ClusterRoleBinding', 'poddefaults-webhook-deployment-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'poddefaults-webhook-service-account', namespace: 'kubeflow' }]);
    const admin = find('ClusterRole', 'poddefaults-webhook-kubeflow-poddefaults-admin');
    expect(admin.metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-admin': 'true' });
    expect(admin.aggregationRule.clusterRoleSelectors).toEqual([{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-poddefaults-admin': 'true' } }]);
    const edit = find('ClusterRole', 'poddefaults-webhook-kubeflow-poddefaults-edit');
    expect(edit.metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true', 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-poddefaults-admin': 'true' });
    expect(edit.aggregationRule.clusterRoleSelectors).toEqual([{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-poddefaults-edit': 'true' } }]);
    const view = find('ClusterRole', 'poddefaults-webhook-kubeflow-poddefaults-view');
    expect(view.metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true', 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-poddefaults-edit': 'true' });
    expect(view.rules).toEqual([{ apiGroups: ['kubeflow.org'], resources: ['poddefaults'], verbs: ['get', 'list', 'watch'] }]);
  });

  test('with the OpenShift service CA: serving-cert annotation, CA injection, no Certificate', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'poddefaults', certificates: CertificateProvider.openShiftServiceCa() });
      new PodDefaultsWebhook(p, 'admission-webhook');
      return p;
    });
    const json = b.model.objects.map((o) => o.json);
    expect(json.filter((o) => o.kind === 'Certificate')).toEqual([]);
    expect(json.find((o) => o.kind === 'Service').metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'poddefaults-webhook-certs' });
    expect(json.find((o) => o.kind === 'MutatingWebhookConfiguration').metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
  });

  test('replicas scale the server without leader election', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'poddefaults', prerequisites: [CERT_MANAGER] });
      new PodDefaultsWebhook(p, 'admission-webhook', { replicas: 3 });
      return p;
    });
    expect(b.model.objects.find((o) => o.json.kind === 'Deployment')!.json.spec.replicas).toBe(3);
    expect(b.model.objects.filter((o) => o.json.kind === 'Role')).toEqual([]);
  });

  test('fails when replicas is 0', () => {
    expect(() => new PodDefaultsWebhook(new Platform(new App(), 'p', { name: 'x' }), 'admission-webhook', { replicas: 0 }))
      .toThrow('p/admission-webhook: replicas 0 must be a whole number >= 1 (the webhook fails closed: with 0 replicas no pod can be created in a profile namespace)');
  });

  test('fails when cert-manager is neither present nor provided', () => {
    expect(problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'poddefaults' });
      new PodDefaultsWebhook(p, 'admission-webhook');
      return p;
    }))).toEqual([
      "p/admission-webhook: component 'admission-webhook' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    ]);
  });

  test('full output', () => {
    expect(alone.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('PodDefaultsWebhook in a multi-tenant platform', () => {
  const mt = build((app) => {
    const p = new Platform(app, 'p', { name: 'mt', prerequisites: [CERT_MANAGER, ISTIO] });
    const profiles = new ProfileController(p, 'profile-controller');
    new PodDefaultsWebhook(p, 'admission-webhook');
    profiles.addTenant({ name: 'team-a', owner: 'alice@example.com' });
    return p;
  });
  const pod = (namespace: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace, labels } });
  const names = (json: any) => interceptingWebhooks(mt.model, json).map((w) => w.name);

  test('a pod in a tenant namespace is intercepted (the label the profile controller sets resolves the selector)', () => {
    expect(names(pod('team-a'))).toEqual(['poddefaults-webhook-deployment.kubeflow.org']);
  });

  test('a pod in kube-system is not intercepted', () => {
    expect(names(pod('kube-system'))).toEqual([]);
  });

  test("the webhook's own pods in the platform namespace are not intercepted", () => {
    const server = mt.model.objects.find((o) => o.json.kind === 'Deployment' && o.json.metadata.name === 'poddefaults-webhook-deployment')!.json;
    expect(names(pod('kubeflow', server.spec.template.metadata.labels))).toEqual([]);
  });

  test('PodDefaults themselves and pods updated later are not intercepted', () => {
    expect(names({ apiVersion: 'kubeflow.org/v1alpha1', kind: 'PodDefault', metadata: { name: 'x', namespace: 'team-a' } })).toEqual([]);
  });
});

describe('PD-NETPOL', () => {
  test('PD-NETPOL: upstream\'s NetworkPolicy admits only the webhook port to the server\'s pods', () => {
    const np = find('NetworkPolicy', 'poddefaults');
    const deployment = find('Deployment', 'poddefaults-webhook-deployment');
    expect(np.metadata.namespace).toBe('kubeflow');
    expect(np.spec).toEqual({ podSelector: { matchLabels: deployment.spec.selector.matchLabels }, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 'https-webhook', protocol: 'TCP' }] }] });
    // The named port is the one the webhook Service targets.
    expect(deployment.spec.template.spec.containers[0].ports).toContainEqual({ name: 'https-webhook', containerPort: 4443, protocol: 'TCP' });
    expect(find('Service', 'poddefaults-webhook-service').spec.ports[0].targetPort).toBe('https-webhook');
  });
});
