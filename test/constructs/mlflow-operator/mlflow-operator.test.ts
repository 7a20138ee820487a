import { ApiObject, App } from 'cdk8s';
import { MLflowOperator, mlflowCrds } from '../../../constructs/mlflow-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { GATEWAY_API, PROMETHEUS_OPERATOR } from '../../../lib/component';
import { CrdScope, crdName } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { objectCounts } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

const PREREQS = [GATEWAY_API, PROMETHEUS_OPERATOR];
const b = build((app) => {
  const p = new Platform(app, 'mlflow', { name: 'mlflow', prerequisites: PREREQS });
  new MLflowOperator(p, 'mlflow-operator');
  return p;
});
const objects = b.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
const NAME = 'mlflow-operator-controller-manager';

/** Builds the operator with one custom resource and returns the problems. */
function withResource(apiVersion: string, kind: string, name: string, spec: any, namespaced = false): string[] {
  return problemsOf(() => build((app) => {
    const p = new Platform(app, 'mlflow', { name: 'mlflow', prerequisites: PREREQS });
    const op = new MLflowOperator(p, 'mlflow-operator');
    new ApiObject(op, 'Example', { apiVersion, kind, metadata: { name, namespace: namespaced ? op.namespaceName : undefined }, spec });
    return p;
  }));
}
const mlflow = (spec: any) => withResource('mlflow.opendatahub.io/v1', 'MLflow', 'mlflow', spec);

describe('MLflow operator CRDs', () => {
  test('names, groups, scopes, versions and subresources', () => {
    expect(mlflowCrds.CRDS.map((d) => [crdName(d), d.scope, d.versions.map((v) => v.name).join(), !!d.versions[0].subresources?.status])).toEqual([
      ['mlflowconfigs.mlflow.kubeflow.org', CrdScope.NAMESPACED, 'v1', false],
      ['mlflowoperators.components.platform.opendatahub.io', CrdScope.CLUSTER, 'v1alpha1', true],
      ['mlflows.mlflow.opendatahub.io', CrdScope.CLUSTER, 'v1', true],
    ]);
    expect(mlflowCrds.mlflowCrd.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Available', 'Progressing', 'Version', 'URL']);
  });

  test('MLflow carries 24 rules on spec and one on each label map', () => {
    const spec = mlflowCrds.mlflowCrd.versions[0].schema.toJson().properties!.spec;
    expect(spec['x-kubernetes-validations']).toHaveLength(24);
    // No rule on extraAllowedOrigins (upstream has none): a regex over 64 unbounded strings is over the API server's cost budget.
    expect(JSON.stringify(spec['x-kubernetes-validations'])).not.toContain('extraAllowedOrigins');
    expect(spec.properties!.nodeSelector['x-kubernetes-validations']).toHaveLength(1);
    expect(spec.properties!.podLabels['x-kubernetes-validations']).toHaveLength(1);
    expect(spec.properties!.migration.default).toEqual({ mode: 'Automatic' });
    expect(spec.properties!.serviceAccountName.default).toBe('mlflow-sa');
  });

  test('an MLflow with a database backend and served artifacts is accepted', () => {
    expect(mlflow({ backendStoreUri: 'postgresql://mlflow@db:5432/mlflow', serveArtifacts: true, artifactsDestination: 's3://bucket/artifacts' })).toEqual([]);
  });

  test('an MLflow on SQLite with storage is accepted', () => {
    expect(mlflow({
      backendStoreUri: 'sqlite:////mlflow/mlflow.db',
      serveArtifacts: true,
      artifactsDestination: 'file:///mlflow/artifacts',
      storage: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
    })).toEqual([]);
  });

  test('fails when a SQLite backend has no storage', () => {
    const problems = mlflow({ backendStoreUri: 'sqlite:////mlflow/mlflow.db', defaultArtifactRoot: 's3://bucket/a' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('storage must be set when backendStoreUri is a sqlite:// or file:// store');
  });

  test('fails when both backendStoreUri and backendStoreUriFrom are set', () => {
    const problems = mlflow({ backendStoreUri: 'postgresql://db/mlflow', backendStoreUriFrom: { name: 'db', key: 'uri' }, defaultArtifactRoot: 's3://bucket/a' });
    expect(problems.join('\n')).toContain('backendStoreUri and backendStoreUriFrom exclude each other');
  });

  test('fails when no backend store is set', () => {
    expect(mlflow({ defaultArtifactRoot: 's3://bucket/a' }).join('\n')).toContain('set backendStoreUri or backendStoreUriFrom');
  });

  test('fails when an MLflowOperator is not named default-mlflowoperator (the rule on the object)', () => {
    const problems = withResource('components.platform.opendatahub.io/v1alpha1', 'MLflowOperator', 'other', {});
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('MLflowOperator name must be default-mlflowoperator');
    expect(withResource('components.platform.opendatahub.io/v1alpha1', 'MLflowOperator', 'default-mlflowoperator', {})).toEqual([]);
  });

  test('MLflowConfig: a relative path is accepted, an absolute one is not', () => {
    expect(withResource('mlflow.kubeflow.org/v1', 'MLflowConfig', 'mlflow', { artifactRootSecret: 'team-s3', artifactRootPath: 'experiments' }, true)).toEqual([]);
    expect(withResource('mlflow.kubeflow.org/v1', 'MLflowConfig', 'mlflow', { artifactRootSecret: 'team-s3', artifactRootPath: '/experiments' }, true).join('\n'))
      .toContain('artifactRootPath must be relative to the bucket root');
  });
});

describe('MLflow operator alone', () => {
  test('needs only the Gateway API and the Prometheus Operator', () => {
    const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [] });
    new MLflowOperator(p, 'mlflow-operator');
    const problems = problemsOf(() => p.resolve());
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('requires gateway.networking.k8s.io/HTTPRoute');
    expect(problems[1]).toContain('requires monitoring.coreos.com/ServiceMonitor');
  });

  test('--namespace names the operator\'s own namespace, where its Role lets it create MLflow servers (1.1.0 would default to opendatahub)', () => {
    const o = build((app) => {
      const p = new Platform(app, 'mlflow', { name: 'mlflow', prerequisites: PREREQS });
      new MLflowOperator(p, 'mlflow-operator', { namespace: 'mlflow-system' });
      return p;
    });
    const c = o.model.objects.find((x) => x.json.kind === 'Deployment')!.json.spec.template.spec.containers[0];
    expect(c.args).toContain('--namespace=mlflow-system');
    expect(c.args).not.toContain('--namespace=opendatahub');
  });

  test('IMAGE-TAGS: the images are upstream\'s repositories at odh-stable, where the 1.1.0 install pins digests of older builds (evidence)', () => {
    // Upstream's install at 1.1.0 (config/overlays/odh, commit 7abf6b5), as rendered:
    const upstream = {
      controller: 'quay.io/opendatahub/mlflow-operator@sha256:8b2359c84f4cf325e475c086abbc26c97c4af397f5f5428f9344a64442c28d9f',
      MLFLOW_IMAGE: 'quay.io/opendatahub/mlflow@sha256:ad51bbd7f770491da88dc1db3b3c84f7471d25c48026ecb385180b63b18f4c64',
    };
    const c = find('Deployment', NAME).spec.template.spec.containers[0];
    const mlflowImage = c.env.find((e: any) => e.name === 'MLFLOW_IMAGE').value;
    // Same repositories; the tag is odh-stable, the build of main the construct models
    // (test/parity/release.test.ts RELEASE_EXCEPTIONS): 1.1.0 publishes no tag, only those digests.
    expect([c.image, mlflowImage].map((ref: string) => ref.split(':')[0])).toEqual([upstream.controller, upstream.MLFLOW_IMAGE].map((ref) => ref.split('@')[0]));
    expect([c.image, mlflowImage]).toEqual(['quay.io/opendatahub/mlflow-operator:odh-stable', 'quay.io/opendatahub/mlflow:odh-stable']);
  });

  test('controller: image, args, operand image and environment', () => {
    const c = find('Deployment', NAME).spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/mlflow-operator:odh-stable');
    expect(c.args).toEqual(['--leader-elect', '--health-probe-bind-address=:8081', '--namespace=opendatahub', '--metrics-bind-address=:8443']);
    expect(c.env).toContainEqual({ name: 'MLFLOW_IMAGE', value: 'quay.io/opendatahub/mlflow:odh-stable' });
    expect(c.env).toContainEqual({ name: 'GATEWAY_NAME', value: 'data-science-gateway' });
    expect(c.env).toContainEqual({ name: 'RESOURCE_NAME_PREFIX', value: 'mlflow-operator-' });
    expect(c.env).toContainEqual({ name: 'ENABLE_MLFLOW_OPERATOR_MODULE_CONTROLLER', value: 'false' });
    expect(c.resources).toEqual({ requests: { cpu: '200m', memory: '400Mi' }, limits: { cpu: '1', memory: '4Gi' } });
  });

  test('RBAC: cluster rules scoped by name where upstream scopes them; workloads only in its namespace', () => {
    const rules = find('ClusterRole', `${NAME}-role`).rules;
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['secrets'], resourceNames: ['mlflow-artifact-connection'], verbs: ['get', 'list', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['mlflow-operator-mlflow-edit', 'mlflow-operator-mlflow-view'], verbs: ['bind'] });
    expect(rules.some((r: any) => r.resources?.includes('deployments'))).toBe(false);
    const role = find('Role', `${NAME}-role`);
    expect(role.metadata.namespace).toBe('opendatahub');
    expect(role.rules).toContainEqual({ apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
  });

  test('aggregated user roles: edit into admin and edit, view into all three, integration not aggregated', () => {
    expect(Object.keys(find('ClusterRole', 'mlflow-operator-mlflow-edit').metadata.labels).sort()).toEqual([
      'rbac.authorization.k8s.io/aggregate-to-admin', 'rbac.authorization.k8s.io/aggregate-to-edit',
    ]);
    expect(Object.keys(find('ClusterRole', 'mlflow-operator-mlflow-view').metadata.labels).sort()).toEqual([
      'rbac.authorization.k8s.io/aggregate-to-admin', 'rbac.authorization.k8s.io/aggregate-to-edit', 'rbac.authorization.k8s.io/aggregate-to-view',
    ]);
    expect(find('ClusterRole', 'mlflow-operator-mlflow-integration').metadata.labels).toBeUndefined();
    expect(find('ClusterRole', 'mlflow-operator-mlflow-edit').rules).toContainEqual({
      apiGroups: ['mlflow.kubeflow.org'], resources: ['gatewayendpoints/use', 'gatewaymodeldefinitions/use', 'gatewaysecrets/use'], verbs: ['create'],
    });
  });

  test('on OpenShift the service CA signs the metrics certificate', () => {
    const o = build((app) => {
      const p = new Platform(app, 'mlflow', { name: 'mlflow', prerequisites: PREREQS, certificates: CertificateProvider.openShiftServiceCa() });
      new MLflowOperator(p, 'mlflow-operator');
      return p;
    });
    const svc = o.model.objects.find((x) => x.json.kind === 'Service')!.json;
    expect(svc.metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'controller-manager-metrics-tls' });
    const c = o.model.objects.find((x) => x.json.kind === 'Deployment')!.json.spec.template.spec.containers[0];
    expect(c.args).toContain('--metrics-cert-path=/etc/metrics-certs');
    expect(c.volumeMounts).toContainEqual({ name: 'metrics-cert', mountPath: '/etc/metrics-certs', readOnly: true });
  });

  test('openShift requires the console and the platform Auth kinds', () => {
    const p = new Platform(new App(), 'p', { name: 'p', prerequisites: PREREQS });
    new MLflowOperator(p, 'mlflow-operator', { openShift: true });
    const problems = problemsOf(() => p.resolve());
    expect(problems.map((x) => x.match(/requires (\S+)/)![1])).toEqual(['console.openshift.io/ConsoleLink', 'services.platform.opendatahub.io/Auth']);
  });

  test('fails when gatewayName is not a DNS label', () => {
    expect(() => new MLflowOperator(new Platform(new App(), 'p', { name: 'p' }), 'mlflow', { gatewayName: 'Data_Science' })).toThrow(
      "p/mlflow: gatewayName 'Data_Science' is not a Gateway name (a lower-case DNS label)",
    );
  });

  test('fails when url is not https', () => {
    expect(() => new MLflowOperator(new Platform(new App(), 'p', { name: 'p' }), 'mlflow', { url: 'http://mlflow' })).toThrow(
      "p/mlflow: url 'http://mlflow' must be an https URL, e.g. https://mlflow.apps.example.com",
    );
  });

  test('object counts', () => {
    expect(objectCounts(b.model)).toMatchSnapshot();
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });
});
