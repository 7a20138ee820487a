import { App } from 'cdk8s';
import { parse } from 'yaml';
import { ArgoWorkflows, ArgoWorkflowsProps } from '../../../constructs/argo-workflows';
import { pipelinesExecutorSettings, pipelinesWorkflowDefaults } from '../../../constructs/kubeflow-pipelines';
import { CertificateProvider } from '../../../lib/certificates';
import { Platform } from '../../../lib/platform';
import { applyOrder } from '../../../lib/report';
import { buildPlatform } from '../../../lib/synth';
import { pinnable } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: ArgoWorkflowsProps = {}) {
  const p = new Platform(new App(), 'p', { name: 'argo-only', certificates: CertificateProvider.selfManaged() });
  const argo = new ArgoWorkflows(p, 'argo-workflows', props);
  return { p, argo };
}

const built = buildPlatform(platform().p);
const { ofKind, named, can } = objectsOf(built);
const controller = () => named('Deployment', 'workflow-controller').spec.template.spec.containers[0];

describe('Argo Workflows component', () => {
  test('synthesizes alone (no requirements) with every check passing', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['argo-workflows']);
    expect(built.model.components[0].requires).toEqual([]);
  });

  test('the eight minimal argoproj.io CRDs', () => {
    expect(ofKind('CustomResourceDefinition').map((c) => c.metadata.name).sort()).toEqual([
      'clusterworkflowtemplates.argoproj.io', 'cronworkflows.argoproj.io', 'workflowartifactgctasks.argoproj.io', 'workfloweventbindings.argoproj.io',
      'workflows.argoproj.io', 'workflowtaskresults.argoproj.io', 'workflowtasksets.argoproj.io', 'workflowtemplates.argoproj.io',
    ]);
    const wf = named('CustomResourceDefinition', 'workflows.argoproj.io').spec;
    expect(wf.names.shortNames).toEqual(['wf']);
    expect(wf.versions[0].schema.openAPIV3Schema.properties.spec).toMatchObject({ 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-map-type': 'atomic' });
    expect(wf.versions[0].additionalPrinterColumns.map((c: any) => c.jsonPath)).toEqual(['.status.phase', '.status.startedAt', '.status.message']);
    expect(named('CustomResourceDefinition', 'clusterworkflowtemplates.argoproj.io').spec.scope).toBe('Cluster');
  });

  test('runs workflow-controller v4.0.5 in kubeflow with its configmap and the argoexec executor image', () => {
    const d = named('Deployment', 'workflow-controller');
    expect(d.metadata.namespace).toBe('kubeflow');
    expect(d.spec.template.spec.serviceAccountName).toBe('argo');
    const c = controller();
    expect(c.image).toBe('quay.io/argoproj/workflow-controller:v4.0.5');
    expect(c.command).toEqual(['workflow-controller']);
    expect(c.args).toEqual(['--configmap', 'workflow-controller-configmap', '--executor-image', 'quay.io/argoproj/argoexec:v4.0.5']);
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 6060 });
    expect(c.securityContext).toMatchObject({ runAsNonRoot: true, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(named('Service', 'workflow-controller-metrics').spec.ports).toEqual([{ name: 'metrics', port: 9090, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  test('ARGO-PRIO: upstream\'s workflow-controller PriorityClass (1000000), which the controller\'s pods use', () => {
    const pc = named('PriorityClass', 'workflow-controller');
    expect(pc.apiVersion).toBe('scheduling.k8s.io/v1');
    expect(pc.value).toBe(1000000);
    expect(pc.metadata.namespace).toBeUndefined();
    expect(named('Deployment', 'workflow-controller').spec.template.spec.priorityClassName).toBe(pc.metadata.name);
    // Applied before the Deployment: admission rejects pods that name a missing class.
    const order = applyOrder(built.model);
    expect(order.findIndex((l) => l.includes('PriorityClass workflow-controller'))).toBeLessThan(order.findIndex((l) => l.includes('Deployment kubeflow/workflow-controller')));
  });

  test('RBAC as upstream argo-cluster-role, without wildcards, plus leases in its namespace', () => {
    expect(can('ClusterRole', 'workflow-controller-role', '', 'pods', 'create')).toBe(true);
    expect(can('ClusterRole', 'workflow-controller-role', 'argoproj.io', 'workflows', 'update')).toBe(true);
    expect(can('ClusterRole', 'workflow-controller-role', 'argoproj.io', 'workflowtaskresults', 'deletecollection')).toBe(true);
    expect(can('ClusterRole', 'workflow-controller-role', 'argoproj.io', 'workflowtemplates', 'update')).toBe(false);
    expect(can('ClusterRole', 'workflow-controller-role', '', 'secrets', 'get', 'argo-workflows-agent-ca-certificates')).toBe(true);
    expect(can('ClusterRole', 'workflow-controller-role', '', 'secrets', 'get', 'other')).toBe(false);
    expect(can('Role', 'workflow-controller-role', 'coordination.k8s.io', 'leases', 'update')).toBe(true);
    expect(named('ClusterRoleBinding', 'workflow-controller-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'argo', namespace: 'kubeflow' }]);
  });

  test('aggregated admin/edit/view roles', () => {
    expect(named('ClusterRole', 'argo-aggregate-to-view').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(can('ClusterRole', 'argo-aggregate-to-view', 'argoproj.io', 'workflows', 'create')).toBe(false);
    expect(can('ClusterRole', 'argo-aggregate-to-edit', 'argoproj.io', 'workflows', 'deletecollection')).toBe(true);
    expect(can('ClusterRole', 'argo-aggregate-to-admin', 'argoproj.io', 'workflowtasksets', 'create')).toBe(true);
    expect(can('ClusterRole', 'argo-aggregate-to-edit', 'argoproj.io', 'workflowtasksets', 'create')).toBe(false);
  });

  test('an artifact repository references credentials by Secret key, never literally', () => {
    const { p } = platform({
      artifactRepository: { endpoint: 'seaweedfs.kubeflow:8333', bucket: 'mlpipeline', insecure: true, accessKeySecret: { name: 'mlpipeline-minio-artifact', key: 'accesskey' }, secretKeySecret: { name: 'mlpipeline-minio-artifact', key: 'secretkey' } },
    });
    const o = objectsOf(buildPlatform(p));
    const repo = o.named('ConfigMap', 'workflow-controller-configmap').data.artifactRepository;
    expect(repo).toContain('endpoint: seaweedfs.kubeflow:8333');
    expect(repo).toContain('name: mlpipeline-minio-artifact');
    expect(o.ofKind('Secret')).toEqual([]);
  });

  test('executor settings and workflow defaults go into workflow-controller-configmap as Argo reads them (Kubeflow Pipelines 2.17.0\'s values)', () => {
    const { p } = platform({ executor: pipelinesExecutorSettings(), workflowDefaults: pipelinesWorkflowDefaults() });
    const data = objectsOf(buildPlatform(p)).named('ConfigMap', 'workflow-controller-configmap').data;
    expect(parse(data.executor)).toEqual({
      imagePullPolicy: 'IfNotPresent',
      securityContext: { runAsNonRoot: true, runAsUser: 65532, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
    });
    expect(parse(data.workflowDefaults)).toEqual({
      spec: {
        ttlStrategy: { secondsAfterCompletion: 3600, secondsAfterSuccess: 3600, secondsAfterFailure: 3600 },
        templateDefaults: { retryStrategy: { limit: '2', retryPolicy: 'OnError' } },
      },
    });
    // Without them, neither key is written (Argo's own defaults).
    expect(Object.keys(ofKind('ConfigMap').find((c: any) => c.metadata.name === 'workflow-controller-configmap')?.data ?? {})).toEqual([]);
  });

  test.each<[string, ArgoWorkflowsProps, string]>([
    ['a workflow TTL is negative', { workflowDefaults: { ttlSecondsAfterFinished: -1 } }, 'p/argo-workflows: workflowDefaults.ttlSecondsAfterFinished -1 is not allowed; set a whole number of seconds >= 0'],
    ['a retry limit is fractional', { workflowDefaults: { retry: { limit: 1.5, retryPolicy: 'OnError' } } }, 'p/argo-workflows: workflowDefaults.retry.limit 1.5 is not allowed; set a whole number >= 0'],
    ['replicas is 0', { replicas: 0 }, 'p/argo-workflows: replicas 0 is not allowed; set a whole number >= 1 (leader election keeps one controller active)'],
    ['the artifact endpoint has a scheme', { artifactRepository: { endpoint: 'http://s3:9000', bucket: 'b', accessKeySecret: { name: 's', key: 'a' }, secretKeySecret: { name: 's', key: 'b' } } },
      "p/argo-workflows: artifactRepository.endpoint 'http://s3:9000' must be host[:port] without a scheme (use insecure: true for plain HTTP)"],
    ['transientErrorPattern is empty', { transientErrorPattern: ' ' }, 'p/argo-workflows: transientErrorPattern is empty, which would match every error message; give a regular expression of transient errors, or leave it out'],
    ['the namespace is invalid', { namespace: 'Argo' }, "p/argo-workflows: namespace 'Argo' is not a valid namespace name (lower-case DNS label, at most 63 characters)"],
  ])('fails when %s', (_what, props, message) => {
    expect(() => platform(props)).toThrow(message);
  });

  test('snapshot of the whole output (CRD schemas as digests)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
