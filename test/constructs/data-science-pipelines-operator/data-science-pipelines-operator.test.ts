import { App } from 'cdk8s';
import { parse } from 'yaml';
import { ArgoWorkflows } from '../../../constructs/argo-workflows';
import { DataSciencePipelinesOperator, DataSciencePipelinesOperatorProps } from '../../../constructs/data-science-pipelines-operator';
import { KubeflowPipelines } from '../../../constructs/kubeflow-pipelines';
import { PipelineVersion } from '../../../imports/pipelines.kubeflow.org';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER, PROMETHEUS_OPERATOR } from '../../../lib/component';
import { Platform, PlatformError } from '../../../lib/platform';
import { PolicyRule, uncoveredRules } from '../../../lib/rbac';
import { platformReport } from '../../../lib/report';
import { buildPlatform } from '../../../lib/synth';
import { pinnable } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: DataSciencePipelinesOperatorProps = {}) {
  const p = new Platform(new App(), 'p', { name: 'dspo-only' });
  const dspo = new DataSciencePipelinesOperator(p, 'data-science-pipelines-operator', props);
  return { p, dspo };
}

const built = buildPlatform(platform().p);
const { ofKind, named, can } = objectsOf(built);

describe('Data Science Pipelines Operator component', () => {
  test('synthesizes alone (no requirements) with every check passing', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['data-science-pipelines-operator']);
    expect(built.model.components[0].requires).toEqual([]);
  });

  test('its DSPA CRD (v1, dspa, status, 2 CEL rules of ours on the workspace claim), the shared KFP kinds and the bundled Argo and Viewer CRDs', () => {
    const dspa = named('CustomResourceDefinition', 'datasciencepipelinesapplications.datasciencepipelinesapplications.opendatahub.io').spec;
    expect(dspa.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1', true, true]]);
    expect(dspa.names.shortNames).toEqual(['dspa']);
    const ws = dspa.versions[0].schema.openAPIV3Schema.properties.spec.properties.apiServer.properties.workspace.properties.volumeClaimTemplateSpec;
    expect(ws['x-kubernetes-validations']).toHaveLength(2);
    expect(dspa.versions[0].schema.openAPIV3Schema.properties.spec.required).toEqual(['objectStorage']);
    expect(ofKind('CustomResourceDefinition').map((c) => c.metadata.name).sort()).toEqual([
      'clusterworkflowtemplates.argoproj.io', 'cronworkflows.argoproj.io', 'datasciencepipelinesapplications.datasciencepipelinesapplications.opendatahub.io',
      'pipelines.pipelines.kubeflow.org', 'pipelineversions.pipelines.kubeflow.org', 'scheduledworkflows.kubeflow.org', 'viewers.kubeflow.org',
      'workflowartifactgctasks.argoproj.io', 'workfloweventbindings.argoproj.io', 'workflows.argoproj.io', 'workflowtaskresults.argoproj.io', 'workflowtasksets.argoproj.io', 'workflowtemplates.argoproj.io',
    ]);
  });

  test('the manager: image, args, leader election, upstream metrics Service, config mounted at /home/config', () => {
    const d = named('Deployment', 'data-science-pipelines-operator-controller-manager');
    expect(d.metadata.namespace).toBe('opendatahub');
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/data-science-pipelines-operator:v2.18.0');
    expect(c.args).toEqual(['--leader-elect', '--zap-log-level=$(ZAP_LOG_LEVEL)', '--MaxConcurrentReconciles=$(MAX_CONCURRENT_RECONCILES)', '--config', '/home/config']);
    expect(c.resources).toEqual({ requests: { cpu: '200m', memory: '400Mi' }, limits: { cpu: '1', memory: '4Gi' } });
    expect(c.volumeMounts).toEqual([{ name: 'config', mountPath: '/home/config', readOnly: true }]);
    expect(named('Service', 'data-science-pipelines-operator-service').spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
    const params = named('ConfigMap', 'data-science-pipelines-operator-dspo-parameters').data;
    expect(params).toEqual({ ZAP_LOG_LEVEL: 'info', MAX_CONCURRENT_RECONCILES: '10' });
  });

  test('DSPO-SVCMON: upstream\'s ServiceMonitor scrapes the metrics Service where the platform has the Prometheus Operator; none without it', () => {
    const p = new Platform(new App(), 'p', { name: 'dspo-monitored', prerequisites: [PROMETHEUS_OPERATOR] });
    new DataSciencePipelinesOperator(p, 'data-science-pipelines-operator');
    const monitored = objectsOf(buildPlatform(p));
    const monitor = monitored.named('ServiceMonitor', 'data-science-pipelines-operator-service-monitor');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.namespace).toBe('opendatahub');
    expect(monitor.spec).toEqual({ endpoints: [{ path: '/metrics', port: 'metrics' }], selector: { matchLabels: { 'app.kubernetes.io/name': 'data-science-pipelines-operator' } } });
    // It selects the metrics Service, whose port it names.
    const svc = monitored.named('Service', 'data-science-pipelines-operator-service');
    expect(svc.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(svc.spec.ports.map((x: any) => x.name)).toContain('metrics');
    expect(ofKind('ServiceMonitor')).toEqual([]);
  });

  test('DSPO-START: DSPO_NAMESPACE is set (the operator exits without it), and the flags read the parameters', () => {
    const env = named('Deployment', 'data-science-pipelines-operator-controller-manager').spec.template.spec.containers[0].env;
    expect(env.find((e: any) => e.name === 'DSPO_NAMESPACE')).toEqual({ name: 'DSPO_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    expect(env.map((e: any) => e.name)).toEqual(['POD_NAMESPACE', 'DSPO_NAMESPACE', 'ZAP_LOG_LEVEL', 'MAX_CONCURRENT_RECONCILES']);
  });

  test('DSPO-START: config.yaml carries exactly the keys v2.18.0 reads, the required images among them, each from the images table', () => {
    const config = parse(named('ConfigMap', 'data-science-pipelines-operator-dspo-config').data['config.yaml']);
    const keys = (o: any, prefix = ''): string[] => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
    expect(keys(config).sort()).toEqual([
      'DSPO.ApiServer.IncludeOwnerReference', 'DSPO.ArgoWorkflowsControllers', 'DSPO.FIPSEnabled', 'DSPO.HealthCheck.Database.ConnectionTimeout', 'DSPO.HealthCheck.ObjectStore.ConnectionTimeout',
      'DSPO.PlatformVersion', 'DSPO.RequeueTime',
      'Images.ApiServer', 'Images.ArgoExecImage', 'Images.ArgoWorkflowController', 'Images.DriverImage', 'Images.KubeRBACProxy', 'Images.LauncherImage', 'Images.MariaDB', 'Images.MlmdEnvoy', 'Images.MlmdGRPC',
      'Images.PersistenceAgent', 'Images.ScheduledWorkflow',
      'ManagedPipelinesMetadata.Iris.Description', 'ManagedPipelinesMetadata.Iris.Filepath', 'ManagedPipelinesMetadata.Iris.Name', 'ManagedPipelinesMetadata.Iris.VersionName',
    ]);
    expect(config.Images.KubeRBACProxy).toBe('quay.io/openshift/origin-kube-rbac-proxy:4.19');
    expect(config.Images.ArgoWorkflowController).toBe('quay.io/opendatahub/ds-pipelines-argo-workflowcontroller:3.6.12');
    expect(config.Images.ApiServer).toBe('quay.io/opendatahub/ds-pipelines-api-server:v2.18.0');
    // Literal values: nothing is left for kustomize to substitute.
    expect(JSON.stringify(config)).not.toContain('$(');
    expect(JSON.parse(config.DSPO.ArgoWorkflowsControllers)).toEqual({ managementState: 'Managed' });
  });

  test('DSPO-START: a registry mirror reaches the images in config.yaml', () => {
    const p = new Platform(new App(), 'p', { name: 'mirrored', images: { registryMirror: 'mirror.example.com' } });
    new DataSciencePipelinesOperator(p, 'data-science-pipelines-operator');
    const config = parse(objectsOf(buildPlatform(p)).named('ConfigMap', 'data-science-pipelines-operator-dspo-config').data['config.yaml']);
    for (const v of Object.values(config.Images) as string[]) expect(v).toMatch(/^mirror\.example\.com\//);
  });

  test('DSPO-ESCALATE: the roles it creates per DSPA are declared, and its ClusterRole holds every rule of each (MLP031 passes)', () => {
    const dspo = built.model.components[0] as DataSciencePipelinesOperator;
    expect(dspo.controller.grants.map((g) => `${g.kind} ${g.name}`)).toEqual([
      'Role ds-pipeline-<dspa>', 'Role ds-pipeline-user-access-<dspa>', 'Role pipeline-runner-<dspa>', 'Role ds-pipeline-persistenceagent-<dspa>',
      'Role ds-pipeline-scheduledworkflow-<dspa>', 'Role ds-pipeline-workflow-controller-role-<dspa>', 'ClusterRole ds-pipelines-webhook',
      'RoleBinding ds-pipeline-<dspa>', 'RoleBinding pipeline-runner-<dspa>', 'RoleBinding ds-pipeline-persistenceagent-<dspa>', 'RoleBinding ds-pipeline-scheduledworkflow-<dspa>',
      'RoleBinding ds-pipeline-workflow-controller-rolebinding-<dspa>', 'ClusterRoleBinding ds-pipelines-webhook', 'ClusterRoleBinding ds-pipeline-ui-auth-delegator-<namespace>-<dspa>',
    ]);
    const held = named('ClusterRole', 'data-science-pipelines-operator-controller-manager-role').rules as PolicyRule[];
    for (const g of dspo.controller.grants) expect([g.name, uncoveredRules(held, g.rules ?? [])]).toEqual([g.name, []]);
    // The pipeline runner's '*' verbs need '*' verbs, not a list of them.
    expect(held).toContainEqual({ apiGroups: ['kubeflow.org'], resources: ['*'], verbs: ['*'] });
    expect(built.model.objects.filter((o) => o.json.kind === 'ClusterRole').flatMap((o) => o.json.metadata.name)).not.toContain('ds-pipelines-webhook');
  });

  test('DSPO-ARGO-USERROLES: ships argo-aggregate-to-admin/edit/view, aggregated into admin, edit and view', () => {
    expect(named('ClusterRole', 'argo-aggregate-to-admin').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' });
    expect(named('ClusterRole', 'argo-aggregate-to-edit').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(named('ClusterRole', 'argo-aggregate-to-view').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(can('ClusterRole', 'argo-aggregate-to-admin', 'argoproj.io', 'workflowtasksets', 'deletecollection')).toBe(true);
    expect(can('ClusterRole', 'argo-aggregate-to-edit', 'argoproj.io', 'workflowtasksets', 'get')).toBe(false);
    expect(can('ClusterRole', 'argo-aggregate-to-view', 'argoproj.io', 'cronworkflows', 'watch')).toBe(true);
    expect(can('ClusterRole', 'argo-aggregate-to-view', 'argoproj.io', 'cronworkflows', 'create')).toBe(false);
  });

  test('DSPO-ARGO-USERROLES: left to an ArgoWorkflows component added before it; one added after is an error naming the fix', () => {
    const p = new Platform(new App(), 'p', { name: 'argo-first' });
    new ArgoWorkflows(p, 'argo-workflows');
    const dspo = new DataSciencePipelinesOperator(p, 'data-science-pipelines-operator');
    expect(dspo.node.tryFindChild('ArgoUserRoles')).toBeUndefined();
    expect(() => new DataSciencePipelinesOperator(new Platform(new App(), 'q', { name: 'x' }), 'd', { argoUserRoles: true })).not.toThrow();
    const q = new Platform(new App(), 'q', { name: 'argo-too' });
    new ArgoWorkflows(q, 'argo-workflows');
    expect(() => new DataSciencePipelinesOperator(q, 'data-science-pipelines-operator', { argoUserRoles: true })).toThrow(
      "q/data-science-pipelines-operator: argoUserRoles is true, but component 'argo-workflows' (ArgoWorkflows) already emits the argo-aggregate-to-admin/edit/view ClusterRoles; leave argoUserRoles unset");
    const r = new Platform(new App(), 'r', { name: 'argo-after' });
    new DataSciencePipelinesOperator(r, 'data-science-pipelines-operator');
    new ArgoWorkflows(r, 'argo-workflows');
    expect(() => buildPlatform(r)).toThrow("r/data-science-pipelines-operator: component 'argo-workflows' (ArgoWorkflows) also emits the argo-aggregate-to-admin/edit/view ClusterRoles, added after this one; add it before DataSciencePipelinesOperator, or set argoUserRoles: false here");
  });

  test('config.yaml carries the resolved operand images under upstream\'s keys, the required Images.KubeRBACProxy, and the DSPO settings (no $(VAR): a mounted file is not expanded)', () => {
    const text = named('ConfigMap', 'data-science-pipelines-operator-dspo-config').data['config.yaml'];
    expect(text).not.toContain('$(');
    const config = parse(text);
    expect(Object.keys(config)).toEqual(['Images', 'ManagedPipelinesMetadata', 'DSPO']);
    // The paths v2.18.0 reads (controllers/config/defaults.go), each a pinned image.
    expect(Object.keys(config.Images).sort()).toEqual([
      'ApiServer', 'ArgoExecImage', 'ArgoWorkflowController', 'DriverImage', 'KubeRBACProxy', 'LauncherImage', 'MariaDB', 'MlmdEnvoy', 'MlmdGRPC', 'PersistenceAgent', 'ScheduledWorkflow',
    ]);
    expect(config.Images.LauncherImage).toBe('quay.io/opendatahub/ds-pipelines-launcher:v2.18.0');
    expect(config.Images.KubeRBACProxy).toBe('quay.io/openshift/origin-kube-rbac-proxy:4.19');
    expect(config.ManagedPipelinesMetadata.Iris).toMatchObject({ Name: '[Demo] iris-training', Filepath: '/samples/iris-pipeline-compiled.yaml' });
    expect(config.DSPO).toEqual({
      ArgoWorkflowsControllers: '{"managementState":"Managed"}',
      // Upstream sets this through DSPO_APISERVER_INCLUDE_OWNERREFERENCE (viper's env override); we write it in the file.
      ApiServer: { IncludeOwnerReference: true },
      HealthCheck: { Database: { ConnectionTimeout: '15s' }, ObjectStore: { ConnectionTimeout: '15s' } },
      RequeueTime: '20s',
      PlatformVersion: 'v0.0.0',
      FIPSEnabled: false,
    });
  });

  test('RBAC: owns DSPAs, holds the Argo controller rules it grants, webhook configurations scoped by name except create', () => {
    const role = 'data-science-pipelines-operator-controller-manager-role';
    expect(can('ClusterRole', role, 'datasciencepipelinesapplications.opendatahub.io', 'datasciencepipelinesapplications/status', 'update')).toBe(true);
    expect(can('ClusterRole', role, 'argoproj.io', 'workflowtaskresults', 'deletecollection')).toBe(true);
    expect(can('ClusterRole', role, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'update', 'pipelineversions.pipelines.kubeflow.org')).toBe(true);
    expect(can('ClusterRole', role, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'update', 'other')).toBe(false);
    // It grants create on RayClusters in pipeline-runner-<dspa>, so it must hold it.
    expect(can('ClusterRole', role, 'ray.io', 'rayclusters', 'create')).toBe(true);
    expect(can('ClusterRole', role, 'ray.io', 'rayclusters', 'update')).toBe(false);
    expect(named('ClusterRole', 'data-science-pipelines-operator-aggregate-dspa-admin-view').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
  });

  test('RBAC: list and watch on its PipelineVersion webhook configurations by name (its manager reads them through an informer limited to that name), not on others', () => {
    const role = 'data-science-pipelines-operator-controller-manager-role';
    for (const resource of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
      for (const verb of ['list', 'watch']) {
        expect({ resource, verb, ok: can('ClusterRole', role, 'admissionregistration.k8s.io', resource, verb, 'pipelineversions.pipelines.kubeflow.org') }).toEqual({ resource, verb, ok: true });
        expect({ resource, verb, ok: can('ClusterRole', role, 'admissionregistration.k8s.io', resource, verb, 'other') }).toEqual({ resource, verb, ok: false });
      }
    }
  });

  test('RBAC: update on ClusterRoles and ClusterRoleBindings (manifestival updates the webhook ClusterRole and the ClusterRoleBinding it applies when they differ)', () => {
    const role = 'data-science-pipelines-operator-controller-manager-role';
    expect(can('ClusterRole', role, 'rbac.authorization.k8s.io', 'clusterroles', 'update')).toBe(true);
    expect(can('ClusterRole', role, 'rbac.authorization.k8s.io', 'clusterrolebindings', 'update')).toBe(true);
    expect(can('ClusterRole', role, 'rbac.authorization.k8s.io', 'clusterroles', 'patch')).toBe(false);
  });

  test('ships no webhook configuration: the two PipelineVersion webhooks are declared as created at run time, and the report lists them', () => {
    expect(ofKind('MutatingWebhookConfiguration')).toEqual([]);
    expect(ofKind('ValidatingWebhookConfiguration')).toEqual([]);
    const rw = built.model.components[0].runtimeWebhooks;
    expect(rw.map((w) => [w.type, w.configurationName, w.service.path, w.failurePolicy])).toEqual([
      ['mutating', 'pipelineversions.pipelines.kubeflow.org', '/webhooks/mutate-pipelineversion', 'Fail'],
      ['validating', 'pipelineversions.pipelines.kubeflow.org', '/webhooks/validate-pipelineversion', 'Fail'],
    ]);
    const report = platformReport(built.model, built.largeCrds);
    expect(report).toContain('- validating pipelineversions.pipelines.kubeflow.org/pipelineversions.pipelines.kubeflow.org -> opendatahub/ds-pipelines-webhook:8443/webhooks/validate-pipelineversion -> created by Deployment opendatahub/data-science-pipelines-operator-controller-manager');
  });

  test('a PipelineVersion in the output is flagged: the runtime webhook intercepts it once the operator runs', () => {
    const { p, dspo } = platform();
    new PipelineVersion(dspo, 'Sample', { metadata: { name: 'sample', namespace: 'opendatahub' }, spec: { pipelineName: 'sample', pipelineSpec: { pipelineInfo: { name: 'sample' } } } });
    let problems: string[] = [];
    try {
      buildPlatform(p);
    } catch (e) {
      problems = (e as PlatformError).problems;
    }
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('[MLP022]');
    expect(problems[0]).toContain('PipelineVersion sample (phase 30-resources) is intercepted by fail-closed runtime-created webhook pipelineversions.pipelines.kubeflow.org of MutatingWebhookConfiguration');
  });

  test('with Kubeflow Pipelines and Argo Workflows: shared CRDs resolve without a choice (identical definitions), each emitted once', () => {
    const p = new Platform(new App(), 'p', { name: 'both', certificates: CertificateProvider.certManager(), prerequisites: [CERT_MANAGER] });
    const argo = new ArgoWorkflows(p, 'argo-workflows');
    const kfp = new KubeflowPipelines(p, 'kubeflow-pipelines');
    new DataSciencePipelinesOperator(p, 'data-science-pipelines-operator');
    const b = buildPlatform(p);
    expect(b.model.crdOwners.get('pipelineversions.pipelines.kubeflow.org')).toBe(kfp);
    expect(b.model.crdOwners.get('workflows.argoproj.io')).toBe(argo);
    const crds = b.model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.json.metadata.name);
    expect(crds.length).toBe(new Set(crds).size);
    // 8 Argo, 4 KFP, DSPA, and the app.k8s.io Application CRD KFP's install ships.
    expect(crds).toHaveLength(14);
    expect(crds).toContain('applications.app.k8s.io');
  });

  test.each<[string, DataSciencePipelinesOperatorProps, string]>([
    ['replicas is 0', { replicas: 0 }, 'p/data-science-pipelines-operator: replicas 0 is not allowed; set a whole number >= 1 (leader election keeps one manager active)'],
    ['maxConcurrentReconciles is 0', { maxConcurrentReconciles: 0 }, 'p/data-science-pipelines-operator: maxConcurrentReconciles 0 is not allowed; set a whole number >= 1'],
  ])('fails when %s', (_what, props, message) => {
    expect(() => platform(props)).toThrow(message);
  });

  test('snapshot of the whole output (CRD schemas as digests)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
