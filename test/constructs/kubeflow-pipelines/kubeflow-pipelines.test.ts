import { App } from 'cdk8s';
import { parse } from 'yaml';
import { ArgoWorkflows } from '../../../constructs/argo-workflows';
import { KubeflowPipelines, KubeflowPipelinesProps, PipelineStore } from '../../../constructs/kubeflow-pipelines';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform, PlatformError } from '../../../lib/platform';
import { modelOf } from '../../../lib/platform-model';
import { ISTIO } from '../../../lib/prerequisites';
import { wiringTable } from '../../../lib/report';
import { buildPlatform } from '../../../lib/synth';
import { validateCustomResources } from '../../../lib/validation';
import { Workload } from '../../../lib/workload';
import { pinnable } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: KubeflowPipelinesProps = {}, withArgo = true, certificates = CertificateProvider.certManager()) {
  // Istio: multi-user routes the UI through its gateway (VirtualServices), and its
  // AuthorizationPolicies need Istio (KFP-ISOLATION).
  const p = new Platform(new App(), 'p', { name: 'kfp', certificates, prerequisites: [CERT_MANAGER, ISTIO] });
  if (withArgo) new ArgoWorkflows(p, 'argo-workflows');
  const kfp = new KubeflowPipelines(p, 'kubeflow-pipelines', props);
  return { p, kfp };
}

const built = buildPlatform(platform().p);
const { ofKind, named, can, objects } = objectsOf(built, 'kubeflow-pipelines');
const container = (d: string) => named('Deployment', d).spec.template.spec.containers[0];
const env = (d: string) => Object.fromEntries(container(d).env.map((e: any) => [e.name, e.value ?? e.valueFrom]));

describe('Kubeflow Pipelines component', () => {
  test('synthesizes with only Argo Workflows, every check passing', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['argo-workflows', 'kubeflow-pipelines']);
    expect(built.model.components[1].requires.map((r) => `${r.group}/${r.kind}`)).toEqual(['argoproj.io/Workflow']);
  });

  test('fails without Argo Workflows, naming the provider', () => {
    const { p } = platform({}, false);
    let problems: string[] = [];
    try {
      buildPlatform(p);
    } catch (e) {
      problems = (e as PlatformError).problems;
    }
    expect(problems.join('\n')).toContain('ArgoWorkflows');
  });

  test('the four CRDs of KFP 2.17.0, and the third-party Application CRD its install ships', () => {
    expect(ofKind('CustomResourceDefinition').map((c) => [c.metadata.name, c.spec.versions.map((v: any) => v.name).join(), c.spec.scope])).toEqual([
      ['scheduledworkflows.kubeflow.org', 'v1beta1', 'Namespaced'],
      ['viewers.kubeflow.org', 'v1beta1', 'Namespaced'],
      ['pipelines.pipelines.kubeflow.org', 'v2beta1', 'Namespaced'],
      ['pipelineversions.pipelines.kubeflow.org', 'v2beta1', 'Namespaced'],
      ['applications.app.k8s.io', 'v1beta1', 'Namespaced'],
    ]);
    expect(named('CustomResourceDefinition', 'scheduledworkflows.kubeflow.org').spec.names.shortNames).toEqual(['swf']);
    expect(named('CustomResourceDefinition', 'pipelineversions.pipelines.kubeflow.org').spec.versions[0].subresources).toEqual({ status: {} });
  });

  describe('the Application CRD (app.k8s.io/v1beta1)', () => {
    const crd = named('CustomResourceDefinition', 'applications.app.k8s.io');
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    const app = (spec: any) => ({ apiVersion: 'app.k8s.io/v1beta1', kind: 'Application', metadata: { name: 'kubeflow-pipelines', namespace: 'kubeflow' }, spec });

    test('names, printer columns, status subresource and annotations as upstream', () => {
      expect(crd.spec.names).toEqual({ kind: 'Application', listKind: 'ApplicationList', plural: 'applications', singular: 'application', shortNames: ['app'], categories: ['all'] });
      expect(crd.spec.versions[0].additionalPrinterColumns.map((c: any) => `${c.name}:${c.jsonPath}`)).toEqual([
        'Type:.spec.descriptor.type', 'Version:.spec.descriptor.version', 'Owner:.spec.addOwnerRef', 'Ready:.status.componentsReady', 'Age:.metadata.creationTimestamp',
      ]);
      expect(crd.spec.versions[0].subresources).toEqual({ status: {} });
      expect(crd.metadata.annotations['api-approved.kubernetes.io']).toBe('https://github.com/kubernetes-sigs/application/pull/2');
    });

    test('a full schema: every field of spec and status, nothing left open', () => {
      expect(Object.keys(schema.properties.spec.properties).sort()).toEqual(['addOwnerRef', 'assemblyPhase', 'componentKinds', 'descriptor', 'info', 'selector']);
      expect(Object.keys(schema.properties.spec.properties.descriptor.properties).sort()).toEqual(['description', 'icons', 'keywords', 'links', 'maintainers', 'notes', 'owners', 'type', 'version']);
      expect(Object.keys(schema.properties.spec.properties.info.items.properties.valueFrom.properties).sort()).toEqual(['configMapKeyRef', 'ingressRef', 'secretKeyRef', 'serviceRef', 'type']);
      expect(Object.keys(schema.properties.status.properties).sort()).toEqual(['components', 'componentsReady', 'conditions', 'observedGeneration']);
      expect(JSON.stringify(schema)).not.toContain('x-kubernetes-preserve-unknown-fields');
    });

    test("upstream's kubeflow-pipelines Application validates; unknown or mistyped fields do not", () => {
      const upstreamLike = app({
        addOwnerRef: true,
        selector: { matchLabels: { 'application-crd-id': 'kubeflow-pipelines' } },
        descriptor: { version: 'unknown', type: 'Kubeflow Pipelines', description: 'ML workflows', maintainers: [{ name: 'Kubeflow Pipelines', url: 'https://github.com/kubeflow/pipelines' }], links: [{ description: 'Docs', url: 'https://www.kubeflow.org/docs/pipelines/' }], notes: 'x' },
        info: [{ name: 'Console', value: 'https://example.com' }, { name: 'UI', valueFrom: { type: 'ServiceRef', serviceRef: { name: 'ml-pipeline-ui', port: 80 } } }],
        componentKinds: [{ group: 'v1', kind: 'ServiceAccount' }, { group: 'apps/v1', kind: 'Deployment' }],
      });
      const [ok, unknown, mistyped, missing] = validateCustomResources([
        upstreamLike, app({ addOwnerRefs: true }), app({ addOwnerRef: 'yes' }), app({ componentKinds: [{ kind: 'Deployment' }] }),
      ], crd);
      expect(ok).toEqual([]);
      expect(unknown.map((i) => `${i.path}: ${i.message}`).join()).toMatch(/addOwnerRefs.*unknown field/);
      expect(mistyped.length).toBeGreaterThan(0);
      expect(missing.map((i) => `${i.path} ${i.message}`).join()).toMatch(/group/);
    });
  });

  test('every workload from its 2.17.0 image, restricted, as user 1000', () => {
    const images: Record<string, string> = {
      'ml-pipeline': 'kfp-api-server',
      'ml-pipeline-persistenceagent': 'kfp-persistence-agent',
      'ml-pipeline-scheduledworkflow': 'kfp-scheduled-workflow-controller',
      'ml-pipeline-ui': 'kfp-frontend',
      'ml-pipeline-viewer-crd': 'kfp-viewer-crd-controller',
      'ml-pipeline-visualizationserver': 'kfp-visualization-server',
      'cache-server': 'kfp-cache-server',
      'metadata-writer': 'kfp-metadata-writer',
    };
    for (const [d, image] of Object.entries(images)) {
      const c = container(d);
      expect(c.image).toBe(`ghcr.io/kubeflow/${image}:2.17.0`);
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, runAsNonRoot: true, runAsUser: 1000, runAsGroup: 0 });
    }
    expect(ofKind('Deployment').map((d) => d.metadata.name).sort()).toEqual([
      'cache-server', 'metadata-envoy-deployment', 'metadata-grpc-deployment', 'metadata-writer', 'ml-pipeline', 'ml-pipeline-persistenceagent',
      'ml-pipeline-scheduledworkflow', 'ml-pipeline-ui', 'ml-pipeline-viewer-crd', 'ml-pipeline-visualizationserver', 'mysql', 'seaweedfs',
    ]);
  });

  test('API server: http 8888 and grpc 8887, healthz probes, database and object store by Secret reference', () => {
    expect(named('Service', 'ml-pipeline').spec.ports.map((p: any) => [p.name, p.port])).toEqual([['http', 8888], ['grpc', 8887]]);
    expect(container('ml-pipeline').readinessProbe.httpGet).toEqual({ path: '/apis/v1beta1/healthz', port: 'http' });
    const e = env('ml-pipeline');
    expect(e.DBCONFIG_MYSQLCONFIG_HOST).toBe('mysql');
    expect(e.DBCONFIG_MYSQLCONFIG_PASSWORD).toEqual({ secretKeyRef: { name: 'mysql-secret', key: 'password' } });
    expect(e.OBJECTSTORECONFIG_HOST).toBe('seaweedfs.kubeflow');
    expect(e.OBJECTSTORECONFIG_SECRETACCESSKEY).toEqual({ secretKeyRef: { name: 'mlpipeline-minio-artifact', key: 'secretkey' } });
    expect(e.MULTIUSER).toBe('false');
  });

  test('included storage: MySQL and SeaweedFS on claims, restricted, no Secret emitted', () => {
    expect(ofKind('PersistentVolumeClaim').map((c) => [c.metadata.name, c.spec.resources.requests.storage])).toEqual([['mysql-pv-claim', '20Gi'], ['seaweedfs-pvc', '20Gi']]);
    expect(env('mysql').MYSQL_ROOT_PASSWORD).toEqual({ secretKeyRef: { name: 'mysql-secret', key: 'password' } });
    expect(named('Deployment', 'mysql').spec.template.spec.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, fsGroup: 999 });
    expect(named('Service', 'seaweedfs').spec.ports).toContainEqual({ name: 'http-s3-compat', port: 9000, targetPort: 's3', protocol: 'TCP' });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  test('KATIB-MYSQL-PROBE: the included MySQL has no liveness probe (upstream\'s has no probes) to restart it while it starts; ready once it accepts connections', () => {
    expect([container('mysql').livenessProbe, container('mysql').startupProbe]).toEqual([undefined, undefined]);
    expect(container('mysql').readinessProbe.tcpSocket).toEqual({ port: 'mysql' });
  });

  test('external storage: no MySQL or SeaweedFS, the workloads point at the given hosts', () => {
    const { p } = platform({ database: { external: { host: 'db.example.com', port: 3307 } }, objectStore: { external: { host: 's3.example.com', region: 'eu-west-1' } }, databaseSecret: 'kfp-db' });
    const o = objectsOf(buildPlatform(p), 'kubeflow-pipelines');
    expect(o.ofKind('Deployment').map((d) => d.metadata.name)).not.toContain('mysql');
    expect(o.ofKind('PersistentVolumeClaim')).toEqual([]);
    const e = Object.fromEntries(o.named('Deployment', 'ml-pipeline').spec.template.spec.containers[0].env.map((x: any) => [x.name, x.value ?? x.valueFrom]));
    expect([e.DBCONFIG_MYSQLCONFIG_HOST, e.DBCONFIG_MYSQLCONFIG_PORT, e.OBJECTSTORECONFIG_HOST, e.OBJECTSTORECONFIG_PORT, e.OBJECTSTORECONFIG_SECURE, e.OBJECTSTORECONFIG_REGION])
      .toEqual(['db.example.com', '3307', 's3.example.com', '443', 'true', 'eu-west-1']);
    expect(e.DBCONFIG_MYSQLCONFIG_USER).toEqual({ secretKeyRef: { name: 'kfp-db', key: 'username' } });
  });

  test('cache webhook as upstream\'s cert-manager env: path /mutate, Ignore, v1beta1, 5s, cache_enabled pods', () => {
    const m = named('MutatingWebhookConfiguration', 'cache-webhook-kubeflow');
    expect(m.webhooks).toHaveLength(1);
    expect(m.webhooks[0]).toMatchObject({
      name: 'cache-server.kubeflow.svc',
      failurePolicy: 'Ignore',
      sideEffects: 'None',
      admissionReviewVersions: ['v1beta1'],
      timeoutSeconds: 5,
      objectSelector: { matchLabels: { 'pipelines.kubeflow.org/cache_enabled': 'true' } },
      clientConfig: { service: { name: 'cache-server', namespace: 'kubeflow', path: '/mutate', port: 443 } },
    });
    expect(m.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kubeflow/kfp-cache-cert');
    expect(named('Certificate', 'kfp-cache-cert').spec.secretName).toBe('webhook-server-tls');
    expect(container('cache-server').volumeMounts).toEqual([{ name: 'webhook-cert', mountPath: '/etc/webhook/certs', readOnly: true }]);
    // Upstream's port name, targeted by the cache-server Service on 443.
    expect(container('cache-server').ports).toEqual([{ name: 'webhook-api', containerPort: 8443, protocol: 'TCP' }]);
    expect(named('Service', 'cache-server').spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 'webhook-api', protocol: 'TCP' }]);
  });

  test('the cache webhook\'s failure policy is a platform choice (caching is an optimization): Fail passes every check', () => {
    const p = new Platform(new App(), 'p', {
      name: 'kfp',
      prerequisites: [CERT_MANAGER],
      webhooks: { 'kubeflow-pipelines/cache-webhook-kubeflow/cache-server.kubeflow.svc': { failurePolicy: 'Fail' } },
    });
    new ArgoWorkflows(p, 'argo-workflows');
    new KubeflowPipelines(p, 'kubeflow-pipelines');
    const o = objectsOf(buildPlatform(p), 'kubeflow-pipelines');
    expect(o.named('MutatingWebhookConfiguration', 'cache-webhook-kubeflow').webhooks[0].failurePolicy).toBe('Fail');
  });

  test('cache: false drops the cache server and its webhook', () => {
    const o = objectsOf(buildPlatform(platform({ cache: false }).p), 'kubeflow-pipelines');
    expect(o.ofKind('MutatingWebhookConfiguration')).toEqual([]);
    expect(o.ofKind('Deployment').map((d) => d.metadata.name)).not.toContain('cache-server');
  });

  test('single-user RBAC is namespaced as upstream; multi-user uses ClusterRoles and watches every namespace', () => {
    expect(can('Role', 'ml-pipeline-role', 'argoproj.io', 'workflows', 'create')).toBe(true);
    expect(can('Role', 'ml-pipeline-role', '', 'secrets', 'get', 'kfp-mlflow-credentials')).toBe(true);
    expect(can('Role', 'ml-pipeline-scheduledworkflow-role', 'pipelines.kubeflow.org', 'runs', 'create')).toBe(true);
    expect(can('Role', 'ml-pipeline-viewer-crd-role', 'apps', 'deployments', 'create')).toBe(true);
    expect(ofKind('ClusterRole').map((r) => r.metadata.name)).not.toContain('ml-pipeline-role');
    const o = objectsOf(buildPlatform(platform({ multiUser: true }).p), 'kubeflow-pipelines');
    expect(o.can('ClusterRole', 'ml-pipeline-role', 'authentication.k8s.io', 'tokenreviews', 'create')).toBe(true);
    expect(o.named('Deployment', 'ml-pipeline-persistenceagent').spec.template.spec.containers[0].env[0]).toEqual({ name: 'NAMESPACE', value: '' });
    expect(o.ofKind('CustomResourceDefinition').map((c) => [c.metadata.name, c.spec.scope]).slice(5)).toEqual([
      ['compositecontrollers.metacontroller.k8s.io', 'Cluster'],
      ['controllerrevisions.metacontroller.k8s.io', 'Namespaced'],
      ['decoratorcontrollers.metacontroller.k8s.io', 'Cluster'],
    ]);
    expect(o.named('CustomResourceDefinition', 'decoratorcontrollers.metacontroller.k8s.io').spec.names.shortNames).toEqual(['dec', 'decorators']);
  });

  test('single-user installs no metacontroller CRDs', () => {
    expect(ofKind('CustomResourceDefinition').map((c) => c.metadata.name).filter((n) => n.includes('metacontroller'))).toEqual([]);
  });

  test('aggregation roles chain into kubeflow-edit/view, with upstream wildcards listed', () => {
    expect(named('ClusterRole', 'kubeflow-pipelines-edit').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-pipelines-edit': 'true' } }] });
    expect(named('ClusterRole', 'kubeflow-pipelines-view').metadata.labels).toEqual({
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-pipelines-edit': 'true',
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true',
    });
    expect(can('ClusterRole', 'aggregate-to-kubeflow-pipelines-edit', 'pipelines.kubeflow.org', 'runs', 'terminate')).toBe(true);
    expect(can('ClusterRole', 'aggregate-to-kubeflow-pipelines-edit', 'kubeflow.org', 'scheduledworkflows', 'deletecollection')).toBe(true);
    expect(can('ClusterRole', 'aggregate-to-kubeflow-pipelines-view', 'pipelines.kubeflow.org', 'runs', 'readArtifact')).toBe(true);
  });

  describe('Kubernetes-native pipeline store', () => {
    const k8s = buildPlatform(platform({ pipelineStore: PipelineStore.KUBERNETES }).p);
    const o = objectsOf(k8s, 'kubeflow-pipelines');
    const api = o.container('ml-pipeline');

    test('the database store is the default: no webhook port, no PipelineVersion webhooks, no write access to Pipelines', () => {
      expect(container('ml-pipeline').args).toBeUndefined();
      expect(named('Service', 'ml-pipeline').spec.ports.map((p: any) => p.port)).toEqual([8888, 8887]);
      expect(ofKind('ValidatingWebhookConfiguration')).toEqual([]);
      expect(can('Role', 'ml-pipeline-role', 'pipelines.kubeflow.org', 'pipelines', 'create')).toBe(false);
      expect(can('Role', 'ml-pipeline-role', 'pipelines.kubeflow.org', 'pipelineversions', 'get')).toBe(false);
    });

    test('the API server runs with --pipelinesStoreKubernetes and the webhook key pair, on container and Service port 8443 (last)', () => {
      expect(api.command).toEqual(['/bin/apiserver']);
      expect(api.args).toContain('--pipelinesStoreKubernetes=true');
      expect(api.args).toEqual(expect.arrayContaining(['--webhookTLSCertPath=/etc/webhook/certs/tls.crt', '--webhookTLSKeyPath=/etc/webhook/certs/tls.key']));
      expect(api.ports).toContainEqual({ name: 'webhook', containerPort: 8443, protocol: 'TCP' });
      expect(api.volumeMounts).toEqual([
        { name: 'mlflow-tracking-ca', mountPath: '/etc/mlflow-tracking-ca', readOnly: true },
        { name: 'webhook-cert', mountPath: '/etc/webhook/certs', readOnly: true },
      ]);
      expect(o.named('Deployment', 'ml-pipeline').spec.template.spec.volumes).toEqual([
        { name: 'mlflow-tracking-ca', configMap: { name: 'mlflow-tracking-ca', optional: true } },
        { name: 'webhook-cert', secret: { secretName: 'kfp-api-webhook-cert', defaultMode: 420 } },
      ]);
      // One Service: the webhooks use ml-pipeline itself, as upstream.
      expect(o.ofKind('Service').filter((x) => x.metadata.name === 'ml-pipeline')).toHaveLength(1);
      expect(o.named('Service', 'ml-pipeline').spec.ports.map((p: any) => [p.name, p.port, p.targetPort])).toEqual([['http', 8888, 'http'], ['grpc', 8887, 'grpc'], ['webhook', 8443, 'webhook']]);
    });

    test('RBAC on Pipelines and PipelineVersions (status and finalizers included)', () => {
      for (const r of ['pipelines', 'pipelines/finalizers', 'pipelineversions', 'pipelineversions/status', 'pipelineversions/finalizers']) {
        for (const v of ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete']) expect(o.can('Role', 'ml-pipeline-role', 'pipelines.kubeflow.org', r, v)).toBe(true);
      }
      const mu = objectsOf(buildPlatform(platform({ pipelineStore: PipelineStore.KUBERNETES, multiUser: true }).p), 'kubeflow-pipelines');
      expect(mu.can('ClusterRole', 'ml-pipeline-role', 'pipelines.kubeflow.org', 'pipelineversions/status', 'update')).toBe(true);
    });

    test("upstream's two PipelineVersion webhooks: names, paths, port 8443, Fail, v1, CREATE/UPDATE of namespaced v2beta1 pipelineversions", () => {
      const rules = [{ apiGroups: ['pipelines.kubeflow.org'], apiVersions: ['v2beta1'], resources: ['pipelineversions'], operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }];
      for (const [kind, path] of [['ValidatingWebhookConfiguration', '/webhooks/validate-pipelineversion'], ['MutatingWebhookConfiguration', '/webhooks/mutate-pipelineversion']]) {
        const cfg = o.named(kind, 'pipelineversions.pipelines.kubeflow.org');
        expect(cfg.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'kubeflow/kfp-api-webhook-cert' });
        expect(cfg.webhooks).toHaveLength(1);
        expect(cfg.webhooks[0]).toMatchObject({
          name: 'pipelineversions.pipelines.kubeflow.org',
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          rules,
          clientConfig: { service: { name: 'ml-pipeline', namespace: 'kubeflow', path, port: 8443 } },
        });
      }
      expect(o.named('Certificate', 'kfp-api-webhook-cert').spec).toMatchObject({ secretName: 'kfp-api-webhook-cert', dnsNames: ['ml-pipeline.kubeflow.svc', 'ml-pipeline.kubeflow.svc.cluster.local'] });
    });

    test('the checks resolve both webhooks to the API server pods and their CA (MLP020, MLP021)', () => {
      const hooks = modelOf(k8s.model).webhooks.filter((w) => w.name === 'pipelineversions.pipelines.kubeflow.org');
      expect(hooks.map((w) => w.type).sort()).toEqual(['mutating', 'validating']);
      for (const w of hooks) expect(w.caSource).toBe('cert-manager kubeflow/kfp-api-webhook-cert');
      expect(wiringTable(k8s.model).filter((l) => l.includes('pipelineversion'))).toEqual([
        'validating pipelineversions.pipelines.kubeflow.org/pipelineversions.pipelines.kubeflow.org -> kubeflow/ml-pipeline:8443/webhooks/validate-pipelineversion -> Deployment/ml-pipeline:8443 -> cert-manager kubeflow/kfp-api-webhook-cert -> Fail',
        'mutating pipelineversions.pipelines.kubeflow.org/pipelineversions.pipelines.kubeflow.org -> kubeflow/ml-pipeline:8443/webhooks/mutate-pipelineversion -> Deployment/ml-pipeline:8443 -> cert-manager kubeflow/kfp-api-webhook-cert -> Fail',
      ]);
    });

    test('OpenShift service-ca annotates the shared ml-pipeline Service', () => {
      const os = objectsOf(buildPlatform(platform({ pipelineStore: PipelineStore.KUBERNETES }, true, CertificateProvider.openShiftServiceCa()).p), 'kubeflow-pipelines');
      expect(os.named('Service', 'ml-pipeline').metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'kfp-api-webhook-cert' });
      expect(os.named('ValidatingWebhookConfiguration', 'pipelineversions.pipelines.kubeflow.org').metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    });
  });

  describe('run-time defects found against upstream 2.17.0 (multi-user render unless said)', () => {
    const mu = objectsOf(buildPlatform(platform({ multiUser: true }).p), 'kubeflow-pipelines');
    const envOf = (o: ReturnType<typeof objectsOf>, d: string) => Object.fromEntries(o.container(d).env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    const podSpec = (o: ReturnType<typeof objectsOf>, d: string) => o.named('Deployment', d).spec.template.spec;
    const tokenVolume = (file: string) => ({ name: file, projected: { sources: [{ serviceAccountToken: { audience: 'pipelines.kubeflow.org', expirationSeconds: 3600, path: file } }] } });

    test('KFP-API-DB: the API server logs in with the DBCONFIG_MYSQLCONFIG_* keys it reads, never the ignored DBCONFIG_USER/PASSWORD', () => {
      for (const o of [mu, objectsOf(built, 'kubeflow-pipelines')]) {
        const e = envOf(o, 'ml-pipeline');
        expect(e.DBCONFIG_MYSQLCONFIG_USER).toEqual({ secretKeyRef: { name: 'mysql-secret', key: 'username' } });
        expect(e.DBCONFIG_MYSQLCONFIG_PASSWORD).toEqual({ secretKeyRef: { name: 'mysql-secret', key: 'password' } });
        expect([e.DBCONFIG_MYSQLCONFIG_HOST, e.DBCONFIG_MYSQLCONFIG_PORT, e.DBCONFIG_MYSQLCONFIG_DBNAME]).toEqual(['mysql', '3306', 'mlpipeline']);
        expect(Object.keys(e).filter((k) => /^DBCONFIG_(USER|PASSWORD|HOST|PORT)$/.test(k))).toEqual([]);
      }
    });

    test('KFP-API-DB: the API server waits for its database with a startup probe (a minute) before liveness counts', () => {
      expect(mu.container('ml-pipeline').startupProbe).toEqual({ httpGet: { path: '/apis/v1beta1/healthz', port: 'http' }, initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 2, failureThreshold: 12 });
    });

    test('KFP-API-USERID: multi-user API server and UI read kubeflow-userid with an empty prefix (not the Google IAP defaults); props override both', () => {
      for (const d of ['ml-pipeline', 'ml-pipeline-ui']) {
        expect(envOf(mu, d)).toMatchObject({ KUBEFLOW_USERID_HEADER: 'kubeflow-userid', KUBEFLOW_USERID_PREFIX: '' });
      }
      const custom = objectsOf(buildPlatform(platform({ multiUser: true, userIdHeader: 'x-user', userIdPrefix: 'oidc:' }).p), 'kubeflow-pipelines');
      for (const d of ['ml-pipeline', 'ml-pipeline-ui']) expect(envOf(custom, d)).toMatchObject({ KUBEFLOW_USERID_HEADER: 'x-user', KUBEFLOW_USERID_PREFIX: 'oidc:' });
      expect(envOf(custom, 'ml-pipeline-scheduledworkflow').USER_IDENTITY_HEADER).toBe('x-user');
      expect(env('ml-pipeline').KUBEFLOW_USERID_HEADER).toBeUndefined();
    });

    test('KFP-API-RUNNER-SA: multi-user runs use the profile\'s default-editor; single-user keeps the built-in pipeline-runner', () => {
      expect(envOf(mu, 'ml-pipeline').DEFAULTPIPELINERUNNERSERVICEACCOUNT).toBe('default-editor');
      expect(env('ml-pipeline').DEFAULTPIPELINERUNNERSERVICEACCOUNT).toBeUndefined();
    });

    test('KFP-PA-TOKEN: the persistence agent mounts a projected token (audience pipelines.kubeflow.org) at /var/run/secrets/kubeflow/tokens, in both modes', () => {
      for (const o of [mu, objectsOf(built, 'kubeflow-pipelines')]) {
        expect(podSpec(o, 'ml-pipeline-persistenceagent').volumes).toContainEqual(tokenVolume('persistenceagent-sa-token'));
        expect(o.container('ml-pipeline-persistenceagent').volumeMounts).toContainEqual({ name: 'persistenceagent-sa-token', mountPath: '/var/run/secrets/kubeflow/tokens', readOnly: true });
      }
    });

    test('KFP-PA-REPORT: the persistence agent may `report` workflows and scheduledworkflows (checked by SubjectAccessReview)', () => {
      for (const r of ['workflows', 'scheduledworkflows']) {
        expect(mu.can('ClusterRole', 'ml-pipeline-persistenceagent-role', 'pipelines.kubeflow.org', r, 'report')).toBe(true);
        expect(can('Role', 'ml-pipeline-persistenceagent-role', 'pipelines.kubeflow.org', r, 'report')).toBe(true);
      }
      expect(mu.can('ClusterRole', 'ml-pipeline-persistenceagent-role', 'pipelines.kubeflow.org', 'runs', 'report')).toBe(false);
    });

    test('KFP-PA-REPORT: multi-user, `report` is an accessReview of the persistence agent (MLP031 checks it); single-user, no review runs', () => {
      const agentOf = (kfp: KubeflowPipelines) => kfp.node.findAll().find((x): x is Workload => x instanceof Workload && x.name === 'ml-pipeline-persistenceagent')!;
      expect(agentOf(platform({ multiUser: true }).kfp).accessReviews.map((n) => n.rule)).toEqual([
        { apiGroups: ['pipelines.kubeflow.org'], resources: ['workflows', 'scheduledworkflows'], verbs: ['report'] },
      ]);
      expect(agentOf(platform().kfp).accessReviews).toEqual([]);
    });

    test('KFP-SWF-AUTH: the scheduled-workflow controller has its token and, multi-user, its identity in the user header', () => {
      expect(podSpec(mu, 'ml-pipeline-scheduledworkflow').volumes).toContainEqual(tokenVolume('scheduledworkflow-sa-token'));
      expect(mu.container('ml-pipeline-scheduledworkflow').volumeMounts).toContainEqual({ name: 'scheduledworkflow-sa-token', mountPath: '/var/run/secrets/kubeflow/tokens', readOnly: true });
      expect(envOf(mu, 'ml-pipeline-scheduledworkflow')).toMatchObject({
        NAMESPACE_SELF: { fieldRef: { fieldPath: 'metadata.namespace' } },
        SERVICE_ACCOUNT_NAME: { fieldRef: { fieldPath: 'spec.serviceAccountName' } },
        USER_IDENTITY_HEADER: 'kubeflow-userid',
        USER_IDENTITY_VALUE: 'system:serviceaccount:$(NAMESPACE_SELF):$(SERVICE_ACCOUNT_NAME)',
      });
      // $(...) references resolve only to variables defined before them.
      const names = mu.container('ml-pipeline-scheduledworkflow').env.map((e: any) => e.name);
      expect(names.indexOf('USER_IDENTITY_VALUE')).toBeGreaterThan(Math.max(names.indexOf('NAMESPACE_SELF'), names.indexOf('SERVICE_ACCOUNT_NAME')));
      expect(env('ml-pipeline-scheduledworkflow').USER_IDENTITY_HEADER).toBeUndefined();
    });

    test('scheduled-workflow controller: upstream\'s client rate (QPS 10, burst 20, not the image\'s 5 and 10), resync and metrics port, in both modes', () => {
      for (const o of [mu, objectsOf(built, 'kubeflow-pipelines')]) {
        expect(envOf(o, 'ml-pipeline-scheduledworkflow')).toMatchObject({ CLIENT_QPS: '10', CLIENT_BURST: '20', RESYNC_INTERVAL_SECONDS: '30', METRICS_PORT: '9090' });
        expect(o.container('ml-pipeline-scheduledworkflow').ports).toContainEqual(expect.objectContaining({ containerPort: 9090 }));
      }
    });

    test('MLflow plugin (enabled by the API server image\'s config.json): its CA bundle from the optional mlflow-tracking-ca ConfigMap, and its experiments in the API server\'s namespace, in both modes', () => {
      for (const o of [mu, objectsOf(built, 'kubeflow-pipelines')]) {
        expect(podSpec(o, 'ml-pipeline').volumes).toContainEqual({ name: 'mlflow-tracking-ca', configMap: { name: 'mlflow-tracking-ca', optional: true } });
        expect(o.container('ml-pipeline').volumeMounts).toContainEqual({ name: 'mlflow-tracking-ca', mountPath: '/etc/mlflow-tracking-ca', readOnly: true });
        for (const verb of ['create', 'get', 'list', 'update']) expect({ verb, ok: o.can('Role', 'ml-pipeline-role', 'mlflow.kubeflow.org', 'experiments', verb) }).toEqual({ verb, ok: true });
        expect(o.can('Role', 'ml-pipeline-role', 'mlflow.kubeflow.org', 'experiments', 'delete')).toBe(false);
      }
      expect(mu.can('ClusterRole', 'ml-pipeline-role', 'mlflow.kubeflow.org', 'experiments', 'get')).toBe(false);
    });

    test('KFP-API-V2IMAGES: runs get the 2.17.0 driver and launcher, mirrored and overridable like every image', () => {
      expect(envOf(mu, 'ml-pipeline')).toMatchObject({ V2_DRIVER_IMAGE: 'ghcr.io/kubeflow/kfp-driver:2.17.0', V2_LAUNCHER_IMAGE: 'ghcr.io/kubeflow/kfp-launcher:2.17.0' });
      const p = new Platform(new App(), 'p', {
        name: 'kfp',
        prerequisites: [CERT_MANAGER],
        images: { registryMirror: 'mirror.example.com', overrides: { 'kubeflow-pipelines/launcher': { tag: '2.17.1' } } },
      });
      new ArgoWorkflows(p, 'argo-workflows');
      new KubeflowPipelines(p, 'kubeflow-pipelines');
      const e = envOf(objectsOf(buildPlatform(p), 'kubeflow-pipelines'), 'ml-pipeline');
      expect([e.V2_DRIVER_IMAGE, e.V2_LAUNCHER_IMAGE]).toEqual(['mirror.example.com/kubeflow/kfp-driver:2.17.0', 'mirror.example.com/kubeflow/kfp-launcher:2.17.1']);
    });

    test('KFP-UI-AUTHZ: the multi-user UI authorizes (ENABLE_AUTHZ), runs in KUBEFLOW mode with the artifact proxy and the viewer template', () => {
      expect(envOf(mu, 'ml-pipeline-ui')).toMatchObject({
        ENABLE_AUTHZ: 'true',
        DEPLOYMENT: 'KUBEFLOW',
        FRONTEND_SERVER_NAMESPACE: { fieldRef: { fieldPath: 'metadata.namespace' } },
        ARTIFACTS_SERVICE_PROXY_NAME: 'ml-pipeline-ui-artifact',
        ARTIFACTS_SERVICE_PROXY_PORT: '80',
        ARTIFACTS_SERVICE_PROXY_ENABLED: 'false',
        VIEWER_TENSORBOARD_POD_TEMPLATE_SPEC_PATH: '/etc/config/viewer-pod-template.json',
      });
      expect(mu.container('ml-pipeline-ui').volumeMounts).toContainEqual({ name: 'config-volume', mountPath: '/etc/config', readOnly: true });
      expect(JSON.parse(mu.named('ConfigMap', 'ml-pipeline-ui-configmap').data['viewer-pod-template.json'])).toEqual({ spec: { serviceAccountName: 'default-editor' } });
      const proxy = objectsOf(buildPlatform(platform({ multiUser: true, artifactServer: true }).p), 'kubeflow-pipelines');
      expect(envOf(proxy, 'ml-pipeline-ui').ARTIFACTS_SERVICE_PROXY_ENABLED).toBe('true');
      expect(env('ml-pipeline-ui').ENABLE_AUTHZ).toBeUndefined();
    });

    test('KFP-UI-AUTHZ: the UI reaches the object store at the complete host (no namespace appended)', () => {
      expect(envOf(mu, 'ml-pipeline-ui')).toMatchObject({ MINIO_HOST: 'seaweedfs.kubeflow', MINIO_NAMESPACE: '', MINIO_PORT: '9000' });
    });

    test('KFP-UI-SECRETS: the UI reads Secrets (and ConfigMaps) in its own namespace only', () => {
      expect(mu.can('ClusterRole', 'ml-pipeline-ui-role', '', 'secrets', 'get')).toBe(false);
      expect(mu.can('ClusterRole', 'ml-pipeline-ui-role', '', 'pods/log', 'get')).toBe(true);
      const role = mu.named('Role', 'ml-pipeline-ui-role');
      expect(role.metadata.namespace).toBe('kubeflow');
      for (const r of ['secrets', 'configmaps']) for (const v of ['get', 'list']) expect(mu.can('Role', 'ml-pipeline-ui-role', '', r, v)).toBe(true);
      expect(mu.named('RoleBinding', 'ml-pipeline-ui-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'ml-pipeline-ui', namespace: 'kubeflow' }]);
    });

    test('KFP-MYSQL-AUTH: MySQL 8.4 runs with upstream\'s args (native password on, as ML Metadata logs in with it)', () => {
      expect(mu.container('mysql').image).toBe('mysql:8.4');
      expect(mu.container('mysql').args).toEqual(['--datadir', '/var/lib/mysql', '--authentication-policy=mysql_native_password', '--mysql-native-password=ON', '--disable-log-bin']);
    });

    test('KFP-MLMD-ARGS: ML Metadata\'s gRPC server gets upstream\'s size limits and database flags', () => {
      const c = mu.container('metadata-grpc-deployment');
      expect(c.command).toEqual(['/bin/metadata_store_server']);
      expect(c.args).toEqual([
        '--grpc_port=8080', '--mysql_config_database=metadb', '--mysql_config_host=mysql', '--mysql_config_port=3306',
        '--mysql_config_user=$(DBCONFIG_USER)', '--mysql_config_password=$(DBCONFIG_PASSWORD)', '--enable_database_upgrade=true',
        '--grpc_channel_arguments=grpc.max_metadata_size=16384,grpc.max_receive_message_length=104857600,grpc.max_send_message_length=104857600',
      ]);
      expect(mu.named('ConfigMap', 'metadata-grpc-configmap').data).toEqual({ METADATA_GRPC_SERVICE_HOST: 'metadata-grpc-service', METADATA_GRPC_SERVICE_PORT: '8080' });
    });

    test('KFP-ENVOY: metadata-envoy reads its config from metadata-envoy-configmap (key envoy-config.yaml): gRPC-Web on 9090 to ML Metadata over HTTP/2', () => {
      const c = mu.container('metadata-envoy-deployment');
      expect(c.args).toEqual(['/etc/envoy/envoy-config.yaml']);
      expect(c.volumeMounts).toContainEqual({ name: 'envoy-config', mountPath: '/etc/envoy', readOnly: true });
      expect(podSpec(mu, 'metadata-envoy-deployment').volumes).toContainEqual({ name: 'envoy-config', configMap: { name: 'metadata-envoy-configmap' } });
      expect(mu.named('Deployment', 'metadata-envoy-deployment').spec.template.metadata.labels['sidecar.istio.io/inject']).toBe('false');
      const cm = mu.named('ConfigMap', 'metadata-envoy-configmap');
      expect(Object.keys(cm.data)).toEqual(['envoy-config.yaml']);
      const cfg = parse(cm.data['envoy-config.yaml']);
      const listener = cfg.static_resources.listeners[0];
      expect(listener.address.socket_address.port_value).toBe(9090);
      const hcm = listener.filter_chains[0].filters[0].typed_config;
      expect(hcm.http_filters.map((f: any) => f.name)).toEqual(['envoy.filters.http.grpc_web', 'envoy.filters.http.cors', 'envoy.filters.http.router']);
      const cluster = cfg.static_resources.clusters[0];
      expect(hcm.route_config.virtual_hosts[0].routes[0].route.cluster).toBe(cluster.name);
      expect(cluster.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address).toEqual({ address: 'metadata-grpc-service.kubeflow', port_value: 8080 });
      expect(cluster.typed_extension_protocol_options['envoy.extensions.upstreams.http.v3.HttpProtocolOptions'].explicit_http_config).toEqual({ http2_protocol_options: {} });
      // The admin interface stays inside the pod.
      expect(cfg.admin.address.socket_address.address).toBe('127.0.0.1');
    });

    test('KFP-SEAWEED-SVC: upstream\'s seaweedfs Service (names, ports, selector), each port on a container port; the API server uses it', () => {
      const svc = mu.named('Service', 'seaweedfs');
      expect(svc.spec.selector).toEqual({ app: 'seaweedfs' });
      expect(svc.spec.ports.map((p: any) => [p.name, p.port])).toEqual([
        ['http-iam', 8111], ['http-s3', 8333], ['http-s3-compat', 9000], ['http-master', 9333], ['grpc-master', 19333], ['grpc-filer', 18888], ['http-filer', 8888],
      ]);
      const ports = Object.fromEntries(mu.container('seaweedfs').ports.map((p: any) => [p.name, p.containerPort]));
      expect(svc.spec.ports.map((p: any) => ports[p.targetPort])).toEqual([8111, 8333, 8333, 9333, 19333, 18888, 8888]);
      expect(mu.ofKind('Service').map((x) => x.metadata.name)).not.toContain('minio-service');
      expect(envOf(mu, 'ml-pipeline')).toMatchObject({ OBJECTSTORECONFIG_HOST: 'seaweedfs.kubeflow', OBJECTSTORECONFIG_PORT: '9000' });
    });

    test('KFP-SEAWEED-VER and KFP-SEAWEED-AUTH: SeaweedFS 4.34 with IAM and filer; the bucket and the one S3 identity come from the object store Secret', () => {
      const c = mu.container('seaweedfs');
      expect(c.image).toBe('ghcr.io/chrislusf/seaweedfs:4.34');
      expect(c.command).toBeUndefined();
      expect(c.args).toEqual(['server', '-dir=/data', '-s3', '-iam', '-filer', '-master.volumePreallocate=false']);
      expect(c.envFrom).toEqual([{ secretRef: { name: 'mlpipeline-minio-artifact' } }]);
      const hook = c.lifecycle.postStart.exec.command;
      expect(hook.slice(0, 2)).toEqual(['/bin/sh', '-c']);
      expect(hook[2]).toContain('s3.bucket.create -name mlpipeline');
      expect(hook[2]).toContain('s3.configure -user kubeflow-admin -access_key $accesskey -secret_key $secretkey -actions Admin -apply');
      expect(hook[2]).toContain('touch /tmp/initialization-complete');
      expect(c.startupProbe.exec.command[2]).toMatch(/^test -f \/tmp\/initialization-complete && .*grep -q mlpipeline$/);
      expect(c.readinessProbe.httpGet).toEqual({ path: '/status', port: 's3' });
      const other = objectsOf(buildPlatform(platform({ bucket: 'artifacts', objectStoreSecret: 's3-creds' }).p), 'kubeflow-pipelines').container('seaweedfs');
      expect(other.envFrom).toEqual([{ secretRef: { name: 's3-creds' } }]);
      expect(other.lifecycle.postStart.exec.command[2]).toContain('s3.bucket.create -name artifacts');
    });

    test('single-user runs have their pipeline-runner ServiceAccount and Role (the API server\'s default runner); multi-user needs none', () => {
      expect(env('ml-pipeline').DEFAULTPIPELINERUNNERSERVICEACCOUNT).toBeUndefined();
      expect(named('ServiceAccount', 'pipeline-runner').metadata.namespace).toBe('kubeflow');
      expect(named('RoleBinding', 'pipeline-runner-binding')).toMatchObject({ roleRef: { kind: 'Role', name: 'pipeline-runner' }, subjects: [{ kind: 'ServiceAccount', name: 'pipeline-runner', namespace: 'kubeflow' }] });
      for (const [group, resource, verb] of [['', 'secrets', 'get'], ['', 'configmaps', 'get'], ['', 'persistentvolumeclaims', 'create'], ['', 'persistentvolumeclaims', 'delete'], ['', 'pods', 'get'],
        ['argoproj.io', 'workflows', 'get'], ['argoproj.io', 'workflowtaskresults', 'create'], ['argoproj.io', 'workflowtaskresults', 'patch'], ['snapshot.storage.k8s.io', 'volumesnapshots', 'create']]) {
        expect(can('Role', 'pipeline-runner', group, resource, verb)).toBe(true);
      }
      expect(can('Role', 'pipeline-runner', '', 'secrets', 'list')).toBe(false);
      expect(mu.ofKind('ServiceAccount').map((x) => x.metadata.name)).not.toContain('pipeline-runner');
    });

    test('the UI\'s TensorBoard viewer template in both modes: the viewer ServiceAccount (single-user), default-editor (multi-user); its own namespace as FRONTEND_SERVER_NAMESPACE', () => {
      expect(JSON.parse(named('ConfigMap', 'ml-pipeline-ui-configmap').data['viewer-pod-template.json'])).toEqual({ spec: { serviceAccountName: 'kubeflow-pipelines-viewer' } });
      expect(named('ServiceAccount', 'kubeflow-pipelines-viewer').automountServiceAccountToken).toBe(false);
      expect(env('ml-pipeline-ui')).toMatchObject({ VIEWER_TENSORBOARD_POD_TEMPLATE_SPEC_PATH: '/etc/config/viewer-pod-template.json', FRONTEND_SERVER_NAMESPACE: { fieldRef: { fieldPath: 'metadata.namespace' } } });
      expect(container('ml-pipeline-ui').volumeMounts).toContainEqual({ name: 'config-volume', mountPath: '/etc/config', readOnly: true });
    });

    test('KFP-VS: multi-user routes /pipeline to the UI and /ml_metadata to the envoy through the Kubeflow gateway; single-user and istioGateway: false emit none', () => {
      const ui = mu.named('VirtualService', 'ml-pipeline-ui');
      expect(ui.metadata.namespace).toBe('kubeflow');
      expect(ui.spec).toEqual({
        gateways: ['kubeflow/kubeflow-gateway'],
        hosts: ['*'],
        http: [{ match: [{ uri: { prefix: '/pipeline' } }], rewrite: { uri: '/pipeline' }, route: [{ destination: { host: 'ml-pipeline-ui.kubeflow.svc.cluster.local', port: { number: 80 } } }], timeout: '300s' }],
      });
      expect(mu.named('VirtualService', 'metadata-grpc').spec.http[0].route[0].destination).toEqual({ host: 'metadata-envoy-service.kubeflow.svc.cluster.local', port: { number: 9090 } });
      expect(ofKind('VirtualService')).toEqual([]);
      expect(objectsOf(buildPlatform(platform({ multiUser: true, istioGateway: false }).p), 'kubeflow-pipelines').ofKind('VirtualService')).toEqual([]);
      const other = objectsOf(buildPlatform(platform({ multiUser: true, istioGateway: 'istio-system/gw' }).p), 'kubeflow-pipelines');
      expect(other.named('VirtualService', 'ml-pipeline-ui').spec.gateways).toEqual(['istio-system/gw']);
    });

    test('KFP-VS: a multi-user platform without Istio fails, naming the VirtualService requirement', () => {
      const p = new Platform(new App(), 'p', { name: 'kfp', prerequisites: [CERT_MANAGER] });
      new ArgoWorkflows(p, 'argo-workflows');
      new KubeflowPipelines(p, 'kubeflow-pipelines', { multiUser: true });
      let problems: string[] = [];
      try {
        buildPlatform(p);
      } catch (e) {
        problems = (e as PlatformError).problems;
      }
      expect(problems.join('\n')).toMatch(/VirtualService/);
    });
  });

  test.each<[string, KubeflowPipelinesProps, string]>([
    ['pipelineStore is unknown', { pipelineStore: 'etcd' as PipelineStore }, "p/kubeflow-pipelines: pipelineStore 'etcd' is not one of database, kubernetes; use PipelineStore.DATABASE or PipelineStore.KUBERNETES"],
    ['apiServerReplicas is 0', { apiServerReplicas: 0 }, 'p/kubeflow-pipelines: apiServerReplicas 0 is not allowed; set a whole number >= 1'],
    ['databaseSecret is not a Secret name', { databaseSecret: 'My_Secret' }, "p/kubeflow-pipelines: databaseSecret 'My_Secret' is not a valid Secret name (lower-case DNS subdomain)"],
    ['bucket is invalid', { bucket: 'ML' }, "p/kubeflow-pipelines: bucket 'ML' is not a valid S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)"],
    ['the external database host has a port', { database: { external: { host: 'db:3306' } } }, "p/kubeflow-pipelines: database.external.host 'db:3306' must be a host name without scheme or port (set port separately)"],
    ['the external object store host has a scheme', { objectStore: { external: { host: 'https://s3' } } },
      "p/kubeflow-pipelines: objectStore.external.host 'https://s3' must be a host name without scheme or port (set port and secure separately)"],
    ['the included database size is not a quantity', { database: { included: { size: 'big' } } }, "p/kubeflow-pipelines: database.included.size 'big' is not a quantity; give e.g. 20Gi"],
    ['userIdHeader is set in single-user mode (KFP-API-USERID)', { userIdHeader: 'x-user' },
      'p/kubeflow-pipelines: userIdHeader applies to multi-user mode only (single-user mode has no user identity or Istio routing); set multiUser: true or remove it'],
    ['userIdHeader is not a header name (KFP-API-USERID)', { multiUser: true, userIdHeader: 'kubeflow userid' }, "p/kubeflow-pipelines: userIdHeader 'kubeflow userid' is not an HTTP header name; give e.g. kubeflow-userid"],
    ['istioGateway is not <namespace>/<name> (KFP-VS)', { multiUser: true, istioGateway: 'kubeflow-gateway' },
      "p/kubeflow-pipelines: istioGateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway), or false"],
  ])('fails when %s', (_what, props, message) => {
    expect(() => platform(props)).toThrow(message);
  });

  test('snapshot of the whole output (CRD schemas as digests)', () => {
    expect(built.model.objects.filter((o) => o.component.componentName === 'kubeflow-pipelines').map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
