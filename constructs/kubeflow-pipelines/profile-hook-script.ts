/**
 * The sync hook that gives each profile namespace its Kubeflow Pipelines objects, as a
 * CommonJS script for a stock Node.js image (no dependencies: node's http module only).
 * Metacontroller's DecoratorController posts the namespace and its current attachments to
 * /sync; the hook answers with the attachments the namespace should have and a readiness
 * status. Written for this project (upstream ships a Python script with the same role).
 *
 * Configuration comes from the environment:
 * - KFP_NAMESPACE: where the ML Metadata gRPC service runs;
 * - FRONTEND_IMAGE: image of the per-namespace artifact server ('' for no artifact server);
 * - DEFAULT_PIPELINE_ROOT: optional default pipeline root (a kfp-launcher ConfigMap);
 * - OBJECT_STORE_ACCESS_KEY / OBJECT_STORE_SECRET_KEY: the object store credentials copied
 *   into each namespace (from the Secret the user created; never part of the output);
 * - PORT: listen port (default 8080).
 *
 * Loaded as a module (`module.exports`), it serves nothing and exposes `settings` and `sync`
 * for tests.
 */
export const PROFILE_HOOK_SCRIPT = `'use strict';
const http = require('http');

const ENABLED_LABEL = 'pipelines.kubeflow.org/enabled';
const ARTIFACT = 'ml-pipeline-ui-artifact';
const OBJECT_STORE_SECRET = 'mlpipeline-minio-artifact';

function settings(env) {
  const required = (k) => {
    if (env[k] === undefined || env[k] === '') throw new Error('environment variable ' + k + ' is not set');
    return env[k];
  };
  return {
    kfpNamespace: required('KFP_NAMESPACE'),
    frontendImage: env.FRONTEND_IMAGE || '',
    defaultPipelineRoot: env.DEFAULT_PIPELINE_ROOT || '',
    accessKey: required('OBJECT_STORE_ACCESS_KEY'),
    secretKey: required('OBJECT_STORE_SECRET_KEY'),
    port: Number(env.PORT || 8080),
  };
}

const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');
/** How many objects metacontroller observed of one 'Kind.apiVersion' (a map by name, or a list). */
const observed = (attachments, key) => {
  const v = (attachments || {})[key];
  return Array.isArray(v) ? v.length : Object.keys(v || {}).length;
};
const keyOf = (o) => o.kind + '.' + o.apiVersion;

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
function sync(s, parent, attachments) {
  const meta = (parent && parent.metadata) || {};
  const ns = meta.name;
  if (!ns || (meta.labels || {})[ENABLED_LABEL] !== 'true') return { status: {}, attachments: [] };
  const desired = [{
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'metadata-grpc-configmap', namespace: ns },
    data: { METADATA_GRPC_SERVICE_HOST: 'metadata-grpc-service.' + s.kfpNamespace, METADATA_GRPC_SERVICE_PORT: '8080' },
  }];
  if (s.defaultPipelineRoot) {
    desired.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kfp-launcher', namespace: ns }, data: { defaultPipelineRoot: s.defaultPipelineRoot } });
  }
  if (s.frontendImage) desired.push(...artifactServer(ns, s.frontendImage));
  desired.push({
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: { name: OBJECT_STORE_SECRET, namespace: ns },
    data: { accesskey: b64(s.accessKey), secretkey: b64(s.secretKey) },
  });
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
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        reply(200, sync(s, body.object || body.parent, body.attachments || body.children));
      } catch (e) {
        reply(400, { error: String(e && e.message) });
      }
    });
  });
  server.listen(s.port);
  return server;
}

module.exports = { settings, sync, serve };
if (require.main === module) serve(settings(process.env));
`;

/** Where the script is mounted and run. */
export const PROFILE_HOOK_SCRIPT_PATH = '/hooks/sync.js';
