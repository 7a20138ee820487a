import * as http from 'http';
import * as vm from 'vm';
import { App } from 'cdk8s';
import { ArgoWorkflows } from '../../../constructs/argo-workflows';
import { KubeflowPipelines, KubeflowPipelinesProps, PROFILE_HOOK_SCRIPT } from '../../../constructs/kubeflow-pipelines';
import { ProfileController } from '../../../constructs/profile-controller';
import { CertificateProvider } from '../../../lib/certificates';
import { selectorMatches } from '../../../lib/checks';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { ISTIO } from '../../../lib/prerequisites';
import { buildPlatform } from '../../../lib/synth';
import { objectsOf } from '../support/objects';

function platform(props: KubeflowPipelinesProps = { multiUser: true }, tenants: string[] = []) {
  const p = new Platform(new App(), 'p', { name: 'kfp', certificates: CertificateProvider.certManager(), prerequisites: [CERT_MANAGER, ISTIO] });
  new ArgoWorkflows(p, 'argo-workflows');
  new KubeflowPipelines(p, 'kubeflow-pipelines', props);
  if (tenants.length) {
    const profiles = new ProfileController(p, 'profile-controller');
    for (const t of tenants) profiles.addTenant({ name: t, owner: `${t}@example.com` });
  }
  return p;
}

/** The hook script, loaded as a module the way node would (it serves nothing then). */
function loadHook(): { settings: (env: Record<string, string>) => any; sync: (s: any, parent: any, attachments: any) => any; serve: (s: any) => http.Server } {
  const module = { exports: {} as any };
  vm.runInNewContext(PROFILE_HOOK_SCRIPT, { module, exports: module.exports, require, Buffer, process: { env: {} } });
  return module.exports;
}

const ENV = { KFP_NAMESPACE: 'kubeflow', FRONTEND_IMAGE: 'ghcr.io/kubeflow/kfp-frontend:2.17.0', OBJECT_STORE_ACCESS_KEY: 'ak', OBJECT_STORE_SECRET_KEY: 'sk' };
const ns = (name: string, labels: Record<string, string> = { 'pipelines.kubeflow.org/enabled': 'true' }) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

describe('the profile hook script', () => {
  const hook = loadHook();

  test('an enabled namespace gets the metadata ConfigMap, the artifact server and a copy of the object store credentials', () => {
    const out = hook.sync(hook.settings(ENV), ns('team-a'), {});
    expect(out.attachments.map((o: any) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'ConfigMap/team-a/metadata-grpc-configmap', 'Deployment/team-a/ml-pipeline-ui-artifact', 'Service/team-a/ml-pipeline-ui-artifact', 'Secret/team-a/mlpipeline-minio-artifact',
    ]);
    expect(out.attachments[0].data).toEqual({ METADATA_GRPC_SERVICE_HOST: 'metadata-grpc-service.kubeflow', METADATA_GRPC_SERVICE_PORT: '8080' });
    const secret = out.attachments[3];
    expect(Buffer.from(secret.data.accesskey, 'base64').toString()).toBe('ak');
    expect(Buffer.from(secret.data.secretkey, 'base64').toString()).toBe('sk');
    const pod = out.attachments[1].spec.template.spec;
    expect(pod.containers[0].image).toBe('ghcr.io/kubeflow/kfp-frontend:2.17.0');
    expect(pod.serviceAccountName).toBe('default-editor');
    expect(pod.containers[0].securityContext).toMatchObject({ runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(out.attachments[2].spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
    expect(out.status).toEqual({ 'kubeflow-pipelines-ready': 'False' });
  });

  test('ready once metacontroller observes every desired attachment (maps by name or lists)', () => {
    const s = hook.settings(ENV);
    const one = { x: {} };
    const two = { x: {}, y: {} };
    const observed = { 'ConfigMap.v1': one, 'Deployment.apps/v1': one, 'Service.v1': one, 'Secret.v1': one };
    expect(hook.sync(s, ns('team-a'), observed).status).toEqual({ 'kubeflow-pipelines-ready': 'True' });
    expect(hook.sync(s, ns('team-a'), { ...observed, 'Service.v1': [] }).status).toEqual({ 'kubeflow-pipelines-ready': 'False' });
    expect(hook.sync(s, ns('team-a'), { ...observed, 'ConfigMap.v1': two }).status).toEqual({ 'kubeflow-pipelines-ready': 'False' });
    expect(hook.sync(s, ns('team-a'), { ...observed, 'Secret.v1': [{}] }).status).toEqual({ 'kubeflow-pipelines-ready': 'True' });
  });

  test('a default pipeline root adds the kfp-launcher ConfigMap; no frontend image, no artifact server', () => {
    const out = hook.sync(hook.settings({ ...ENV, FRONTEND_IMAGE: '', DEFAULT_PIPELINE_ROOT: 's3://b/root' }), ns('team-a'), {});
    expect(out.attachments.map((o: any) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/metadata-grpc-configmap', 'ConfigMap/kfp-launcher', 'Secret/mlpipeline-minio-artifact']);
    expect(out.attachments[1].data).toEqual({ defaultPipelineRoot: 's3://b/root' });
  });

  test('a namespace without the label (or with another value) gets nothing', () => {
    const s = hook.settings(ENV);
    expect(hook.sync(s, ns('other', {}), {})).toEqual({ status: {}, attachments: [] });
    expect(hook.sync(s, ns('other', { 'pipelines.kubeflow.org/enabled': 'false' }), {})).toEqual({ status: {}, attachments: [] });
    expect(hook.sync(s, {}, {})).toEqual({ status: {}, attachments: [] });
  });

  test('fails to start without the namespace or the credentials', () => {
    expect(() => hook.settings({ ...ENV, KFP_NAMESPACE: '' })).toThrow('environment variable KFP_NAMESPACE is not set');
    expect(() => hook.settings({ KFP_NAMESPACE: 'kubeflow', OBJECT_STORE_ACCESS_KEY: 'ak' })).toThrow('environment variable OBJECT_STORE_SECRET_KEY is not set');
  });

  test('serves POST /sync with a metacontroller request, GET /healthz, 404 elsewhere and 400 for a body that is not JSON', async () => {
    const server = hook.serve({ ...hook.settings(ENV), port: 0 });
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as any).port;
    const call = (method: string, path: string, body?: unknown) => new Promise<{ code: number; json: any }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ code: res.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.on('error', reject);
      req.end(body === undefined || typeof body === 'string' ? body : JSON.stringify(body));
    });
    try {
      const sync = await call('POST', '/sync', { controller: {}, object: ns('team-b'), attachments: {} });
      expect(sync.code).toBe(200);
      expect(sync.json.attachments.map((o: any) => o.metadata.namespace)).toEqual(['team-b', 'team-b', 'team-b', 'team-b']);
      expect((await call('GET', '/healthz')).code).toBe(200);
      expect((await call('GET', '/sync')).code).toBe(404);
      expect((await call('POST', '/sync', '{not json')).code).toBe(400);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('multi-user Kubeflow Pipelines: metacontroller and the profile hook', () => {
  const built = buildPlatform(platform({ multiUser: true }, ['team-a']));
  const o = objectsOf(built, 'kubeflow-pipelines');

  test('metacontroller: the StatefulSet from its pinned image, restricted, with health probes on 8081', () => {
    const sts = o.named('StatefulSet', 'metacontroller');
    const c = sts.spec.template.spec.containers[0];
    expect(c.image).toBe('ghcr.io/metacontroller/metacontroller:v4.16.2');
    expect(c.command).toEqual(['/usr/bin/metacontroller']);
    expect(c.args).toEqual(['--zap-log-level=4', '--discovery-interval=3600s']);
    expect([c.livenessProbe.httpGet, c.readinessProbe.httpGet]).toEqual([{ path: '/healthz', port: 8081 }, { path: '/readyz', port: 8081 }]);
    expect(c.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(sts.spec.template.spec.serviceAccountName).toBe('meta-controller-service');
    expect(o.named('ClusterRoleBinding', 'meta-controller-cluster-role-binding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'meta-controller-service', namespace: 'kubeflow' }]);
  });

  test("metacontroller's RBAC covers the hook's children and the decorated namespaces, and nothing it does not manage", () => {
    const can = (g: string, r: string, v: string) => o.can('ClusterRole', 'kubeflow-metacontroller', g, r, v);
    for (const [g, r] of [['', 'secrets'], ['', 'configmaps'], ['', 'services'], ['apps', 'deployments']]) {
      for (const v of ['create', 'update', 'patch', 'delete', 'watch']) expect(can(g, r, v)).toBe(true);
    }
    expect(can('', 'namespaces', 'update')).toBe(true);
    expect(can('', 'namespaces', 'delete')).toBe(false);
    expect(can('metacontroller.k8s.io', 'decoratorcontrollers', 'watch')).toBe(true);
    expect(can('rbac.authorization.k8s.io', 'rolebindings', 'create')).toBe(false);
    expect(can('', 'serviceaccounts', 'create')).toBe(false);
  });

  test('the DecoratorController decorates pipelines-enabled namespaces with what the hook returns, calling the hook Service', () => {
    const d = o.named('DecoratorController', 'kubeflow-pipelines-profile-controller');
    expect(d.apiVersion).toBe('metacontroller.k8s.io/v1alpha1');
    expect(d.spec.resources).toEqual([{ apiVersion: 'v1', resource: 'namespaces', labelSelector: { matchLabels: { 'pipelines.kubeflow.org/enabled': 'true' } } }]);
    expect(d.spec.attachments.map((a: any) => `${a.apiVersion}/${a.resource}:${a.updateStrategy.method}`)).toEqual(['v1/secrets:OnDelete', 'v1/configmaps:OnDelete', 'apps/v1/deployments:InPlace', 'v1/services:InPlace']);
    expect(d.spec.hooks.sync.webhook.url).toBe('http://kubeflow-pipelines-profile-controller.kubeflow/sync');
    expect(built.model.objects.find((x) => x.json.kind === 'DecoratorController')!.phase).toBe('30-resources');
    // The hook Service routes port 80 to the script's port.
    expect(o.named('Service', 'kubeflow-pipelines-profile-controller').spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });

  test("the hook runs our script from its ConfigMap on the pinned Node image, with credentials from the user's Secret", () => {
    expect(o.named('ConfigMap', 'kubeflow-pipelines-profile-controller-code').data['sync.js']).toBe(PROFILE_HOOK_SCRIPT);
    const c = o.container('kubeflow-pipelines-profile-controller');
    expect(c.image).toBe('node:22.12.0-alpine');
    expect(c.command).toEqual(['node', '/hooks/sync.js']);
    const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({ KFP_NAMESPACE: 'kubeflow', FRONTEND_IMAGE: 'ghcr.io/kubeflow/kfp-frontend:2.17.0', OBJECT_STORE_ACCESS_KEY: { secretKeyRef: { name: 'mlpipeline-minio-artifact', key: 'accesskey' } } });
    expect(env.DEFAULT_PIPELINE_ROOT).toBeUndefined();
    expect(c.volumeMounts).toEqual([{ name: 'hooks', mountPath: '/hooks', readOnly: true }]);
  });

  test("a tenant's namespace (labelled by the profile controller) is decorated; the platform's own namespace is not", () => {
    const sel = o.named('DecoratorController', 'kubeflow-pipelines-profile-controller').spec.resources[0].labelSelector;
    const nsLabels = (name: string) => built.model.objects.find((x) => x.json.kind === 'Namespace' && x.json.metadata.name === name)!.json.metadata.labels ?? {};
    expect(selectorMatches(sel, nsLabels('team-a'))).toBe(true);
    expect(selectorMatches(sel, nsLabels('kubeflow'))).toBe(false);
  });

  test('artifactServer: false and defaultPipelineRoot reach the hook', () => {
    const c = objectsOf(buildPlatform(platform({ multiUser: true, artifactServer: false, defaultPipelineRoot: 'minio://mlpipeline/v2/artifacts' })), 'kubeflow-pipelines').container('kubeflow-pipelines-profile-controller');
    const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env.FRONTEND_IMAGE).toBe('');
    expect(env.DEFAULT_PIPELINE_ROOT).toBe('minio://mlpipeline/v2/artifacts');
  });

  test('single-user runs neither metacontroller nor the hook', () => {
    const single = objectsOf(buildPlatform(platform({})), 'kubeflow-pipelines');
    expect(single.ofKind('StatefulSet')).toEqual([]);
    expect(single.ofKind('DecoratorController')).toEqual([]);
    expect(single.ofKind('Deployment').map((d) => d.metadata.name)).not.toContain('kubeflow-pipelines-profile-controller');
  });

  test.each<[string, KubeflowPipelinesProps, string]>([
    ['artifactServer is set in single-user mode', { artifactServer: false }, 'p/kubeflow-pipelines: artifactServer applies to multi-user mode only (the profile hook sets it up per namespace); set multiUser: true or remove it'],
    ['defaultPipelineRoot is not a URI', { multiUser: true, defaultPipelineRoot: 'mlpipeline/root' }, "p/kubeflow-pipelines: defaultPipelineRoot 'mlpipeline/root' is not a URI; give e.g. s3://mlpipeline/v2/artifacts or minio://mlpipeline/v2/artifacts"],
  ])('fails when %s', (_what, props, message) => {
    expect(() => platform(props)).toThrow(message);
  });
});
