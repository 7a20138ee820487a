import { App } from 'cdk8s';
import { parse } from 'yaml';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { MODELMESH_ETCD, ModelMeshServing, modelmeshCrds } from '../../../constructs/modelmesh-serving';
import { CERT_MANAGER, CrdClaim } from '../../../lib/component';
import { CrdScope, crdName } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { objectCounts, wiringTable } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

const alone = build((app) => {
  const p = new Platform(app, 'mm', { name: 'modelmesh', prerequisites: [CERT_MANAGER, MODELMESH_ETCD] });
  new ModelMeshServing(p, 'modelmesh-serving');
  return p;
});
const objects = alone.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;

/** KServe, the inference extension and ModelMesh together: the shared CRDs resolve to KServe's. */
function withKServe(app: App, crdOwners?: Record<string, string>): Platform {
  const p = new Platform(app, 'both', { name: 'kserve-modelmesh', prerequisites: [CERT_MANAGER, MODELMESH_ETCD], crdOwners });
  new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
  new KServe(p, 'kserve');
  new ModelMeshServing(p, 'modelmesh-serving');
  return p;
}

describe('ModelMesh Serving CRDs', () => {
  test('Predictor: namespaced v1alpha1 with status and the upstream printer columns', () => {
    const [predictor] = modelmeshCrds.CRDS;
    expect(crdName(predictor)).toBe('predictors.serving.kserve.io');
    expect(predictor.scope).toBe(CrdScope.NAMESPACED);
    expect(predictor.versions.map((v) => [v.name, v.served ?? true, v.storage])).toEqual([['v1alpha1', true, true]]);
    expect(predictor.versions[0].subresources).toEqual({ status: true });
    expect(predictor.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Type', 'Available', 'ActiveModel', 'TargetModel', 'Transition', 'Age']);
    const status = predictor.versions[0].schema.toJson().properties!.status;
    expect(status.default).toEqual({ activeModelState: 'Pending', available: false, failedCopies: 0, targetModelState: '', totalCopies: 0, transitionStatus: 'UpToDate' });
    expect(status.required).toEqual(['activeModelState', 'available', 'failedCopies', 'targetModelState', 'totalCopies', 'transitionStatus']);
  });
});

describe('ModelMesh Serving alone', () => {
  test('synthesizes with only cert-manager and etcd as prerequisites, emitting its own copies of the shared CRDs', () => {
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name).sort()).toEqual([
      'clusterservingruntimes.serving.kserve.io', 'inferenceservices.serving.kserve.io', 'predictors.serving.kserve.io', 'servingruntimes.serving.kserve.io',
    ]);
  });

  test('declares the shared CRDs as used, and Predictor as owned', () => {
    const mm = alone.model.components[0];
    expect(mm.claimOf('predictors.serving.kserve.io')).toBe(CrdClaim.OWNS);
    for (const n of ['inferenceservices', 'servingruntimes', 'clusterservingruntimes']) expect(mm.claimOf(`${n}.serving.kserve.io`)).toBe(CrdClaim.USES);
  });

  test('controller: image, args, env, ports, probes and the defaults ConfigMap mounted', () => {
    const d = find('Deployment', 'modelmesh-controller');
    expect(d.metadata.namespace).toBe('modelmesh-serving');
    expect(d.spec.selector.matchLabels).toEqual({ 'control-plane': 'modelmesh-controller' });
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('kserve/modelmesh-controller:v0.12.0');
    expect(c.command).toEqual(['/manager']);
    expect(c.args).toEqual(['--enable-leader-election', '--health-probe-bind-address=:8081', '--metrics-addr=:8080']);
    expect(c.env).toContainEqual({ name: 'ETCD_SECRET_NAME', value: 'model-serving-etcd' });
    expect(c.ports.map((p: any) => [p.name, p.containerPort])).toEqual([['health', 8081], ['metrics', 8080], ['webhook-server', 9443]]);
    expect(c.resources).toEqual({ requests: { cpu: '50m', memory: '96Mi' }, limits: { cpu: '1', memory: '512Mi' } });
    expect(c.volumeMounts).toContainEqual({ name: 'config-defaults', mountPath: '/etc/model-serving/config/default', readOnly: true });
    expect(d.spec.template.spec.volumes).toContainEqual({ name: 'config-defaults', configMap: { name: 'model-serving-config-defaults', defaultMode: 420 } });
    const defaults = find('ConfigMap', 'model-serving-config-defaults').data['config-defaults.yaml'];
    expect(defaults).toContain('podsPerRuntime: 2');
    expect(defaults).toContain('name: kserve/modelmesh\n  tag: v0.12.0');
    expect(defaults).toContain('name: kserve/rest-proxy');
    expect(defaults).toContain('name: kserve/modelmesh-runtime-adapter');
  });

  test('metrics: plain HTTP, an explicit opt-out with a reason, on the Service name of the ODH overlay', () => {
    expect(find('Service', 'modelmesh-controller').spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  test('the ServingRuntime webhook: name, path, port 9443, rules and policies as upstream', () => {
    const vwc = find('ValidatingWebhookConfiguration', 'modelmesh-servingruntime.serving.kserve.io');
    expect(vwc.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'modelmesh-serving/modelmesh-webhook-server-cert' });
    expect(vwc.webhooks).toEqual([{
      name: 'servingruntime.modelmesh-webhook-server.default',
      admissionReviewVersions: ['v1'],
      clientConfig: { service: { name: 'modelmesh-webhook-server-service', namespace: 'modelmesh-serving', path: '/validate-serving-modelmesh-io-v1alpha1-servingruntime', port: 9443 } },
      failurePolicy: 'Fail',
      rules: [{ apiGroups: ['serving.kserve.io'], apiVersions: ['v1alpha1'], resources: ['clusterservingruntimes', 'servingruntimes'], operations: ['CREATE', 'UPDATE'] }],
      sideEffects: 'None',
    }]);
    expect(find('Service', 'modelmesh-webhook-server-service').spec.ports[0]).toMatchObject({ port: 9443, targetPort: 'webhook-server' });
    expect(find('Certificate', 'modelmesh-webhook-server-cert').spec.secretName).toBe('modelmesh-webhook-server-cert');
  });

  test('RBAC: owns predictors and the shared kinds, manages its runtime Deployments, reads PVCs', () => {
    const rules = find('ClusterRole', 'modelmesh-controller-role').rules;
    const allows = (group: string, resource: string, verb: string) => rules.some((r: any) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && r.verbs.includes(verb));
    for (const res of ['predictors', 'inferenceservices', 'servingruntimes', 'clusterservingruntimes']) {
      expect(allows('serving.kserve.io', res, 'create')).toBe(true);
      expect(allows('serving.kserve.io', `${res}/status`, 'patch')).toBe(true);
    }
    expect(allows('apps', 'deployments', 'delete')).toBe(true);
    expect(allows('', 'persistentvolumeclaims', 'watch')).toBe(true);
    expect(allows('', 'persistentvolumeclaims', 'create')).toBe(false);
    expect(allows('monitoring.coreos.com', 'servicemonitors', 'create')).toBe(true);
    expect(allows('autoscaling', 'horizontalpodautoscalers', 'patch')).toBe(false);
  });

  test('installs the four default multi-model runtimes, validated against the CRD it emits', () => {
    const runtimes = objects.filter((o) => o.kind === 'ClusterServingRuntime');
    expect(runtimes.map((r) => r.metadata.name)).toEqual(['triton-2.x', 'mlserver-1.x', 'ovms-1.x', 'torchserve-0.x']);
    for (const r of runtimes) {
      expect(r.spec.multiModel).toBe(true);
      expect(r.spec.grpcEndpoint).toBe('port:8085');
    }
    const triton = runtimes[0];
    expect(triton.metadata.annotations).toEqual({ maxLoadingConcurrency: '2' });
    expect(triton.spec.builtInAdapter).toEqual({ serverType: 'triton', runtimeManagementPort: 8001, memBufferBytes: 134217728, modelLoadingTimeoutMillis: 90000 });
    expect(alone.model.objects.find((o) => o.json.kind === 'ClusterServingRuntime')!.phase).toBe('30-resources');
  });

  test('MM-TRITON-RUNTIME: the runtimes\' images, model formats and protocol versions are v0.12.0\'s config/runtimes', () => {
    const spec = (name: string) => objects.find((o) => o.kind === 'ClusterServingRuntime' && o.metadata.name === name).spec;
    const triton = spec('triton-2.x');
    expect(triton.containers[0].image).toBe('nvcr.io/nvidia/tritonserver:23.04-py3');
    expect(triton.protocolVersions).toEqual(['grpc-v2']);
    expect(triton.supportedModelFormats.map((f: any) => `${f.name}:${f.version}:${f.autoSelect}`)).toEqual([
      'keras:2:true', 'onnx:1:true', 'pytorch:1:true', 'tensorflow:1:true', 'tensorflow:2:true', 'tensorrt:7:true', 'sklearn:0:false', 'xgboost:1:false', 'lightgbm:3:false',
    ]);
    expect(spec('ovms-1.x').protocolVersions).toEqual(['grpc-v1']);
    expect(spec('mlserver-1.x').protocolVersions).toEqual(['grpc-v2']);
    expect(spec('torchserve-0.x').protocolVersions).toBeUndefined();
    expect(['mlserver-1.x', 'ovms-1.x', 'torchserve-0.x'].map((n) => spec(n).containers[0].image))
      .toEqual(['seldonio/mlserver:1.3.2', 'openvino/model_server:2022.2', 'pytorch/torchserve:0.7.1-cpu']);
  });

  test('servingRuntimes chooses the runtimes; false installs none', () => {
    const pick = build((app) => {
      const p = new Platform(app, 'mm', { name: 'modelmesh', prerequisites: [CERT_MANAGER, MODELMESH_ETCD] });
      new ModelMeshServing(p, 'modelmesh-serving', { servingRuntimes: ['ovms-1.x'] });
      return p;
    });
    expect(pick.model.objects.filter((o) => o.json.kind === 'ClusterServingRuntime').map((o) => o.json.metadata.name)).toEqual(['ovms-1.x']);
    const none = new ModelMeshServing(new Platform(new App(), 'p', { name: 'p' }), 'mm', { servingRuntimes: false });
    expect(none.node.findAll().some((c) => c.node.id.startsWith('Runtime-'))).toBe(false);
  });

  test('object counts', () => {
    expect(objectCounts(alone.model)).toMatchSnapshot();
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });
});

describe('ModelMesh Serving with KServe', () => {
  const both = build((app) => withKServe(app));

  test('the shared CRDs resolve to KServe without crdOwners; Predictor stays with ModelMesh', () => {
    const owner = (n: string) => both.model.crdOwners.get(n)!.componentName;
    expect(owner('inferenceservices.serving.kserve.io')).toBe('kserve');
    expect(owner('servingruntimes.serving.kserve.io')).toBe('kserve');
    expect(owner('clusterservingruntimes.serving.kserve.io')).toBe('kserve');
    expect(owner('predictors.serving.kserve.io')).toBe('modelmesh-serving');
    const crds = both.model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
    expect(new Set(crds.map((o) => o.json.metadata.name)).size).toBe(crds.length);
    expect(crds.filter((o) => o.component.componentName === 'modelmesh-serving').map((o) => o.json.metadata.name)).toEqual(['predictors.serving.kserve.io']);
  });

  test('ModelMesh comes after KServe, whose CRDs it uses', () => {
    expect(both.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'kserve', 'modelmesh-serving']);
  });

  test('the report shows the sharing in the ownership map and the dependency graph', () => {
    const report = both.files.get('REPORT.md')!;
    expect(report).toContain('- servingruntimes.serving.kserve.io: kserve (also declared by modelmesh-serving, which uses this copy)');
    expect(report).toContain('  modelmesh-serving -.->|shares inferenceservices.serving.kserve.io| kserve');
  });

  test('both ServingRuntime webhooks coexist, each wired to its own backend', () => {
    const lines = wiringTable(both.model).filter((l) => /servingruntime/.test(l));
    expect(lines).toEqual([
      'validating servingruntime.serving.kserve.io/servingruntime.kserve-webhook-server.validator -> kserve/kserve-webhook-server-service:443/validate-serving-kserve-io-v1alpha1-servingruntime -> Deployment/kserve-controller-manager:9443 -> cert-manager kserve/serving-cert -> Fail',
      'validating clusterservingruntime.serving.kserve.io/clusterservingruntime.kserve-webhook-server.validator -> kserve/kserve-webhook-server-service:443/validate-serving-kserve-io-v1alpha1-clusterservingruntime -> Deployment/kserve-controller-manager:9443 -> cert-manager kserve/serving-cert -> Fail',
      'validating modelmesh-servingruntime.serving.kserve.io/servingruntime.modelmesh-webhook-server.default -> modelmesh-serving/modelmesh-webhook-server-service:9443/validate-serving-modelmesh-io-v1alpha1-servingruntime -> Deployment/modelmesh-controller:9443 -> cert-manager modelmesh-serving/modelmesh-webhook-server-cert -> Fail',
    ]);
  });

  test('webhook wiring', () => {
    expect(wiringTable(both.model).join('\n')).toMatchSnapshot();
  });

  test('crdOwners can still choose ModelMesh\'s copy explicitly', () => {
    const b = build((app) => withKServe(app, { 'servingruntimes.serving.kserve.io': 'modelmesh-serving' }));
    expect(b.model.crdOwners.get('servingruntimes.serving.kserve.io')!.componentName).toBe('modelmesh-serving');
  });
});

describe('ModelMesh Serving failures', () => {
  const platform = (prerequisites = [CERT_MANAGER, MODELMESH_ETCD]) => new Platform(new App(), 'p', { name: 'p', prerequisites });

  test('fails when etcd is not declared present', () => {
    const p = platform([CERT_MANAGER]);
    new ModelMeshServing(p, 'modelmesh-serving');
    expect(problemsOf(() => p.resolve())).toEqual([
      "p/modelmesh-serving: component 'modelmesh-serving' needs etcd, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    ]);
  });

  test('fails when etcdSecretName is not a Secret name', () => {
    expect(() => new ModelMeshServing(platform(), 'modelmesh-serving', { etcdSecretName: 'Etcd_Secret' })).toThrow(
      "p/modelmesh-serving: etcdSecretName 'Etcd_Secret' is not a Secret name; use a lower-case DNS subdomain such as model-serving-etcd",
    );
  });

  test('fails when an unknown runtime is asked for', () => {
    expect(() => new ModelMeshServing(platform(), 'modelmesh-serving', { servingRuntimes: ['sklearn-1.x'] })).toThrow(
      "p/modelmesh-serving: servingRuntimes: unknown runtime 'sklearn-1.x'; choose from triton-2.x, mlserver-1.x, ovms-1.x, torchserve-0.x",
    );
  });

  test('fails when podsPerRuntime is not a whole number >= 1', () => {
    expect(() => new ModelMeshServing(platform(), 'modelmesh-serving', { podsPerRuntime: 0 })).toThrow('p/modelmesh-serving: podsPerRuntime 0 must be a whole number >= 1');
  });

  test('fails when two components insist on emitting the shared CRDs, naming both and the fix', () => {
    const p = platform();
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new KServe(p, 'kserve');
    new KServe(p, 'kserve-two', { namespace: 'kserve-two' });
    new ModelMeshServing(p, 'modelmesh-serving');
    const problems = problemsOf(() => p.resolve());
    expect(problems).toContain(
      "p: CRD servingruntimes.serving.kserve.io is declared by 'kserve' (p/kserve) and 'kserve-two' (p/kserve-two); " +
        "choose one owner: platform.resolveCrd('servingruntimes.serving.kserve.io', <component>) or crdOwners: { 'servingruntimes.serving.kserve.io': '<component id>' }, " +
        "or declare it with useCrd(definition, { reason, bundledCopy: true }) in the component that works with the other's copy",
    );
  });
});

describe('MM-STORAGECONFIG: what runtime pods read at run time', () => {
  test('MM-STORAGECONFIG: the storage-config Secret runtime pods mount ships, empty, in the controller\'s namespace', () => {
    const s = find('Secret', 'storage-config');
    expect(s.metadata.namespace).toBe('modelmesh-serving');
    expect(s.type).toBe('Opaque');
    // Users add the connections: no literal credentials in the output.
    expect(s.data).toBeUndefined();
    expect(s.stringData).toBeUndefined();
  });

  test('storageConfigSecret: false leaves it to the platform team', () => {
    const b = build((app) => {
      const p = new Platform(app, 'mm', { name: 'modelmesh', prerequisites: [CERT_MANAGER, MODELMESH_ETCD] });
      new ModelMeshServing(p, 'modelmesh-serving', { storageConfigSecret: false });
      return p;
    });
    expect(b.model.objects.filter((o) => o.json.kind === 'Secret' && o.json.metadata.name === 'storage-config')).toEqual([]);
  });

  test('the config defaults carry upstream\'s keys, builtInServerTypes included', () => {
    const defaults = parse(find('ConfigMap', 'model-serving-config-defaults').data['config-defaults.yaml']);
    expect(Object.keys(defaults).sort()).toEqual([
      'builtInServerTypes', 'headlessService', 'metrics', 'modelMeshImage', 'modelMeshResources', 'podsPerRuntime',
      'restProxy', 'serviceAccountName', 'storageHelperImage', 'storageHelperResources',
    ]);
    expect(defaults.builtInServerTypes).toEqual(['triton', 'mlserver', 'ovms', 'torchserve']);
  });
});
