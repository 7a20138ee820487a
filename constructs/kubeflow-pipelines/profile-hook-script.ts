/**
 * The sync hook that gives each profile namespace its Kubeflow Pipelines objects, as a
 * CommonJS script for a stock Node.js image (no dependencies: node's http and crypto only).
 * Metacontroller's DecoratorController posts the namespace and its current attachments to
 * /sync; the hook answers with the attachments the namespace should have and a readiness
 * status. Written for this project (upstream ships a Python script with the same role,
 * sync.py of kubeflow/pipelines 2.17.0).
 *
 * Object store access (OBJECT_STORE_ISOLATION):
 * - `per-namespace` (upstream's): the first time it sees a namespace without its Secret,
 *   the hook creates a SeaweedFS identity named after the namespace through the IAM API
 *   (CreateAccessKey), limits it to the namespace's prefixes (PutUserPolicy: artifacts/,
 *   private-artifacts/<ns>/, private/<ns>/, shared/ of the bucket), sets the bucket policy
 *   that keeps identities from listing each other's private prefixes, and returns the new
 *   keys as the namespace's Secret; afterwards it returns the Secret metacontroller observes.
 *   The admin keys only sign those calls (AWS Signature Version 4).
 * - `shared`: every namespace gets a copy of the admin keys (an explicit opt-out).
 *
 * Configuration comes from the environment:
 * - KFP_NAMESPACE: where the ML Metadata gRPC service runs;
 * - FRONTEND_IMAGE: image of the per-namespace artifact server ('' for no artifact server);
 * - DEFAULT_PIPELINE_ROOT: the kfp-launcher ConfigMap's default pipeline root (default:
 *   minio://<bucket>/private-artifacts/<ns>/v2/artifacts, upstream's);
 * - BUCKET (default mlpipeline), CLUSTER_DOMAIN (default .svc.cluster.local);
 * - AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY: the admin object store credentials
 *   (from the Secret the user created; never part of the output);
 * - OBJECT_STORE_ISOLATION: per-namespace (default) or shared;
 * - AWS_ENDPOINT_URL, S3_ENDPOINT_URL (per-namespace): SeaweedFS's IAM and S3 URLs; AWS_REGION
 *   (default us-east-1) for the signatures;
 * - PORT: listen port (default 8080).
 *
 * Loaded as a module (`module.exports`), it serves nothing and exposes `settings`, `sync`
 * (async; a fourth argument replaces the object store client), `seaweedfs` and `serve` for tests.
 */
export const PROFILE_HOOK_SCRIPT = `'use strict';
const http = require('http');
const crypto = require('crypto');
const { URL } = require('url');

const ENABLED_LABEL = 'pipelines.kubeflow.org/enabled';
const ARTIFACT = 'ml-pipeline-ui-artifact';
const OBJECT_STORE_SECRET = 'mlpipeline-minio-artifact';

function settings(env) {
  const required = (k) => {
    if (env[k] === undefined || env[k] === '') throw new Error('environment variable ' + k + ' is not set');
    return env[k];
  };
  const isolation = env.OBJECT_STORE_ISOLATION || 'per-namespace';
  if (isolation !== 'per-namespace' && isolation !== 'shared') throw new Error('OBJECT_STORE_ISOLATION is ' + isolation + ', not per-namespace or shared');
  const perNamespace = isolation === 'per-namespace';
  return {
    kfpNamespace: required('KFP_NAMESPACE'),
    frontendImage: env.FRONTEND_IMAGE || '',
    defaultPipelineRoot: env.DEFAULT_PIPELINE_ROOT || '',
    bucket: env.BUCKET || 'mlpipeline',
    clusterDomain: env.CLUSTER_DOMAIN || '.svc.cluster.local',
    accessKey: required('AWS_ACCESS_KEY_ID'),
    secretKey: required('AWS_SECRET_ACCESS_KEY'),
    isolation,
    iamEndpoint: perNamespace ? required('AWS_ENDPOINT_URL') : '',
    s3Endpoint: perNamespace ? required('S3_ENDPOINT_URL') : '',
    region: env.AWS_REGION || 'us-east-1',
    port: Number(env.PORT || 8080),
  };
}

// AWS Signature Version 4, as SeaweedFS's IAM and S3 APIs check it.
const sha256 = (data) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
const uriEncode = (v) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/** Sends a signed request; resolves the response body (2xx), rejects otherwise. */
function signedCall(s, method, url, service, body, contentType, now) {
  const u = new URL(url);
  const amzDate = (now || new Date()).toISOString().replace(/[-:]/g, '').replace(/\\.\\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(body);
  const headers = { 'content-type': contentType, 'host': u.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
  const names = Object.keys(headers).sort();
  const query = [...u.searchParams.entries()].map(([k, v]) => [uriEncode(k), uriEncode(v)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([k, v]) => k + '=' + v).join('&');
  const canonical = [method, u.pathname || '/', query, names.map((n) => n + ':' + headers[n] + '\\n').join(''), names.join(';'), payloadHash].join('\\n');
  const scope = day + '/' + s.region + '/' + service + '/aws4_request';
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\\n');
  const key = hmac(hmac(hmac(hmac('AWS4' + s.secretKey, day), s.region), service), 'aws4_request');
  const signature = crypto.createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  const authorization = 'AWS4-HMAC-SHA256 Credential=' + s.accessKey + '/' + scope + ', SignedHeaders=' + names.join(';') + ', Signature=' + signature;
  return new Promise((resolve, reject) => {
    const req = http.request({ method, hostname: u.hostname, port: u.port || 80, path: u.pathname + u.search, agent: false,
      headers: { ...headers, 'authorization': authorization, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 200 && res.statusCode < 300) resolve(text);
        else reject(new Error(service + ' ' + method + ' ' + u.pathname + u.search + ': HTTP ' + res.statusCode + ' ' + text.slice(0, 300)));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const FORM = 'application/x-www-form-urlencoded; charset=utf-8';
const form = (params) => Object.keys(params).map((k) => uriEncode(k) + '=' + uriEncode(params[k])).join('&');
/** The text of the first <name> element of an IAM XML answer. */
const xmlText = (xml, name) => {
  const m = new RegExp('<' + name + '>([^<]*)</' + name + '>').exec(xml);
  return m ? m[1] : '';
};

/** What a namespace's identity may do: objects under its own prefixes and the shared ones. */
function userPolicy(bucket, ns) {
  return {
    Version: '2012-10-17',
    Statement: [{
      Effect: 'Allow',
      Action: ['s3:Put*', 's3:Get*', 's3:List*', 's3:DeleteObject'],
      Resource: ['artifacts/*', 'private-artifacts/' + ns + '/*', 'private/' + ns + '/*', 'shared/*'].map((p) => 'arn:aws:s3:::' + bucket + '/' + p),
    }],
  };
}

/** The bucket policy: each identity lists its own private prefixes and the shared ones only. */
function bucketPolicy(bucket) {
  const arn = 'arn:aws:s3:::' + bucket;
  const list = (sid, effect, condition) => ({ Sid: sid, Effect: effect, Principal: '*', Action: 's3:ListBucket', Resource: arn, Condition: condition });
  const own = ['private-artifacts/\${aws:username}/*', 'private/\${aws:username}/*'];
  return {
    Version: '2012-10-17',
    Statement: [
      list('AllowOwnDeepList', 'Allow', { StringLike: { 's3:prefix': [...own, 'artifacts/*', 'shared/*'] } }),
      list('AllowHeadBucket', 'Allow', { StringEquals: { 's3:RequestMethod': 'HEAD' } }),
      list('AllowTopLevelDelimitedBrowse', 'Allow', { 'Null': { 's3:prefix': 'true' }, 'StringEquals': { 's3:delimiter': '/' } }),
      list('DenyOtherDeepList', 'Deny', { StringLike: { 's3:prefix': ['private-artifacts/*', 'private/*'] }, StringNotLike: { 's3:prefix': own } }),
    ],
  };
}

/** The SeaweedFS client: one identity per namespace, limited to its prefixes. */
function seaweedfs(s) {
  const iam = (params) => signedCall(s, 'POST', s.iamEndpoint + '/', 'iam', form({ ...params, Version: '2010-05-08' }), FORM);
  return {
    async createIdentity(ns) {
      const created = await iam({ Action: 'CreateAccessKey', UserName: ns });
      const accessKey = xmlText(created, 'AccessKeyId');
      const secretKey = xmlText(created, 'SecretAccessKey');
      if (!accessKey || !secretKey) throw new Error('CreateAccessKey for ' + ns + ' answered no key');
      await iam({ Action: 'PutUserPolicy', UserName: ns, PolicyName: 'KubeflowProject' + ns, PolicyDocument: JSON.stringify(userPolicy(s.bucket, ns)) });
      await signedCall(s, 'PUT', s.s3Endpoint + '/' + s.bucket + '?policy', 's3', JSON.stringify(bucketPolicy(s.bucket)), 'application/json');
      return { accessKey, secretKey };
    },
  };
}

const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');
/** How many objects metacontroller observed of one 'Kind.apiVersion' (a map by name, or a list). */
const observed = (attachments, key) => {
  const v = (attachments || {})[key];
  return Array.isArray(v) ? v.length : Object.keys(v || {}).length;
};
const keyOf = (o) => o.kind + '.' + o.apiVersion;
/** The namespace's object store Secret as metacontroller observed it (a map by name or namespace/name, or a list). */
const observedSecret = (attachments, ns) => {
  const v = (attachments || {})['Secret.v1'];
  const all = Array.isArray(v) ? v : Object.values(v || {});
  return all.find((o) => o && o.metadata && o.metadata.name === OBJECT_STORE_SECRET && (!o.metadata.namespace || o.metadata.namespace === ns) && o.data && o.data.accesskey && o.data.secretkey);
};

function artifactServer(ns, image) {
  const labels = { app: ARTIFACT };
  const restricted = {
    allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false,
    readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 1000, runAsGroup: 0,
  };
  const secretEnv = (name, key) => ({ name, valueFrom: { secretKeyRef: { name: OBJECT_STORE_SECRET, key } } });
  return [
    {
      apiVersion: 'apps/v1', kind: 'Deployment',
      metadata: { name: ARTIFACT, namespace: ns, labels },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: 'default-editor',
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: ARTIFACT, image, imagePullPolicy: 'IfNotPresent',
              ports: [{ name: 'http', containerPort: 3000, protocol: 'TCP' }],
              env: [secretEnv('MINIO_ACCESS_KEY', 'accesskey'), secretEnv('MINIO_SECRET_KEY', 'secretkey')],
              resources: { requests: { cpu: '10m', memory: '70Mi' }, limits: { cpu: '100m', memory: '500Mi' } },
              securityContext: restricted,
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            }],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    {
      apiVersion: 'v1', kind: 'Service',
      metadata: { name: ARTIFACT, namespace: ns, labels },
      spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] },
    },
  ];
}

/** The attachments a namespace should have, and whether the observed ones are complete. */
async function sync(s, parent, attachments, store) {
  const meta = (parent && parent.metadata) || {};
  const ns = meta.name;
  if (!ns || (meta.labels || {})[ENABLED_LABEL] !== 'true') return { status: {}, attachments: [] };
  const desired = [
    {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'kfp-launcher', namespace: ns },
      data: { defaultPipelineRoot: s.defaultPipelineRoot || 'minio://' + s.bucket + '/private-artifacts/' + ns + '/v2/artifacts', clusterDomain: s.clusterDomain },
    },
    {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'metadata-grpc-configmap', namespace: ns },
      data: { METADATA_GRPC_SERVICE_HOST: 'metadata-grpc-service.' + s.kfpNamespace, METADATA_GRPC_SERVICE_PORT: '8080' },
    },
  ];
  if (s.frontendImage) desired.push(...artifactServer(ns, s.frontendImage));
  let keys;
  if (s.isolation === 'shared') {
    keys = { accesskey: b64(s.accessKey), secretkey: b64(s.secretKey) };
  } else {
    const seen = observedSecret(attachments, ns);
    if (seen) keys = { accesskey: seen.data.accesskey, secretkey: seen.data.secretkey };
    else {
      const created = await (store || seaweedfs(s)).createIdentity(ns);
      keys = { accesskey: b64(created.accessKey), secretkey: b64(created.secretKey) };
    }
  }
  desired.push({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: OBJECT_STORE_SECRET, namespace: ns }, data: keys });
  const want = {};
  for (const o of desired) want[keyOf(o)] = (want[keyOf(o)] || 0) + 1;
  const ready = Object.keys(want).every((k) => observed(attachments, k) === want[k]);
  return { status: { 'kubeflow-pipelines-ready': ready ? 'True' : 'False' }, attachments: desired };
}

function serve(s) {
  const server = http.createServer((req, res) => {
    const reply = (code, body) => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/healthz') return reply(200, { ok: true });
    if (req.method !== 'POST' || req.url !== '/sync') return reply(404, { error: 'POST /sync only' });
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        return reply(400, { error: String(e && e.message) });
      }
      // A failed object store call is a 500: metacontroller retries the sync.
      sync(s, body.object || body.parent, body.attachments || body.children).then((out) => reply(200, out), (e) => reply(500, { error: String(e && e.message) }));
    });
  });
  server.listen(s.port);
  return server;
}

module.exports = { settings, sync, seaweedfs, signedCall, serve };
if (require.main === module) serve(settings(process.env));
`;

/** Where the script is mounted and run. */
export const PROFILE_HOOK_SCRIPT_PATH = '/hooks/sync.js';
