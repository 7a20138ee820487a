import { App } from 'cdk8s';
import { KubeflowModelRegistry, KubeflowModelRegistryProps } from '../../../constructs/model-registry';
import { DatabaseEngine } from '../../../lib/database';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { pinnable, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';
import { objectsOf } from '../support/objects';

function platform(props: KubeflowModelRegistryProps = {}, prerequisites = [ISTIO]) {
  const p = new Platform(new App(), 'p', { name: 'model-registry-only', prerequisites });
  const registry = new KubeflowModelRegistry(p, 'model-registry', props);
  return { p, registry };
}

const built = buildPlatform(platform().p);
const { ofKind, named, container, can } = objectsOf(built);

describe('Kubeflow model registry', () => {
  test('no CRDs, no webhooks; requires only Istio\'s VirtualService and AuthorizationPolicy', () => {
    expect(ofKind('CustomResourceDefinition')).toEqual([]);
    expect(ofKind('MutatingWebhookConfiguration')).toEqual([]);
    expect(ofKind('ValidatingWebhookConfiguration')).toEqual([]);
    expect(built.model.components[0].requires.map((r) => `${r.group}/${r.kind}`)).toEqual(['networking.istio.io/VirtualService', 'security.istio.io/AuthorizationPolicy']);
  });

  test('server: upstream names, embedmd flags, the DSN refers to the password only by variable', () => {
    const d = named('Deployment', 'model-registry-deployment');
    expect(d.spec.selector.matchLabels).toEqual({ component: 'model-registry-server' });
    expect(d.spec.template.spec.serviceAccountName).toBe('model-registry-server');
    expect(d.spec.template.spec.automountServiceAccountToken).toBe(false);
    const c = container('model-registry-deployment');
    expect(c.name).toBe('rest-container');
    expect(c.image).toBe('ghcr.io/kubeflow/model-registry/server:v0.3.7');
    expect(c.command).toEqual(['/model-registry', 'proxy']);
    expect(c.args).toEqual([
      '--hostname=0.0.0.0',
      '--port=8080',
      '--datastore-type=embedmd',
      '--embedmd-database-type=mysql',
      '--embedmd-database-dsn=$(MODEL_REGISTRY_DB_USER):$(MODEL_REGISTRY_DB_PASSWORD)@tcp(model-registry-db:3306)/model_registry?parseTime=true',
    ]);
    expect(c.env).toEqual([
      { name: 'MODEL_REGISTRY_DB_USER', value: 'root' },
      { name: 'MODEL_REGISTRY_DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'model-registry-db-secrets', key: 'MYSQL_ROOT_PASSWORD' } } },
    ]);
    expect(c.ports).toEqual([{ name: 'http-api', containerPort: 8080, protocol: 'TCP' }]);
    expect(c.livenessProbe.httpGet).toEqual({ path: '/readyz/isDirty', port: 'http-api' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz/health', port: 'http-api' });
    expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true });
    expect(named('ServiceAccount', 'model-registry-server')).toBeDefined();
    const svc = named('Service', 'model-registry-service');
    expect(svc.spec.selector).toEqual({ component: 'model-registry-server' });
    expect(svc.spec.ports).toEqual([{ name: 'http-api', port: 8080, targetPort: 'http-api', protocol: 'TCP', appProtocol: 'http' }]);
    expect(svc.metadata.labels.component).toBe('model-registry');
  });

  test('included MySQL: restricted, Recreate, claim metadata-mysql, root password by Secret reference, no Secret emitted', () => {
    const d = named('Deployment', 'model-registry-db');
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    expect(d.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, fsGroup: 999 });
    const c = container('model-registry-db');
    // MR-MYSQL: upstream's image and args at v0.3.7 (overlays/db).
    expect(c.image).toBe('mysql:8.3');
    expect(c.args).toEqual(['--datadir', '/var/lib/mysql/datadir']);
    expect(c.securityContext).toMatchObject({ runAsUser: 999, allowPrivilegeEscalation: false });
    // upstream's MySQL writes its socket and temporary files on a writable root
    expect(c.securityContext.readOnlyRootFilesystem).toBeUndefined();
    expect(c.env[0]).toEqual({ name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: 'model-registry-db-secrets', key: 'MYSQL_ROOT_PASSWORD' } } });
    expect(named('PersistentVolumeClaim', 'metadata-mysql').spec.resources.requests.storage).toBe('20Gi');
    expect(named('Service', 'model-registry-db').spec.ports[0]).toMatchObject({ name: 'dbapi', port: 3306 });
    expect(ofKind('Secret')).toEqual([]);
  });

  test('KATIB-MYSQL-PROBE: the included MySQL has upstream\'s readiness probe and no liveness probe (none upstream) to restart it while it starts', () => {
    const c = container('model-registry-db');
    expect([c.livenessProbe, c.startupProbe]).toEqual([undefined, undefined]);
    expect(c.readinessProbe.exec.command[2]).toContain('-e "SELECT 1"');
  });

  test('UI: Kubeflow mode, Service on 80, upstream\'s read-only ClusterRole, routed under /model-registry/', () => {
    const c = container('model-registry-ui');
    expect(c.image).toBe('ghcr.io/kubeflow/model-registry/ui:v0.3.7');
    expect(c.args).toEqual(['--deployment-mode=kubeflow', '--port=8080']);
    expect(named('Service', 'model-registry-ui-service').spec.ports[0]).toMatchObject({ port: 80, targetPort: 'http' });
    expect(can('ClusterRole', 'model-registry-ui-role', '', 'services', 'list')).toBe(true);
    expect(can('ClusterRole', 'model-registry-ui-role', '', 'services', 'update')).toBe(false);
    expect(can('ClusterRole', 'model-registry-ui-role', 'rbac.authorization.k8s.io', 'clusterrolebindings', 'get')).toBe(true);
    expect(can('ClusterRole', 'model-registry-ui-role', 'authorization.k8s.io', 'subjectaccessreviews', 'create')).toBe(true);
    const vs = named('VirtualService', 'model-registry-ui');
    expect(vs.spec.gateways).toEqual(['kubeflow/kubeflow-gateway']);
    expect(vs.spec.http[0].match).toEqual([{ uri: { prefix: '/model-registry/' } }]);
    expect(vs.spec.http[0].route[0].destination).toEqual({ host: 'model-registry-ui-service.kubeflow.svc.cluster.local', port: { number: 80 } });
  });

  test('Istio: the API route, upstream\'s allow policy on the server, the database port outside the mesh', () => {
    const vs = named('VirtualService', 'model-registry');
    expect(vs.spec.http[0].match).toEqual([{ uri: { prefix: '/api/model_registry/' } }]);
    expect(vs.spec.http[0].route[0].destination).toEqual({ host: 'model-registry-service.kubeflow.svc.cluster.local', port: { number: 8080 } });
    expect(named('AuthorizationPolicy', 'model-registry-service').spec).toEqual({ action: 'ALLOW', selector: { matchLabels: { component: 'model-registry-server' } }, rules: [{}] });
    expect(named('Deployment', 'model-registry-deployment').spec.template.metadata.annotations).toEqual({ 'traffic.sidecar.istio.io/excludeOutboundPorts': '3306' });
  });

  test('MR-UI-AUTHZ: upstream\'s policy on the UI (options/ui/overlays/istio at v0.3.7) admits only the ingress gateway, enforced by the UI pod\'s sidecar', () => {
    const ap = named('AuthorizationPolicy', 'model-registry-ui');
    expect(ap.metadata.labels).toEqual({ app: 'model-registry-ui' });
    expect(ap.spec).toEqual({
      action: 'ALLOW',
      selector: { matchLabels: { app: 'model-registry-ui' } },
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }],
    });
    // It selects the UI's pods, which get a sidecar from the namespace (as upstream's UI pod does).
    const ui = named('Deployment', 'model-registry-ui');
    expect(ui.spec.template.metadata.labels).toEqual({ app: 'model-registry-ui' });
    expect(named('Namespace', 'kubeflow').metadata.labels).toEqual({ 'istio-injection': 'enabled' });
    // Without the UI, no UI policy.
    expect(objectsOf(buildPlatform(platform({ ui: false }).p)).ofKind('AuthorizationPolicy').map((a) => a.metadata.name)).toEqual(['model-registry-service']);
  });

  test('the server asks for a sidecar and the database refuses one, as upstream\'s pod templates do', () => {
    expect(named('Deployment', 'model-registry-deployment').spec.template.metadata.labels).toEqual({ 'component': 'model-registry-server', 'sidecar.istio.io/inject': 'true' });
    expect(named('Deployment', 'model-registry-db').spec.template.metadata.labels['sidecar.istio.io/inject']).toBe('false');
  });

  test('declares its dashboard link', () => {
    const { registry } = platform();
    expect(registry.dashboardLinks[0].menu).toEqual([{ text: 'Models', icon: 'assignment', items: [{ text: 'Model Registry', link: '/model-registry/' }] }]);
  });

  test('without the UI: no UI objects, no link; the API route stays', () => {
    const { p, registry } = platform({ ui: false });
    const o = objectsOf(buildPlatform(p));
    expect(o.ofKind('Deployment').map((d) => d.metadata.name)).toEqual(['model-registry-db', 'model-registry-deployment']);
    expect(o.ofKind('VirtualService').map((v) => v.metadata.name)).toEqual(['model-registry']);
    expect(registry.dashboardLinks).toEqual([]);
  });

  test('with istioGateway false: no Istio objects and no requirement', () => {
    const { p, registry } = platform({ istioGateway: false }, []);
    const o = objectsOf(buildPlatform(p));
    expect(o.ofKind('VirtualService')).toEqual([]);
    expect(o.ofKind('AuthorizationPolicy')).toEqual([]);
    expect(registry.requires).toEqual([]);
  });

  test('an external PostgreSQL: no MySQL objects, the PostgreSQL DSN with user and password from Secrets', () => {
    const { p } = platform({
      externalDatabase: { engine: DatabaseEngine.POSTGRES, host: 'pg.example.internal', database: 'registry', user: { name: 'registry-db', key: 'user' }, passwordSecret: { name: 'registry-db', key: 'password' } },
    });
    const o = objectsOf(buildPlatform(p));
    expect(o.ofKind('PersistentVolumeClaim')).toEqual([]);
    expect(o.ofKind('Deployment').map((d) => d.metadata.name)).toEqual(['model-registry-deployment', 'model-registry-ui']);
    const c = o.container('model-registry-deployment');
    expect(c.args.slice(3)).toEqual([
      '--embedmd-database-type=postgres',
      '--embedmd-database-dsn=host=pg.example.internal port=5432 user=$(MODEL_REGISTRY_DB_USER) password=$(MODEL_REGISTRY_DB_PASSWORD) dbname=registry',
    ]);
    expect(c.env).toEqual([
      { name: 'MODEL_REGISTRY_DB_USER', valueFrom: { secretKeyRef: { name: 'registry-db', key: 'user' } } },
      { name: 'MODEL_REGISTRY_DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'registry-db', key: 'password' } } },
    ]);
  });

  test('fails when the Istio objects are on but Istio is not present', () => {
    const { p } = platform({}, []);
    const problems = problemsOf(() => buildPlatform(p));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain("component 'model-registry' (KubeflowModelRegistry) requires networking.istio.io/VirtualService (the model registry is routed through the Istio gateway (istioGateway: false turns this off))");
    expect(problems[1]).toContain("component 'model-registry' (KubeflowModelRegistry) requires security.istio.io/AuthorizationPolicy");
  });

  test('synthesizes alone (snapshot)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('Kubeflow model registry props', () => {
  const fails = (props: KubeflowModelRegistryProps) => () => platform(props);
  test('fails when both mysql and externalDatabase are set', () => {
    expect(fails({ mysql: {}, externalDatabase: { engine: DatabaseEngine.MYSQL, host: 'db', database: 'r', user: 'u', passwordSecret: { name: 's', key: 'p' } } }))
      .toThrow('p/model-registry: both mysql and externalDatabase are set; set mysql to configure the included MySQL, or externalDatabase to use your own server, not both');
  });
  test('fails when the external database is malformed', () => {
    expect(fails({ externalDatabase: { engine: DatabaseEngine.MYSQL, host: 'mysql://db', database: '', user: 'u', passwordSecret: { name: 's', key: 'bad key' } } }))
      .toThrow("p/model-registry: externalDatabase.host 'mysql://db' is not a host name; give the server's host name or address without scheme or path; externalDatabase.database is empty; name the database the component uses; externalDatabase.passwordSecret.key 'bad key' is not a valid Secret key (letters, digits, '-', '_', '.')");
  });
  test('fails when the MySQL password Secret name is invalid', () => {
    expect(fails({ mysql: { rootPasswordSecret: { name: 'Bad_Name', key: 'password' } } }))
      .toThrow("p/model-registry: mysql.rootPasswordSecret.name 'Bad_Name' is not a valid Secret name (lower-case DNS subdomain)");
  });
  test('fails when mysql.storage is not a quantity', () => {
    expect(fails({ mysql: { storage: 'lots' } })).toThrow("p/model-registry: mysql.storage 'lots' is not a quantity; give a size such as 20Gi");
  });
  test('fails when replicas is not a whole number >= 1', () => {
    expect(fails({ replicas: 0 })).toThrow('p/model-registry: replicas 0 is not allowed; set a whole number >= 1');
  });
  test('fails when istioGateway is not <namespace>/<name>', () => {
    expect(fails({ istioGateway: 'kubeflow-gateway' })).toThrow("p/model-registry: istioGateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway), or false for no route");
  });
  test('a custom password Secret, storage class and replicas reach the output', () => {
    const o = objectsOf(buildPlatform(platform({ replicas: 2, mysql: { rootPasswordSecret: { name: 'mr-db', key: 'root' }, storage: '5Gi', storageClassName: 'fast' } }).p));
    expect(o.named('Deployment', 'model-registry-deployment').spec.replicas).toBe(2);
    expect(o.named('PersistentVolumeClaim', 'metadata-mysql').spec).toMatchObject({ storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } });
    expect(o.container('model-registry-deployment').env[1]).toEqual({ name: 'MODEL_REGISTRY_DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'mr-db', key: 'root' } } });
  });
});
