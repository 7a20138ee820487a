import { App } from 'cdk8s';
import { parse } from 'yaml';
import { EndpointPickerPluginConfig, GatewayApiInferenceExtension, GatewayApiInferenceExtensionVersion } from '../../../constructs/gateway-api-inference-extension';
import { inferenceModelRewriteCrd as gieModelRewriteCrd, inferenceObjectiveCrd as gieObjectiveCrd } from '../../../constructs/gateway-api-inference-extension/crds';
import { LlmDRouter, llmdCrds } from '../../../constructs/llm-d-router';
import { CrdScope, crdName } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

const PLUGINS: EndpointPickerPluginConfig = {
  apiVersion: 'llm-d.ai/v1alpha1',
  plugins: [{ type: 'prefix-cache-scorer', parameters: { blockSize: 64 } }, { type: 'load-aware-scorer' }, { type: 'max-score-picker' }],
  schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'prefix-cache-scorer', weight: 2 }, { pluginRef: 'load-aware-scorer', weight: 1 }, { pluginRef: 'max-score-picker' }] }],
};

function platform(app: App, version?: GatewayApiInferenceExtensionVersion) {
  const p = new Platform(app, 'llmd', { name: 'llm-d', prerequisites: [] });
  const gie = new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension', { version });
  const router = new LlmDRouter(p, 'llm-d-router');
  return { p, gie, router };
}

describe('llm-d router CRDs', () => {
  test('InferenceObjective and InferenceModelRewrite in llm-d.ai, v1alpha2, namespaced, with status', () => {
    expect(llmdCrds.CRDS.map(crdName)).toEqual(['inferenceobjectives.llm-d.ai', 'inferencemodelrewrites.llm-d.ai']);
    for (const def of llmdCrds.CRDS) {
      expect(def.scope).toBe(CrdScope.NAMESPACED);
      expect(def.versions.map((v) => [v.name, v.storage])).toEqual([['v1alpha2', true]]);
      expect(def.versions[0].subresources).toEqual({ status: true });
      expect(def.annotations).toEqual({ 'llm-d.ai/bundle-version': 'v0.10.0' });
    }
    expect(llmdCrds.inferenceObjectiveCrd.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Inference Pool', 'Priority', 'Age']);
    expect(llmdCrds.inferenceModelRewriteCrd.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Inference Pool', 'Age']);
  });

  test('a pool reference defaults to an inference.networking.k8s.io InferencePool; priority is int32', () => {
    const spec = llmdCrds.inferenceObjectiveCrd.versions[0].schema.toJson().properties!.spec;
    expect(spec.required).toEqual(['poolRef']);
    expect(spec.properties!.poolRef.properties!.group.default).toBe('inference.networking.k8s.io');
    expect(spec.properties!.poolRef.properties!.kind.default).toBe('InferencePool');
    expect(spec.properties!.priority).toMatchObject({ type: 'integer', format: 'int32' });
  });

  test('the same schemas as the extension\'s inference.networking.x-k8s.io copies, but for priority\'s int32 format (as upstream)', () => {
    const schema = (d: typeof gieObjectiveCrd) => d.versions[0].schema.toJson();
    const gieObjective = schema(gieObjectiveCrd);
    expect(gieObjective.properties!.spec.properties!.priority.format).toBeUndefined();
    const { format, ...priority } = schema(llmdCrds.inferenceObjectiveCrd).properties!.spec.properties!.priority;
    expect(format).toBe('int32');
    expect(priority).toEqual(gieObjective.properties!.spec.properties!.priority);
    const withoutPriority = (j: ReturnType<typeof schema>) => JSON.stringify(j, (k, v) => (k === 'priority' ? undefined : v));
    expect(withoutPriority(schema(llmdCrds.inferenceObjectiveCrd))).toBe(withoutPriority(gieObjective));
    expect(schema(llmdCrds.inferenceModelRewriteCrd)).toEqual(schema(gieModelRewriteCrd));
    expect([gieObjectiveCrd, gieModelRewriteCrd].map(crdName)).toEqual(['inferenceobjectives.inference.networking.x-k8s.io', 'inferencemodelrewrites.inference.networking.x-k8s.io']);
  });
});

describe('llm-d router alone (with the inference extension it requires)', () => {
  const b = build((app) => {
    const { p, gie, router } = platform(app);
    gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], picker: router.scheduler({ pluginConfig: PLUGINS, kvCacheEvents: true }) });
    return p;
  });
  const objects = b.model.objects.map((o) => o.json);
  const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;

  test('orders the extension first and emits both families of CRDs without conflict', () => {
    expect(b.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'llm-d-router']);
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition' && o.metadata.name.endsWith('llm-d.ai')).map((o) => o.metadata.name)).toEqual([
      'inferenceobjectives.llm-d.ai', 'inferencemodelrewrites.llm-d.ai',
    ]);
  });

  test('a pool served by llm-d\'s scheduler: image, flags, plugin ConfigMap, ports and RBAC', () => {
    const c = find('Deployment', 'epp-llama').spec.template.spec.containers[0];
    expect(c.image).toBe('ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0');
    expect(c.args).toEqual([
      '--pool-name', 'llama', '--pool-namespace', 'default', '--pool-group', 'inference.networking.k8s.io', '--zap-encoder', 'json',
      '--config-file', '/config/config.yaml', '--grpc-health-port=9003', '--tracing=false',
    ]);
    expect(c.ports.map((p: any) => [p.name, p.containerPort])).toEqual([['grpc', 9002], ['grpc-health', 9003], ['metrics', 9090], ['zmq', 5557]]);
    expect(c.resources).toEqual({ requests: { cpu: '8', memory: '8Gi' }, limits: { memory: '16Gi' } });
    expect(c.volumeMounts).toEqual([{ name: 'plugin-config', mountPath: '/config', readOnly: true }]);
    const config = parse(find('ConfigMap', 'epp-llama-config').data['config.yaml']);
    expect(config).toEqual({
      apiVersion: 'llm-d.ai/v1alpha1',
      kind: 'EndpointPickerConfig',
      plugins: [{ type: 'prefix-cache-scorer', parameters: { blockSize: 64 } }, { type: 'load-aware-scorer' }, { type: 'max-score-picker' }],
      schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'prefix-cache-scorer', weight: 2 }, { pluginRef: 'load-aware-scorer', weight: 1 }, { pluginRef: 'max-score-picker' }] }],
    });
    const rules = find('Role', 'epp-llama').rules;
    for (const group of ['inference.networking.x-k8s.io', 'llm-d.ai']) {
      expect(rules).toContainEqual({ apiGroups: [group], resources: ['inferencemodelrewrites', 'inferenceobjectives'], verbs: ['get', 'list', 'watch'] });
    }
    expect(find('InferencePool', 'llama').spec.endpointPickerRef).toEqual({ group: '', kind: 'Service', name: 'epp-llama', port: { number: 9002 }, failureMode: 'FailClose' });
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });
});

describe('the endpoint picker role: two implementations', () => {
  test('the default picker of a pool is the extension\'s reference EPP, without plugin configuration', () => {
    const b = build((app) => {
      const { p, gie } = platform(app);
      gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000] });
      return p;
    });
    const d = b.model.objects.find((o) => o.json.kind === 'Deployment')!.json;
    expect(d.spec.template.spec.containers[0].image).toBe('registry.k8s.io/gateway-api-inference-extension/epp:v1.4.0');
    expect(d.spec.template.spec.containers[0].args).toEqual(['--pool-name', 'llama', '--zap-encoder', 'json']);
    expect(b.model.objects.some((o) => o.json.kind === 'ConfigMap')).toBe(false);
  });

  test('both pickers leave the root filesystem writable, as upstream\'s charts do (where they write is not known)', () => {
    const b = build((app) => {
      const { p, gie, router } = platform(app);
      gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000] });
      gie.addInferencePool('Pool2', { namespace: 'default', name: 'mistral', selector: { app: 'mistral' }, targetPorts: [8000], picker: router.scheduler() });
      return p;
    });
    const pickers = b.model.objects.filter((o) => o.json.kind === 'Deployment').map((o) => o.json.spec.template.spec.containers[0]);
    expect(pickers).toHaveLength(2);
    for (const c of pickers) expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, runAsNonRoot: true });
  });

  test('with two replicas the picker elects a leader, with its lease RBAC', () => {
    const b = build((app) => {
      const { p, gie, router } = platform(app);
      gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], eppReplicas: 2, picker: router.scheduler() });
      return p;
    });
    const d = b.model.objects.find((o) => o.json.kind === 'Deployment')!.json;
    expect(d.spec.template.spec.containers[0].args).toContain('--ha-enable-leader-election');
    expect(d.spec.template.spec.containers[0].livenessProbe.grpc.service).toBe('liveness');
    const role = b.model.objects.find((o) => o.json.kind === 'Role')!.json;
    expect(role.rules).toContainEqual({ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
  });

  test('the reference EPP of v1.6 reads no objectives (they moved to llm-d)', () => {
    const b = build((app) => {
      const { p, gie } = platform(app, GatewayApiInferenceExtensionVersion.V1_6);
      gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000] });
      return p;
    });
    const role = b.model.objects.find((o) => o.json.kind === 'Role')!.json;
    expect(role.rules.flatMap((r: any) => r.resources)).not.toContain('inferenceobjectives');
  });
});

describe('llm-d router failures', () => {
  test('fails when the inference extension is missing, naming the kind and its provider', () => {
    const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [] });
    new LlmDRouter(p, 'llm-d-router');
    expect(problemsOf(() => p.resolve())).toEqual([
      "p/llm-d-router: component 'llm-d-router' (LlmDRouter) requires inference.networking.k8s.io/InferencePool (its scheduler picks endpoints of InferencePools, and objectives and rewrites refer to pools), " +
        "but no component of platform 'p' provides it and no prerequisite declares it; add the GatewayApiInferenceExtension component to the platform, " +
        "or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool' }] }]",
    ]);
  });

  test('fails when a scheduler flag is one the construct sets', () => {
    const { router } = platform(new App());
    expect(() => router.scheduler({ flags: { 'pool-name': 'x' } })).toThrow(
      'llmd/llm-d-router: scheduler flags: --pool-name is set by the construct; use the typed option (pluginConfig, tracing, replicas of the pool) instead',
    );
  });

  test('fails when the plugin configuration has another apiVersion', () => {
    const { router } = platform(new App());
    expect(() => router.scheduler({ pluginConfig: { ...PLUGINS, apiVersion: 'inference.networking.x-k8s.io/v1alpha1' } })).toThrow(
      "llmd/llm-d-router: scheduler pluginConfig: apiVersion 'inference.networking.x-k8s.io/v1alpha1' is not read by llm-d router v0.10.0; use llm-d.ai/v1alpha1",
    );
  });

  test('fails when a profile refers to a plugin that is not configured', () => {
    const { gie, router } = platform(new App());
    const picker = router.scheduler({ pluginConfig: { ...PLUGINS, schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'kv-cache-scorer' }] }] } });
    expect(() => gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], picker })).toThrow(
      "llmd/gateway-api-inference-extension/PoolPicker: pluginConfig: profile 'default' refers to plugin 'kv-cache-scorer', which is not in plugins (prefix-cache-scorer, load-aware-scorer, max-score-picker); add it to plugins or fix the name",
    );
  });

  test('fails when two plugins share a name', () => {
    const { gie, router } = platform(new App());
    const picker = router.scheduler({ pluginConfig: { ...PLUGINS, plugins: [...PLUGINS.plugins, { type: 'max-score-picker' }] } });
    expect(() => gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], picker })).toThrow(
      "llmd/gateway-api-inference-extension/PoolPicker: pluginConfig: plugin name 'max-score-picker' is used twice; give one of them another name",
    );
  });

  test('fails when a weight is negative', () => {
    const { gie } = platform(new App());
    const picker = gie.referencePicker({ pluginConfig: { apiVersion: 'inference.networking.x-k8s.io/v1alpha1', plugins: [{ type: 'queue-scorer' }], schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'queue-scorer', weight: -1 }] }] } });
    expect(() => gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], picker })).toThrow(
      "llmd/gateway-api-inference-extension/PoolPicker: pluginConfig: profile 'default' gives plugin 'queue-scorer' weight -1; weights are whole numbers >= 0",
    );
  });

  test('fails when there is no scheduling profile', () => {
    const { gie, router } = platform(new App());
    const picker = router.scheduler({ pluginConfig: { ...PLUGINS, schedulingProfiles: [] } });
    expect(() => gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], picker })).toThrow(
      "llmd/gateway-api-inference-extension/PoolPicker: pluginConfig: no scheduling profile; add at least one (e.g. { name: 'default', plugins: [...] })",
    );
  });

  test('fails when an extra port collides with a picker port', () => {
    const { gie, router } = platform(new App());
    const picker = { ...router.scheduler(), extraPorts: [{ name: 'zmq', containerPort: 9002 }] };
    expect(() => gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], picker })).toThrow(
      'llmd/gateway-api-inference-extension/PoolPicker: extra port zmq uses 9002, which the picker already serves; choose another port',
    );
  });

  test('fails when an implementation without leader election gets two replicas', () => {
    const { gie } = platform(new App());
    const picker = { ...gie.referencePicker(), leaderElectionFlag: undefined };
    expect(() => gie.addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000], eppReplicas: 2, picker })).toThrow(
      'llmd/gateway-api-inference-extension/PoolPicker: replicas 2: the Gateway API Inference Extension EPP v1.4.0 has no leader election here, so it runs one replica; set replicas: 1 or use an implementation with leaderElectionFlag',
    );
  });
});
