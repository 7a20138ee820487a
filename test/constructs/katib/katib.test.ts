import { App } from 'cdk8s';
import { parse } from 'yaml';
import { JobSet } from '../../../constructs/jobset/jobset';
import { CRDS, Katib, KatibProps, KatibTrialKind } from '../../../constructs/katib';
import { Trainer } from '../../../constructs/trainer/trainer';
import { TrainingOperator } from '../../../constructs/training-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { DatabaseEngine } from '../../../lib/database';
import { Platform } from '../../../lib/platform';
import { PolicyRule, uncoveredRules } from '../../../lib/rbac';
import { buildPlatform } from '../../../lib/synth';
import { pinnable, problemsOf } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: KatibProps = { trialKinds: [KatibTrialKind.JOB] }, certificates = CertificateProvider.selfManaged()) {
  const p = new Platform(new App(), 'p', { name: 'katib-only', certificates, prerequisites: certificates.kind === 'cert-manager' ? [CERT_MANAGER] : [] });
  const katib = new Katib(p, 'katib', props);
  return { p, katib };
}

const built = buildPlatform(platform().p);
const { ofKind, named, container, can } = objectsOf(built);
const config = () => parse(named('ConfigMap', 'katib-config').data['katib-config.yaml']);

describe('Katib CRDs', () => {
  test('three kubeflow.org/v1beta1 kinds, namespaced, categories all/kubeflow/katib, status subresource, open schemas', () => {
    const crds = ofKind('CustomResourceDefinition');
    expect(crds.map((c) => c.metadata.name)).toEqual(['experiments.kubeflow.org', 'suggestions.kubeflow.org', 'trials.kubeflow.org']);
    for (const c of crds) {
      expect(c.spec.scope).toBe('Namespaced');
      expect(c.spec.names.categories).toEqual(['all', 'kubeflow', 'katib']);
      expect(c.spec.names.shortNames).toBeUndefined();
      expect(c.spec.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1beta1', true, true]]);
      expect(c.spec.versions[0].subresources).toEqual({ status: {} });
      expect(c.spec.versions[0].schema.openAPIV3Schema['x-kubernetes-preserve-unknown-fields']).toBe(true);
    }
    expect(named('CustomResourceDefinition', 'suggestions.kubeflow.org').spec.versions[0].additionalPrinterColumns.map((x: any) => x.name))
      .toEqual(['Type', 'Status', 'Requested', 'Assigned', 'Age']);
    expect(CRDS).toHaveLength(3);
  });
});

describe('Katib component', () => {
  test('with only batch Job trials it requires nothing', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['katib']);
    expect(built.model.components[0].requires).toEqual([]);
  });

  test('controller: image, config file, ports, KATIB_CORE_NAMESPACE, uid 1000', () => {
    const c = container('katib-controller');
    expect(c.image).toBe('ghcr.io/kubeflow/katib/katib-controller:v0.19.0');
    expect(c.command).toEqual(['./katib-controller']);
    expect(c.args).toEqual(['--katib-config=/katib-config.yaml']);
    expect(c.ports.map((p: any) => [p.name, p.containerPort])).toEqual([['health', 18080], ['metrics', 8080], ['webhook-server', 8443]]);
    expect(c.env).toEqual(expect.arrayContaining([{ name: 'KATIB_CORE_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }]));
    expect(c.securityContext.runAsUser).toBe(1000);
    expect(c.volumeMounts).toEqual(expect.arrayContaining([
      { name: 'katib-config', mountPath: '/katib-config.yaml', subPath: 'katib-config.yaml', readOnly: true },
      { name: 'webhook-cert', mountPath: '/tmp/cert', readOnly: true },
    ]));
    expect(named('Deployment', 'katib-controller').spec.selector.matchLabels).toEqual({ 'katib.kubeflow.org/component': 'controller' });
  });

  test('KatibConfig: cert generator on when self-managed, trial kinds, runtime images from the versions table', () => {
    const k = config();
    expect(k).toMatchObject({ apiVersion: 'config.kubeflow.org/v1beta1', kind: 'KatibConfig' });
    expect(k.init.certGenerator).toEqual({ enable: true, webhookServiceName: 'katib-controller', webhookSecretName: 'katib-webhook-cert' });
    expect(k.init.controller).toMatchObject({ webhookPort: 8443, trialResources: ['Job.v1.batch'], enableLeaderElection: false });
    expect(k.runtime.suggestions.find((x: any) => x.algorithmName === 'random').image).toBe('ghcr.io/kubeflow/katib/suggestion-hyperopt:v0.19.0');
    expect(k.runtime.earlyStoppings).toEqual([{ algorithmName: 'medianstop', image: 'ghcr.io/kubeflow/katib/earlystopping-medianstop:v0.19.0' }]);
    expect(k.runtime.metricsCollectors.map((m: any) => m.kind)).toEqual(['StdOut', 'File', 'TensorFlowEvent']);
  });

  test('a registry mirror reaches the runtime images in the KatibConfig', () => {
    const p = new Platform(new App(), 'p', { name: 'm', certificates: CertificateProvider.selfManaged(), images: { registryMirror: 'mirror.example.com' } });
    new Katib(p, 'katib', { trialKinds: [KatibTrialKind.JOB] });
    const b = buildPlatform(p);
    const cm = objectsOf(b).named('ConfigMap', 'katib-config');
    expect(parse(cm.data['katib-config.yaml']).runtime.suggestions[0].image).toBe('mirror.example.com/kubeflow/katib/suggestion-hyperopt:v0.19.0');
  });

  test('webhooks: one validating and two mutating, the pod mutator scoped by label and excluding the controller', () => {
    const v = named('ValidatingWebhookConfiguration', 'katib.kubeflow.org');
    expect(v.webhooks.map((w: any) => [w.name, w.clientConfig.service.path])).toEqual([['validator.experiment.katib.kubeflow.org', '/validate-experiment']]);
    const m = named('MutatingWebhookConfiguration', 'katib.kubeflow.org');
    expect(m.webhooks.map((w: any) => [w.name, w.clientConfig.service.path])).toEqual([
      ['defaulter.experiment.katib.kubeflow.org', '/mutate-experiment'],
      ['mutator.pod.katib.kubeflow.org', '/mutate-pod'],
    ]);
    for (const w of [...v.webhooks, ...m.webhooks]) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'] });
      expect(w.clientConfig.service).toEqual({ name: 'katib-controller', namespace: 'kubeflow', path: w.clientConfig.service.path, port: 443 });
    }
    const pod = m.webhooks[1];
    expect(pod.rules).toEqual([{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }]);
    expect(pod.namespaceSelector).toEqual({ matchLabels: { 'katib.kubeflow.org/metrics-collector-injection': 'enabled' } });
    expect(pod.matchConditions).toEqual([{ name: 'exclude-katib-controller', expression: 'request.userInfo.username != "system:serviceaccount:kubeflow:katib-controller"' }]);
    expect(named('Service', 'katib-controller').spec.ports[0]).toMatchObject({ port: 443, targetPort: 'webhook-server' });
  });

  test('with cert-manager: a Certificate katib-webhook-cert, CA injection, and the generator off', () => {
    const b = buildPlatform(platform(undefined, CertificateProvider.certManager()).p);
    const o = objectsOf(b);
    expect(o.named('Certificate', 'katib-webhook-cert').spec.secretName).toBe('katib-webhook-cert');
    expect(o.named('MutatingWebhookConfiguration', 'katib.kubeflow.org').metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'kubeflow/katib-webhook-cert' });
    expect(parse(o.named('ConfigMap', 'katib-config').data['katib-config.yaml']).init.certGenerator).toEqual({ enable: false });
  });

  test('RBAC: owns its kinds, runs suggestion Deployments and batch Jobs; secrets only read cluster-wide; rotator scoped', () => {
    const r = 'katib-controller-role';
    expect(can('ClusterRole', r, 'kubeflow.org', 'experiments/finalizers', 'update')).toBe(true);
    expect(can('ClusterRole', r, 'kubeflow.org', 'trials/status', 'patch')).toBe(true);
    expect(can('ClusterRole', r, 'apps', 'deployments', 'create')).toBe(true);
    expect(can('ClusterRole', r, 'batch', 'jobs', 'delete')).toBe(true);
    expect(can('ClusterRole', r, '', 'secrets', 'get')).toBe(true);
    expect(can('ClusterRole', r, '', 'secrets', 'update')).toBe(false);
    expect(can('ClusterRole', r, 'kubeflow.org', 'tfjobs', 'create')).toBe(false);
    expect(can('ClusterRole', r, 'trainer.kubeflow.org', 'trainjobs', 'create')).toBe(false);
    expect(can('ClusterRole', 'katib-controller-cert-rotator', 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'patch', 'katib.kubeflow.org')).toBe(true);
    expect(can('Role', 'katib-controller-cert-rotator', '', 'secrets', 'update', 'katib-webhook-cert')).toBe(true);
  });

  test('db-manager over the included MySQL: password only by Secret reference', () => {
    const c = container('katib-db-manager');
    expect(c.image).toBe('ghcr.io/kubeflow/katib/katib-db-manager:v0.19.0');
    expect(c.env).toEqual([
      { name: 'DB_NAME', value: 'mysql' },
      { name: 'DB_USER', value: 'root' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'katib-mysql-secrets', key: 'MYSQL_ROOT_PASSWORD' } } },
      { name: 'KATIB_MYSQL_DB_HOST', value: 'katib-mysql' },
      { name: 'KATIB_MYSQL_DB_PORT', value: '3306' },
      { name: 'KATIB_MYSQL_DB_DATABASE', value: 'katib' },
    ]);
    expect(named('Service', 'katib-db-manager').spec.ports[0]).toMatchObject({ port: 6789 });
    const mysql = container('katib-mysql');
    expect(mysql.image).toBe('mysql:8.0.29');
    expect(mysql.env[0]).toEqual({ name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: 'katib-mysql-secrets', key: 'MYSQL_ROOT_PASSWORD' } } });
    expect(named('PersistentVolumeClaim', 'katib-mysql').spec.resources.requests.storage).toBe('10Gi');
    expect(ofKind('Secret').map((s) => s.metadata.name)).toEqual(['katib-webhook-cert']);
  });

  test('KATIB-MYSQL-PROBE: katib-mysql has upstream\'s probes: 15 minutes to start, then restarted after 10 failed pings', () => {
    const mysql = container('katib-mysql');
    const ping = { exec: { command: ['/bin/bash', '-c', 'mysqladmin ping -u root -p${MYSQL_ROOT_PASSWORD}'] } };
    expect(mysql.startupProbe).toEqual({ ...ping, periodSeconds: 15, failureThreshold: 60 });
    expect(mysql.livenessProbe).toEqual({ ...ping, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 10 });
    expect(mysql.readinessProbe).toEqual({
      exec: { command: ['/bin/bash', '-c', "mysql -D ${MYSQL_DATABASE} -u root -p${MYSQL_ROOT_PASSWORD} -e 'SELECT 1'"] }, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 10,
    });
  });

  test('an external PostgreSQL: no MySQL objects, the PostgreSQL variables', () => {
    const b = buildPlatform(platform({
      trialKinds: [KatibTrialKind.JOB],
      externalDatabase: { engine: DatabaseEngine.POSTGRES, host: 'pg.example.internal', database: 'katib', user: { name: 'katib-db', key: 'user' }, passwordSecret: { name: 'katib-db', key: 'password' } },
    }).p);
    const o = objectsOf(b);
    expect(o.ofKind('Deployment').map((d) => d.metadata.name)).toEqual(['katib-controller', 'katib-db-manager', 'katib-ui']);
    expect(o.ofKind('PersistentVolumeClaim')).toEqual([]);
    expect(o.container('katib-db-manager').env).toEqual([
      { name: 'DB_NAME', value: 'postgres' },
      { name: 'DB_USER', valueFrom: { secretKeyRef: { name: 'katib-db', key: 'user' } } },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'katib-db', key: 'password' } } },
      { name: 'KATIB_POSTGRESQL_DB_HOST', value: 'pg.example.internal' },
      { name: 'KATIB_POSTGRESQL_DB_PORT', value: '5432' },
      { name: 'KATIB_POSTGRESQL_DB_DATABASE', value: 'katib' },
    ]);
  });

  test('UI: katib-ui on port 80 -> 8080 with its own ClusterRole', () => {
    expect(container('katib-ui').image).toBe('ghcr.io/kubeflow/katib/katib-ui:v0.19.0');
    expect(named('Service', 'katib-ui').spec.ports[0]).toMatchObject({ port: 80, targetPort: 'ui' });
    expect(can('ClusterRole', 'katib-ui', 'kubeflow.org', 'experiments', 'create')).toBe(true);
    expect(can('ClusterRole', 'katib-ui', 'kubeflow.org', 'trials', 'delete')).toBe(false);
  });

  test('UI: finds a trial\'s pods by listing them and reads their logs; no get or watch on pods (v0.19.0 backend)', () => {
    expect(can('ClusterRole', 'katib-ui', '', 'pods', 'list')).toBe(true);
    expect(can('ClusterRole', 'katib-ui', '', 'pods/log', 'get')).toBe(true);
    expect(can('ClusterRole', 'katib-ui', '', 'pods', 'get')).toBe(false);
    expect(can('ClusterRole', 'katib-ui', '', 'pods', 'watch')).toBe(false);
  });

  test('Kubeflow user roles: admin aggregates edit; edit writes experiments and reads pod logs; view reads', () => {
    expect(named('ClusterRole', 'kubeflow-katib-admin').aggregationRule.clusterRoleSelectors[0].matchLabels)
      .toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-katib-admin': 'true' });
    expect(can('ClusterRole', 'kubeflow-katib-edit', 'kubeflow.org', 'experiments', 'deletecollection')).toBe(true);
    expect(can('ClusterRole', 'kubeflow-katib-edit', '', 'pods/log', 'get')).toBe(true);
    expect(can('ClusterRole', 'kubeflow-katib-view', 'kubeflow.org', 'trials', 'create')).toBe(false);
  });

  test('default trial kinds: upstream six, runtime-only requirements on TrainingOperator and Trainer', () => {
    const p = new Platform(new App(), 'p', { name: 'k', certificates: CertificateProvider.selfManaged() });
    const katib = new Katib(p, 'katib');
    expect(katib.requires.map((r) => [r.group, r.version, r.kind, r.providedBy?.name, r.runtimeOnly])).toEqual([
      ['trainer.kubeflow.org', 'v1alpha1', 'TrainJob', 'Trainer', true],
      ['kubeflow.org', 'v1', 'TFJob', 'TrainingOperator', true],
      ['kubeflow.org', 'v1', 'PyTorchJob', 'TrainingOperator', true],
      ['kubeflow.org', 'v1', 'MPIJob', 'TrainingOperator', true],
      ['kubeflow.org', 'v1', 'XGBoostJob', 'TrainingOperator', true],
    ]);
    new TrainingOperator(p, 'training-operator');
    new JobSet(p, 'jobset');
    new Trainer(p, 'trainer');
    const b = buildPlatform(p);
    const o = objectsOf(b, 'katib');
    expect(o.can('ClusterRole', 'katib-controller-role', 'trainer.kubeflow.org', 'trainjobs', 'create')).toBe(true);
    expect(o.can('ClusterRole', 'katib-controller-role', 'jobset.x-k8s.io', 'jobsets', 'list')).toBe(true);
    expect(o.can('ClusterRole', 'katib-controller-role', 'kubeflow.org', 'xgboostjobs', 'delete')).toBe(true);
  });

  test('fails when a trial kind\'s provider is missing, naming the component to add', () => {
    const { p } = platform({ trialKinds: [KatibTrialKind.JOB, KatibTrialKind.PYTORCHJOB] });
    expect(problemsOf(() => buildPlatform(p))).toEqual([
      "p/katib: component 'katib' (Katib) requires kubeflow.org/PyTorchJob (Katib trials run as PyTorchJobs (trialKinds)), but no component of platform 'katib-only' provides it and no prerequisite declares it; add the TrainingOperator component to the platform, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'kubeflow.org', kind: 'PyTorchJob' }] }]",
    ]);
  });

  test('synthesizes alone (snapshot)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('Katib props', () => {
  const fails = (props: KatibProps) => () => platform(props);
  test('fails when trialKinds is empty', () => {
    expect(fails({ trialKinds: [] })).toThrow(`p/katib: trialKinds is empty; enable at least one of ${Object.values(KatibTrialKind).join(', ')}`);
  });
  test('fails when a trial kind is unknown', () => {
    expect(fails({ trialKinds: ['Workflow.v1alpha1.argoproj.io' as KatibTrialKind] })).toThrow(`p/katib: trialKinds: unknown kind 'Workflow.v1alpha1.argoproj.io'; choose from ${Object.values(KatibTrialKind).join(', ')}`);
  });
  test('fails when a trial kind is listed twice', () => {
    expect(fails({ trialKinds: [KatibTrialKind.JOB, KatibTrialKind.JOB] })).toThrow("p/katib: trialKinds: 'Job.v1.batch' is listed twice; list each kind once");
  });
  test('fails when both mysql and externalDatabase are set', () => {
    expect(fails({ mysql: {}, externalDatabase: { engine: DatabaseEngine.MYSQL, host: 'db', database: 'katib', user: 'u', passwordSecret: { name: 's', key: 'p' } } }))
      .toThrow('p/katib: both mysql and externalDatabase are set; set mysql to configure the included MySQL, or externalDatabase to use your own server, not both');
  });
  test('fails when the external database is malformed', () => {
    expect(fails({ externalDatabase: { engine: DatabaseEngine.MYSQL, host: 'mysql://db/x', port: 0, database: 'katib', user: 'u', passwordSecret: { name: 'Bad_Name', key: 'p' } } }))
      .toThrow("p/katib: externalDatabase.host 'mysql://db/x' is not a host name; give the server's host name or address without scheme or path; externalDatabase.port 0 must be a whole number from 1 to 65535; externalDatabase.passwordSecret.name 'Bad_Name' is not a valid Secret name (lower-case DNS subdomain)");
  });
  test('fails when the MySQL password Secret key is invalid', () => {
    expect(fails({ mysql: { rootPasswordSecret: { name: 'katib-mysql-secrets', key: 'bad key' } } }))
      .toThrow("p/katib: mysql.rootPasswordSecret.key 'bad key' is not a valid Secret key (letters, digits, '-', '_', '.')");
  });
  test('fails when mysql.storage is not a quantity', () => {
    expect(fails({ mysql: { storage: 'ten gigs' } })).toThrow("p/katib: mysql.storage 'ten gigs' is not a quantity; give a size such as 10Gi");
  });
  test('fails when controllerReplicas > 1 without leader election', () => {
    expect(fails({ trialKinds: [KatibTrialKind.JOB], controllerReplicas: 2 })).toThrow('p/katib: controllerReplicas 2 needs leaderElection: true (otherwise several controllers reconcile at once)');
  });
  test('fails when controllerReplicas is not a whole number >= 1', () => {
    expect(fails({ trialKinds: [KatibTrialKind.JOB], controllerReplicas: 0 })).toThrow('p/katib: controllerReplicas 0 is not allowed; set a whole number >= 1');
  });
  test('leader election: the lease Role and the KatibConfig flags', () => {
    const b = buildPlatform(platform({ trialKinds: [KatibTrialKind.JOB], leaderElection: true, controllerReplicas: 2 }).p);
    const o = objectsOf(b);
    expect(o.can('Role', 'katib-controller-role', 'coordination.k8s.io', 'leases', 'update')).toBe(true);
    expect(parse(o.named('ConfigMap', 'katib-config').data['katib-config.yaml']).init.controller).toMatchObject({ enableLeaderElection: true, leaderElectionID: '3fbc96e9.katib.kubeflow.org' });
  });
});

describe('Katib: what the suggestion controller creates at run time', () => {
  test('KATIB-SUGGESTION-ROLE: the controller holds every verb on trials and trials/status, which the Role it creates per Suggestion with early stopping grants', () => {
    const k = built.model.components.find((c) => c instanceof Katib) as Katib;
    const role = k.controller.grants.find((g) => g.kind === 'Role');
    expect(role?.rules).toEqual([{ apiGroups: ['kubeflow.org'], resources: ['trials', 'trials/status'], verbs: ['*'] }]);
    const held = named('ClusterRole', 'katib-controller-role').rules as PolicyRule[];
    expect(uncoveredRules(held, role!.rules!)).toEqual([]);
  });
});

describe('Katib UI behind the Kubeflow gateway (uiGateway, as kubeflow/manifests\' katib-with-kubeflow)', () => {
  const ISTIO_PREREQ = { name: 'istio', provides: [{ group: 'networking.istio.io', kind: 'VirtualService' }, { group: 'security.istio.io', kind: 'AuthorizationPolicy' }] };
  const routed = () => {
    const p = new Platform(new App(), 'p', { name: 'katib-only', certificates: CertificateProvider.selfManaged(), prerequisites: [ISTIO_PREREQ] });
    const katib = new Katib(p, 'katib', { trialKinds: [KatibTrialKind.JOB], uiGateway: 'kubeflow/kubeflow-gateway' });
    return { katib, objects: objectsOf(buildPlatform(p)) };
  };

  test('KF-LINKS: routed at /katib/ with its policy, sidecar and per-user checks, and only then linked from the dashboard', () => {
    const { katib, objects } = routed();
    expect(objects.named('VirtualService', 'katib-ui').spec.http[0]).toEqual({
      match: [{ uri: { prefix: '/katib/' } }],
      rewrite: { uri: '/katib/' },
      route: [{ destination: { host: 'katib-ui.kubeflow.svc.cluster.local', port: { number: 80 } } }],
    });
    expect(objects.named('AuthorizationPolicy', 'katib-ui').spec.selector).toEqual({ matchLabels: { 'katib.kubeflow.org/component': 'ui' } });
    const ui = objects.named('Deployment', 'katib-ui');
    expect(ui.spec.template.metadata.labels['sidecar.istio.io/inject']).toBe('true');
    expect(ui.spec.template.spec.containers[0].env).toContainEqual({ name: 'APP_DISABLE_AUTH', value: 'false' });
    expect(katib.dashboardLinks.flatMap((l) => l.menu ?? [])).toEqual([{ text: 'Experiments (AutoML)', link: '/katib/', icon: 'kubeflow:katib' }]);
  });

  test('KF-LINKS: not routed (standalone), the UI is not linked: no link without its app', () => {
    expect(platform().katib.dashboardLinks.flatMap((l) => l.menu ?? [])).toEqual([]);
    expect(ofKind('VirtualService')).toEqual([]);
  });

  test('fails on a uiGateway that is not namespace/name, or with the UI off', () => {
    const make = (props: KatibProps) => () => new Katib(new Platform(new App(), 'p', { name: 'x' }), 'katib', props);
    expect(make({ uiGateway: 'kubeflow-gateway' })).toThrow("p/katib: uiGateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)");
    expect(make({ ui: false, uiGateway: 'kubeflow/kubeflow-gateway' })).toThrow("p/katib: uiGateway 'kubeflow/kubeflow-gateway' routes the UI, but ui is false; drop uiGateway or turn the UI on");
  });
});
