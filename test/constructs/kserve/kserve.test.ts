import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe, KServeProps, LLM_INFERENCE_SERVICE_CONFIG_PRESETS } from '../../../constructs/kserve';
import { vllmLaunchScript } from '../../../constructs/kserve/llm-launcher';
import { KSERVE_MANAGER_RULES, LLMISVC_MANAGER_RULES, RBAC_LEFT_OUT } from '../../../constructs/kserve/rbac';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { allows } from '../../../lib/rbac';
import { securityExceptionsOf } from '../../../lib/security';

function kserve(props: KServeProps = {}): { objects: any[]; k: KServe } {
  const platform = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
  new GatewayApiInferenceExtension(platform, 'gateway-api-inference-extension');
  const k = new KServe(platform, 'kserve', props);
  return { objects: k.toJson(), k };
}

const defaults = kserve();
const find = (kind: string, name: string, objects = defaults.objects) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};
const container = (d: any, name: string) => d.spec.template.spec.containers.find((c: any) => c.name === name);

describe('KServe controllers: metrics served authenticated', () => {
  test('the manager keeps plain metrics on localhost behind kube-rbac-proxy, on upstream\'s Service', () => {
    const d = find('Deployment', 'kserve-controller-manager');
    expect(container(d, 'manager').args).toContain('--metrics-addr=127.0.0.1:8080');
    expect(container(d, 'manager').ports.map((p: any) => p.name)).toEqual(['health', 'webhook-server']);
    expect(container(d, 'kube-rbac-proxy').image).toBe('quay.io/brancz/kube-rbac-proxy:v0.18.0');
    const svc = find('Service', 'kserve-controller-manager-metrics-service');
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    expect(svc.metadata.annotations['prometheus.io/scheme']).toBe('https');
  });

  test('the LLMInferenceService controller serves secure metrics on 8443 through upstream\'s Service', () => {
    const d = find('Deployment', 'llmisvc-controller-manager');
    expect(container(d, 'manager').args).toEqual(expect.arrayContaining(['--metrics-addr=:8443', '--metrics-secure']));
    expect(find('Service', 'llmisvc-controller-manager-service').spec.ports[0]).toMatchObject({ port: 8443, targetPort: 'metrics' });
  });

  test('no controller exposes plain-HTTP metrics through a Service', () => {
    for (const svc of defaults.objects.filter((o) => o.kind === 'Service')) {
      for (const p of svc.spec.ports) expect(p.port === 8080 && p.name === 'metrics').toBe(false);
    }
  });
});

describe('KServe RBAC against upstream v0.20.0', () => {
  const role = find('ClusterRole', 'llmisvc-controller-manager-role');

  test('the llmisvc ClusterRole keeps its /metrics non-resource rule intact', () => {
    expect(role.rules).toContainEqual({ nonResourceURLs: ['/metrics'], verbs: ['get'] });
    for (const r of role.rules) expect(r.apiGroups?.length || r.nonResourceURLs?.length).toBeTruthy();
  });

  test('llmisvc creates the scheduler\'s RoleBindings and auth-delegator ClusterRoleBinding and reads ConfigMaps, Pods and EndpointSlices', () => {
    for (const res of ['roles', 'rolebindings', 'clusterrolebindings']) expect(allows(role.rules, 'rbac.authorization.k8s.io', res, 'create')).toBe(true);
    expect(allows(role.rules, '', 'configmaps', 'watch')).toBe(true);
    // v0.20.0's llmisvc only reads ConfigMaps (upstream grants get, list, watch): no writes.
    for (const verb of ['create', 'update', 'patch', 'delete']) expect([verb, allows(role.rules, '', 'configmaps', verb)]).toEqual([verb, false]);
    expect(allows(role.rules, '', 'pods', 'list')).toBe(true);
    expect(allows(role.rules, 'discovery.k8s.io', 'endpointslices', 'watch')).toBe(true);
  });

  test('VariantAutoscalings: list and delete by default; create and update with the autoscaler in the platform', () => {
    expect(allows(role.rules, 'llmd.ai', 'variantautoscalings', 'delete')).toBe(true);
    expect(allows(role.rules, 'llmd.ai', 'variantautoscalings', 'create')).toBe(false);
    const { objects, k } = kserve({ workloadVariantAutoscaler: true });
    const withWva = find('ClusterRole', 'llmisvc-controller-manager-role', objects);
    expect(allows(withWva.rules, 'llmd.ai', 'variantautoscalings', 'create')).toBe(true);
    expect(allows(withWva.rules, 'llmd.ai', 'variantautoscalings', 'update')).toBe(true);
    expect(k.requires.map((r) => `${r.group}/${r.kind}`)).toContain('llmd.ai/VariantAutoscaling');
  });

  test('every triple documented as left out is really not granted, and says why', () => {
    const rulesOf: Record<string, typeof KSERVE_MANAGER_RULES> = {
      'kserve-controller-manager': [...find('ClusterRole', 'kserve-controller-manager-role').rules],
      'llmisvc-controller-manager': [...role.rules],
    };
    for (const l of RBAC_LEFT_OUT) {
      expect(l.reason.length).toBeGreaterThan(20);
      for (const res of l.resources) {
        for (const verb of l.verbs ?? ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']) {
          expect([l.serviceAccount, l.group, res, verb, allows(rulesOf[l.serviceAccount], l.group, res, verb)]).toEqual([l.serviceAccount, l.group, res, verb, false]);
        }
      }
    }
    expect(LLMISVC_MANAGER_RULES.length).toBeGreaterThan(10);
  });
});

describe('KServe default resources of v0.20.0', () => {
  test('the 10 LLMInferenceServiceConfig presets, in the controller namespace, at the storage version', () => {
    const presets = defaults.objects.filter((o) => o.kind === 'LLMInferenceServiceConfig');
    expect(presets.map((p) => p.metadata.name).sort()).toEqual([
      'kserve-config-llm-decode-template', 'kserve-config-llm-decode-worker-data-parallel', 'kserve-config-llm-prefill-template',
      'kserve-config-llm-prefill-worker-data-parallel', 'kserve-config-llm-router-route', 'kserve-config-llm-scheduler',
      'kserve-config-llm-scheduler-latency-predictor', 'kserve-config-llm-template', 'kserve-config-llm-tracing', 'kserve-config-llm-worker-data-parallel',
    ]);
    expect(LLM_INFERENCE_SERVICE_CONFIG_PRESETS).toHaveLength(10);
    for (const p of presets) expect([p.apiVersion, p.metadata.namespace]).toEqual(['serving.kserve.io/v1alpha2', 'kserve']);
  });

  test('presets: vLLM behind the routing sidecar on 8001 for decode, scheduler with its tokenizer, route to the pool', () => {
    const decode = find('LLMInferenceServiceConfig', 'kserve-config-llm-decode-template').spec.template;
    expect(decode.initContainers[0]).toMatchObject({ name: 'llm-d-routing-sidecar', restartPolicy: 'Always', image: 'ghcr.io/llm-d/llm-d-router-disagg-sidecar:v0.9.0' });
    expect(decode.containers[0].ports).toEqual([{ containerPort: 8001, protocol: 'TCP' }]);
    expect(decode.containers[0].command.slice(0, 2)).toEqual(['/bin/bash', '-c']);
    const sched = find('LLMInferenceServiceConfig', 'kserve-config-llm-scheduler').spec.router.scheduler;
    expect(sched.template.containers.map((c: any) => c.name)).toEqual(['main', 'tokenizer']);
    expect(sched.pool.spec.endpointPickerRef).toEqual({ failureMode: 'FailOpen', kind: 'Service', name: '{{ ChildName .ObjectMeta.Name `-epp-service` }}', port: { number: 9002 } });
    const rules = find('LLMInferenceServiceConfig', 'kserve-config-llm-router-route').spec.router.route.http.spec.rules;
    expect(rules).toHaveLength(12);
    expect(rules.map((r: any) => r.name)).toContain('v1-model-routing');
    const dp = find('LLMInferenceServiceConfig', 'kserve-config-llm-worker-data-parallel').spec;
    expect(dp.template.containers[0].securityContext.capabilities.add).toEqual(['IPC_LOCK', 'SYS_RAWIO', 'NET_RAW']);
    expect(dp.worker.containers[0].livenessProbe).toBeUndefined();
  });

  test('our launch scripts: single-node serve, data-parallel leader and headless workers (run in ./llm-launcher.test.ts)', () => {
    const single = vllmLaunchScript({ role: 'single', port: 8000, preStopSeconds: 15 });
    expect(single).toContain('eval "$line"');
    expect(single).toContain('--port 8000');
    expect(single).not.toContain('--headless');
    expect(vllmLaunchScript({ role: 'data-parallel-leader', port: 8000, preStopSeconds: 15 })).toContain('--api-server-count');
    const worker = vllmLaunchScript({ role: 'data-parallel-worker', port: 8001, preStopSeconds: 15 });
    expect(worker).toContain('parallel+=(--headless)');
    expect(worker).toContain('--port 8001');
  });

  test('the default ClusterStorageContainer with the storage initializer image', () => {
    const csc = find('ClusterStorageContainer', 'default');
    expect(csc.spec.container.image).toBe('kserve/storage-initializer:v0.20.0');
    expect(csc.spec.supportedUriFormats).toHaveLength(8);
    expect(csc.spec.workloadType).toBe('initContainer');
  });

  test('14 ClusterServingRuntimes with v0.20.0 images and their server-type annotation', () => {
    const rts = defaults.objects.filter((o) => o.kind === 'ClusterServingRuntime');
    expect(rts).toHaveLength(14);
    const image = (n: string) => find('ClusterServingRuntime', n).spec.containers[0].image;
    expect(image('kserve-mlserver')).toBe('docker.io/seldonio/mlserver:1.7.1');
    expect(image('kserve-vllmserver')).toBe('vllm/vllm-openai:v0.20.0');
    expect(image('kserve-autogluonserver')).toBe('kserve/autogluonserver:v0.20.0');
    expect(find('ClusterServingRuntime', 'kserve-predictiveserver').spec.supportedModelFormats.every((f: any) => f.autoSelect === false)).toBe(true);
    expect(find('ClusterServingRuntime', 'kserve-sklearnserver').spec.supportedModelFormats[0].priority).toBe(1);
    expect(find('ClusterServingRuntime', 'kserve-tensorflow-serving').metadata.annotations).toEqual({ 'serving.kserve.io/server-type': 'tensorflow-serving' });
    const mn = find('ClusterServingRuntime', 'kserve-huggingfaceserver-multinode').spec;
    expect(mn.containers[0].command.slice(0, 2)).toEqual(['bash', '-c']);
    expect(mn.workerSpec.containers[0].command[2]).toContain('ray start --address=');
  });

  test('presets and the storage container can be left out', () => {
    const { objects } = kserve({ llmInferenceServiceConfigs: ['kserve-config-llm-template'], defaultStorageContainer: false });
    expect(objects.filter((o) => o.kind === 'LLMInferenceServiceConfig').map((o) => o.metadata.name)).toEqual(['kserve-config-llm-template']);
    expect(objects.filter((o) => o.kind === 'ClusterStorageContainer')).toEqual([]);
  });

  test('fails when a preset name is unknown', () => {
    expect(() => kserve({ llmInferenceServiceConfigs: ['kserve-config-llm-nope'] })).toThrow(
      "p/kserve: llmInferenceServiceConfigs: unknown preset 'kserve-config-llm-nope'; choose from " + [...LLM_INFERENCE_SERVICE_CONFIG_PRESETS].join(', '),
    );
  });

  test('fails when presets or the autoscaler are asked for without LLMInferenceService', () => {
    expect(() => kserve({ llmInferenceService: false, llmInferenceServiceConfigs: ['kserve-config-llm-template'] })).toThrow(
      'p/kserve: llmInferenceServiceConfigs needs llmInferenceService: true (the presets configure LLMInferenceServices); remove one of them',
    );
    expect(() => kserve({ llmInferenceService: false, workloadVariantAutoscaler: true })).toThrow(
      'p/kserve: workloadVariantAutoscaler needs llmInferenceService: true (WVA scales LLMInferenceService workloads); remove one of them',
    );
  });
});

describe('KServe and the platform safety rules', () => {
  test('the pod mutator skips kube-system as well as namespaces labelled control-plane (ours), MLP053', () => {
    const m = find('MutatingWebhookConfiguration', 'inferenceservice.serving.kserve.io');
    const podMutator = m.webhooks.find((w: any) => w.name === 'inferenceservice.kserve-webhook-server.pod-mutator');
    expect(podMutator.namespaceSelector).toEqual({
      matchExpressions: [
        { key: 'control-plane', operator: 'DoesNotExist' },
        { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
      ],
    });
  });

  test('the LocalModel node agent declares its hostPath with the reason; without localModel there is no exception', () => {
    const agent = defaults.k.node.findChild('NodeAgent');
    expect(securityExceptionsOf(agent)).toEqual([{ check: 'hostPath', reason: expect.stringContaining('model cache on each node\'s disk (/models)'), subject: undefined }]);
    const off = kserve({ localModel: false });
    expect(off.k.node.tryFindChild('NodeAgent')).toBeUndefined();
    expect(off.objects.some((o) => o.kind === 'DaemonSet')).toBe(false);
  });

  test('KSERVE-LOCALMODEL-NODESELECTOR: the node agent runs only on nodes labelled kserve/localmodel=worker, as upstream\'s DaemonSet', () => {
    expect(find('DaemonSet', 'kserve-localmodelnode-agent').spec.template.spec.nodeSelector).toEqual({ 'kserve/localmodel': 'worker' });
  });
});

describe('KServe workloads select on upstream\'s full label set', () => {
  test('each Deployment and the node agent DaemonSet select control-plane and controller-tools.k8s.io as v0.20.0 does; the pods keep app.kubernetes.io/name', () => {
    const { objects } = kserve({ localModel: true });
    for (const [kind, name] of [['Deployment', 'kserve-controller-manager'], ['Deployment', 'llmisvc-controller-manager'], ['Deployment', 'kserve-localmodel-controller-manager'], ['DaemonSet', 'kserve-localmodelnode-agent']]) {
      const w = find(kind, name, objects);
      expect(w.spec.selector.matchLabels).toEqual({ 'control-plane': name, 'controller-tools.k8s.io': '1.0' });
      expect(w.spec.template.metadata.labels).toEqual({ 'control-plane': name, 'controller-tools.k8s.io': '1.0', 'app.kubernetes.io/name': 'kserve' });
    }
  });
});
