import { EventEmitter } from 'events';
import * as http from 'http';
import { createRequire } from 'module';
import * as vm from 'vm';
import { App } from 'cdk8s';
import { ArgoWorkflows } from '../../../constructs/argo-workflows';
import { KubeflowPipelines, KubeflowPipelinesProps, PROFILE_HOOK_SCRIPT, TenantObjectStoreAccess } from '../../../constructs/kubeflow-pipelines';
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

const nodeRequire = createRequire(__filename);

/** The hook script, loaded as a module the way node would (it serves nothing then); `modules` replaces required modules. */
function loadHook(modules: Record<string, unknown> = {}): {
  settings: (env: Record<string, string>) => any;
  sync: (s: any, parent: any, attachments: any, store?: any) => Promise<any>;
  signedCall: (s: any, method: string, url: string, service: string, body: string, contentType: string, now?: Date) => Promise<string>;
  serve: (s: any) => http.Server;
} {
  const module = { exports: {} as any };
  vm.runInNewContext(PROFILE_HOOK_SCRIPT, { module, exports: module.exports, require: (m: string) => modules[m] ?? nodeRequire(m), Buffer, process: { env: {} } });
  return module.exports;
}

const ENV = { KFP_NAMESPACE: 'kubeflow', FRONTEND_IMAGE: 'ghcr.io/kubeflow/kfp-frontend:2.17.0', AWS_ACCESS_KEY_ID: 'ak', AWS_SECRET_ACCESS_KEY: 'sk', AWS_ENDPOINT_URL: 'http://seaweedfs.kubeflow:8111', S3_ENDPOINT_URL: 'http://seaweedfs.kubeflow:8333' };
const ns = (name: string, labels: Record<string, string> = { 'pipelines.kubeflow.org/enabled': 'true' }) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const decode = (secret: any) => Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v as string, 'base64').toString()]));
/** An object store that hands out one identity per call and records the namespaces. */
const fakeStore = () => {
  const created: string[] = [];
  return { created, createIdentity: async (name: string) => (created.push(name), { accessKey: `${name}-key`, secretKey: `${name}-secret` }) };
};

/** A stand-in for SeaweedFS's IAM and S3 APIs on a local port: records every request, answers CreateAccessKey as IAM does. */
async function fakeSeaweedfs(fail?: string) {
  const requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const action = new URLSearchParams(body).get('Action');
      if (fail && (action === fail || req.url!.includes(fail))) {
        res.writeHead(403);
        res.end('<ErrorResponse><Error><Code>AccessDenied</Code></Error></ErrorResponse>');
        return;
      }
      res.writeHead(200);
      res.end(action === 'CreateAccessKey'
        ? `<CreateAccessKeyResponse><CreateAccessKeyResult><AccessKey><UserName>${new URLSearchParams(body).get('UserName')}</UserName><AccessKeyId>NSKEY</AccessKeyId><SecretAccessKey>NSSECRET</SecretAccessKey></AccessKey></CreateAccessKeyResult></CreateAccessKeyResponse>`
        : '<Response></Response>');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as any).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return { requests, url, close };
}

describe('the profile hook script', () => {
  const hook = loadHook();

  test('KFP-TENANT-S3: a new namespace gets its own object store identity, never the admin keys, and the kfp-launcher ConfigMap with upstream\'s per-namespace root', async () => {
    const store = fakeStore();
    const out = await hook.sync(hook.settings(ENV), ns('team-a'), {}, store);
    expect(out.attachments.map((o: any) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'ConfigMap/team-a/kfp-launcher', 'ConfigMap/team-a/metadata-grpc-configmap', 'Deployment/team-a/ml-pipeline-ui-artifact', 'Service/team-a/ml-pipeline-ui-artifact', 'Secret/team-a/mlpipeline-minio-artifact',
    ]);
    expect(out.attachments[0].data).toEqual({ defaultPipelineRoot: 'minio://mlpipeline/private-artifacts/team-a/v2/artifacts', clusterDomain: '.svc.cluster.local' });
    expect(out.attachments[1].data).toEqual({ METADATA_GRPC_SERVICE_HOST: 'metadata-grpc-service.kubeflow', METADATA_GRPC_SERVICE_PORT: '8080' });
    expect(store.created).toEqual(['team-a']);
    expect(decode(out.attachments[4])).toEqual({ accesskey: 'team-a-key', secretkey: 'team-a-secret' });
    const pod = out.attachments[2].spec.template.spec;
    expect(pod.containers[0].image).toBe('ghcr.io/kubeflow/kfp-frontend:2.17.0');
    expect(pod.serviceAccountName).toBe('default-editor');
    expect(pod.containers[0].securityContext).toMatchObject({ runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(out.attachments[3].spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
    expect(out.status).toEqual({ 'kubeflow-pipelines-ready': 'False' });
  });

  test('KFP-TENANT-S3: a namespace whose Secret metacontroller observes keeps it (no new identity)', async () => {
    const store = { createIdentity: async () => { throw new Error('no identity should be created'); } };
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mlpipeline-minio-artifact', namespace: 'team-a' }, data: { accesskey: 'b2xk', secretkey: 'c2Vj' } };
    for (const observed of [{ 'team-a/mlpipeline-minio-artifact': secret }, { 'mlpipeline-minio-artifact': secret }, [secret]]) {
      const out = await hook.sync(hook.settings(ENV), ns('team-a'), { 'Secret.v1': observed }, store);
      expect(out.attachments.find((o: any) => o.kind === 'Secret').data).toEqual({ accesskey: 'b2xk', secretkey: 'c2Vj' });
    }
  });

  test('KFP-TENANT-S3: the identity is made through SeaweedFS\'s IAM API, limited to the namespace\'s prefixes, and the bucket policy keeps identities out of each other\'s listings', async () => {
    const fake = await fakeSeaweedfs();
    try {
      const out = await hook.sync(hook.settings({ ...ENV, AWS_ENDPOINT_URL: fake.url, S3_ENDPOINT_URL: fake.url }), ns('team-a'), {});
      expect(decode(out.attachments.find((o: any) => o.kind === 'Secret'))).toEqual({ accesskey: 'NSKEY', secretkey: 'NSSECRET' });
      expect(fake.requests.map((r) => `${r.method} ${r.url} ${new URLSearchParams(r.body).get('Action') ?? ''}`)).toEqual(['POST / CreateAccessKey', 'POST / PutUserPolicy', 'PUT /mlpipeline?policy ']);
      const [create, put, bucket] = fake.requests;
      expect(new URLSearchParams(create.body).get('UserName')).toBe('team-a');
      const params = new URLSearchParams(put.body);
      expect([params.get('UserName'), params.get('PolicyName'), params.get('Version')]).toEqual(['team-a', 'KubeflowProjectteam-a', '2010-05-08']);
      expect(JSON.parse(params.get('PolicyDocument')!).Statement).toEqual([{
        Effect: 'Allow',
        Action: ['s3:Put*', 's3:Get*', 's3:List*', 's3:DeleteObject'],
        Resource: ['arn:aws:s3:::mlpipeline/artifacts/*', 'arn:aws:s3:::mlpipeline/private-artifacts/team-a/*', 'arn:aws:s3:::mlpipeline/private/team-a/*', 'arn:aws:s3:::mlpipeline/shared/*'],
      }]);
      const policy = JSON.parse(bucket.body);
      expect(policy.Statement.map((x: any) => `${x.Sid}:${x.Effect}`)).toEqual(['AllowOwnDeepList:Allow', 'AllowHeadBucket:Allow', 'AllowTopLevelDelimitedBrowse:Allow', 'DenyOtherDeepList:Deny']);
      expect(policy.Statement[3].Condition).toEqual({ StringLike: { 's3:prefix': ['private-artifacts/*', 'private/*'] }, StringNotLike: { 's3:prefix': ['private-artifacts/${aws:username}/*', 'private/${aws:username}/*'] } });
      // Every call is signed with the admin key.
      for (const r of fake.requests) expect(r.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=ak\/\d{8}\/us-east-1\/(iam|s3)\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    } finally {
      await fake.close();
    }
  });

  test('requests are signed as botocore signs them (AWS Signature Version 4)', async () => {
    const sent: any[] = [];
    const fakeHttp = {
      request: (options: any, callback: (res: any) => void) => {
        const res = Object.assign(new EventEmitter(), { statusCode: 200 });
        return {
          on: () => undefined,
          end: (body: string) => {
            sent.push({ ...options, body });
            callback(res);
            res.emit('data', Buffer.from('ok'));
            res.emit('end');
          },
        };
      },
    };
    const signer = loadHook({ http: fakeHttp });
    const s = { accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
    const now = new Date('2015-08-30T12:36:00Z');
    await signer.signedCall(s, 'POST', 'http://seaweedfs.kubeflow:8111/', 'iam', 'Action=CreateAccessKey&UserName=team-a&Version=2010-05-08', 'application/x-www-form-urlencoded; charset=utf-8', now);
    await signer.signedCall(s, 'PUT', 'http://seaweedfs.kubeflow:8333/mlpipeline?policy', 's3', '{"a":1}', 'application/json', now);
    // Expected values computed with botocore 1.43 (SigV4Auth, S3SigV4Auth) for the same requests.
    expect(sent.map((r) => r.headers.authorization)).toEqual([
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=fdd38c24baf87c4b2dc42dc3f0cb4cadf6f00623dc5dd89294528ec1948ad474',
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/s3/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=22787d25210379026446562d3047d9bc925b49583b0ea1e38055b61a1a624173',
    ]);
    expect(sent.map((r) => `${r.method} ${r.hostname}:${r.port}${r.path}`)).toEqual(['POST seaweedfs.kubeflow:8111/', 'PUT seaweedfs.kubeflow:8333/mlpipeline?policy']);
  });

  test('shared admin credentials (an explicit opt-out) copy the admin keys; a default pipeline root replaces upstream\'s; no frontend image, no artifact server', async () => {
    const out = await hook.sync(hook.settings({ ...ENV, FRONTEND_IMAGE: '', DEFAULT_PIPELINE_ROOT: 's3://b/root', OBJECT_STORE_ISOLATION: 'shared', AWS_ENDPOINT_URL: '' }), ns('team-a'), {});
    expect(out.attachments.map((o: any) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/kfp-launcher', 'ConfigMap/metadata-grpc-configmap', 'Secret/mlpipeline-minio-artifact']);
    expect(out.attachments[0].data).toEqual({ defaultPipelineRoot: 's3://b/root', clusterDomain: '.svc.cluster.local' });
    expect(decode(out.attachments[2])).toEqual({ accesskey: 'ak', secretkey: 'sk' });
  });

  test('ready once metacontroller observes every desired attachment (maps by name or lists)', async () => {
    const s = hook.settings(ENV);
    const store = fakeStore();
    const one = { x: {} };
    const two = { x: {}, y: {} };
    const observed = { 'ConfigMap.v1': two, 'Deployment.apps/v1': one, 'Service.v1': one, 'Secret.v1': one };
    expect((await hook.sync(s, ns('team-a'), observed, store)).status).toEqual({ 'kubeflow-pipelines-ready': 'True' });
    expect((await hook.sync(s, ns('team-a'), { ...observed, 'Service.v1': [] }, store)).status).toEqual({ 'kubeflow-pipelines-ready': 'False' });
    expect((await hook.sync(s, ns('team-a'), { ...observed, 'ConfigMap.v1': one }, store)).status).toEqual({ 'kubeflow-pipelines-ready': 'False' });
    expect((await hook.sync(s, ns('team-a'), { ...observed, 'Secret.v1': [{}] }, store)).status).toEqual({ 'kubeflow-pipelines-ready': 'True' });
  });

  test('a namespace without the label (or with another value) gets nothing', async () => {
    const s = hook.settings(ENV);
    expect(await hook.sync(s, ns('other', {}), {})).toEqual({ status: {}, attachments: [] });
    expect(await hook.sync(s, ns('other', { 'pipelines.kubeflow.org/enabled': 'false' }), {})).toEqual({ status: {}, attachments: [] });
    expect(await hook.sync(s, {}, {})).toEqual({ status: {}, attachments: [] });
  });

  test('fails to start without the namespace, the credentials or the IAM endpoint its isolation needs', () => {
    expect(() => hook.settings({ ...ENV, KFP_NAMESPACE: '' })).toThrow('environment variable KFP_NAMESPACE is not set');
    expect(() => hook.settings({ KFP_NAMESPACE: 'kubeflow', AWS_ACCESS_KEY_ID: 'ak' })).toThrow('environment variable AWS_SECRET_ACCESS_KEY is not set');
    expect(() => hook.settings({ ...ENV, AWS_ENDPOINT_URL: '' })).toThrow('environment variable AWS_ENDPOINT_URL is not set');
    expect(() => hook.settings({ ...ENV, OBJECT_STORE_ISOLATION: 'none' })).toThrow('OBJECT_STORE_ISOLATION is none, not per-namespace or shared');
  });

  test('serves POST /sync with a metacontroller request, GET /healthz, 404 elsewhere, 400 for a body that is not JSON, 500 when the object store refuses (metacontroller retries)', async () => {
    const fake = await fakeSeaweedfs('PutUserPolicy');
    const server = hook.serve({ ...hook.settings({ ...ENV, AWS_ENDPOINT_URL: fake.url, S3_ENDPOINT_URL: fake.url }), port: 0 });
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
    const secret = { metadata: { name: 'mlpipeline-minio-artifact', namespace: 'team-b' }, data: { accesskey: 'YQ==', secretkey: 'Yg==' } };
    try {
      const sync = await call('POST', '/sync', { controller: {}, object: ns('team-b'), attachments: { 'Secret.v1': { 'team-b/mlpipeline-minio-artifact': secret } } });
      expect(sync.code).toBe(200);
      expect(sync.json.attachments.map((o: any) => o.metadata.namespace)).toEqual(['team-b', 'team-b', 'team-b', 'team-b', 'team-b']);
      const refused = await call('POST', '/sync', { controller: {}, object: ns('team-c'), attachments: {} });
      expect(refused.code).toBe(500);
      expect(refused.json.error).toMatch(/^iam POST \/: HTTP 403 /);
      expect((await call('GET', '/healthz')).code).toBe(200);
      expect((await call('GET', '/sync')).code).toBe(404);
      expect((await call('POST', '/sync', '{not json')).code).toBe(400);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await fake.close();
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
    expect(env).toMatchObject({ KFP_NAMESPACE: 'kubeflow', FRONTEND_IMAGE: '', BUCKET: 'mlpipeline', AWS_ACCESS_KEY_ID: { secretKeyRef: { name: 'mlpipeline-minio-artifact', key: 'accesskey' } } });
    expect(env.DEFAULT_PIPELINE_ROOT).toBeUndefined();
    expect(c.volumeMounts).toEqual([{ name: 'hooks', mountPath: '/hooks', readOnly: true }]);
  });

  test("a tenant's namespace (labelled by the profile controller) is decorated; the platform's own namespace is not", () => {
    const sel = o.named('DecoratorController', 'kubeflow-pipelines-profile-controller').spec.resources[0].labelSelector;
    const nsLabels = (name: string) => built.model.objects.find((x) => x.json.kind === 'Namespace' && x.json.metadata.name === name)!.json.metadata.labels ?? {};
    expect(selectorMatches(sel, nsLabels('team-a'))).toBe(true);
    expect(selectorMatches(sel, nsLabels('kubeflow'))).toBe(false);
  });

  test('artifactServer: true and defaultPipelineRoot reach the hook', () => {
    const c = objectsOf(buildPlatform(platform({ multiUser: true, artifactServer: true, defaultPipelineRoot: 'minio://mlpipeline/v2/artifacts' })), 'kubeflow-pipelines').container('kubeflow-pipelines-profile-controller');
    const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env.FRONTEND_IMAGE).toBe('ghcr.io/kubeflow/kfp-frontend:2.17.0');
    expect(env.DEFAULT_PIPELINE_ROOT).toBe('minio://mlpipeline/v2/artifacts');
  });

  test('KFP-ARTIFACT-PROXY: by default no profile runs an artifact server (upstream\'s ARTIFACTS_PROXY_ENABLED false); the UI reads artifacts itself', () => {
    const env = (name: string) => Object.fromEntries(o.container(name).env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env('kubeflow-pipelines-profile-controller').FRONTEND_IMAGE).toBe('');
    expect(env('ml-pipeline-ui').ARTIFACTS_SERVICE_PROXY_ENABLED).toBe('false');
  });

  test('KFP-TENANT-S3: the hook creates per-namespace identities in the included SeaweedFS, whose IAM port admits the hook only', () => {
    const env = Object.fromEntries(o.container('kubeflow-pipelines-profile-controller').env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({ OBJECT_STORE_ISOLATION: 'per-namespace', AWS_ENDPOINT_URL: 'http://seaweedfs.kubeflow:8111', S3_ENDPOINT_URL: 'http://seaweedfs.kubeflow:8333' });
    expect(o.named('NetworkPolicy', 'seaweedfs').spec.ingress).toContainEqual({ from: [{ podSelector: { matchLabels: { app: 'kubeflow-pipelines-profile-controller' } } }], ports: [{ port: 8111, protocol: 'TCP' }] });
    expect(o.container('seaweedfs').ports).toContainEqual({ name: 'iam', containerPort: 8111, protocol: 'TCP' });
  });

  test('KFP-TENANT-S3: synth fails when multi-user Pipelines would hand the admin credentials of an external object store to every tenant, unless the user chooses so by name', () => {
    const external = { multiUser: true, objectStore: { external: { host: 's3.example.com' } } };
    expect(() => platform(external)).toThrow(
      'p/kubeflow-pipelines: tenantObjectStoreAccess is per-namespace (the default), but objectStore is external (s3.example.com): the profile hook can create per-namespace identities only in the included SeaweedFS, ' +
        'so every profile namespace would get a copy of the admin object store credentials and any tenant could read and overwrite every other tenant\'s artifacts. ' +
        'Use objectStore: { included: {} }, or accept the sharing with tenantObjectStoreAccess: TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS');
    const shared = objectsOf(buildPlatform(platform({ ...external, tenantObjectStoreAccess: TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS })), 'kubeflow-pipelines');
    const env = Object.fromEntries(shared.container('kubeflow-pipelines-profile-controller').env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env.OBJECT_STORE_ISOLATION).toBe('shared');
    expect(env.AWS_ENDPOINT_URL).toBeUndefined();
    expect(() => platform({ multiUser: true, tenantObjectStoreAccess: 'none' as TenantObjectStoreAccess })).toThrow("p/kubeflow-pipelines: tenantObjectStoreAccess 'none' is not one of per-namespace, shared-admin-credentials");
  });

  test('single-user runs neither metacontroller nor the hook', () => {
    const single = objectsOf(buildPlatform(platform({})), 'kubeflow-pipelines');
    expect(single.ofKind('StatefulSet')).toEqual([]);
    expect(single.ofKind('DecoratorController')).toEqual([]);
    expect(single.ofKind('Deployment').map((d) => d.metadata.name)).not.toContain('kubeflow-pipelines-profile-controller');
  });

  test.each<[string, KubeflowPipelinesProps, string]>([
    ['artifactServer is set in single-user mode', { artifactServer: false }, 'p/kubeflow-pipelines: artifactServer applies to multi-user mode only (the profile hook sets it up per namespace); set multiUser: true or remove it'],
    ['tenantObjectStoreAccess is set in single-user mode', { tenantObjectStoreAccess: TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS }, 'p/kubeflow-pipelines: tenantObjectStoreAccess applies to multi-user mode only (the profile hook sets it up per namespace); set multiUser: true or remove it'],
    ['defaultPipelineRoot is not a URI', { multiUser: true, defaultPipelineRoot: 'mlpipeline/root' }, "p/kubeflow-pipelines: defaultPipelineRoot 'mlpipeline/root' is not a URI; give e.g. s3://mlpipeline/v2/artifacts or minio://mlpipeline/v2/artifacts"],
  ])('fails when %s', (_what, props, message) => {
    expect(() => platform(props)).toThrow(message);
  });
});
