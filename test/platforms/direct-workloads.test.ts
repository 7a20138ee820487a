import { App } from 'cdk8s';
import { build, problemsOf } from './helpers';
import { GatewayApiInferenceExtension } from '../../constructs/gateway-api-inference-extension';
import { ControllerCustomization, PlatformCustomization } from '../../lib/customization';
import { PlatformBuild } from '../../lib/synth';
import { KubeflowPlatform } from '../../platforms/kubeflow';
import { ModelServingPlatform } from '../../platforms/model-serving';

/**
 * The Deployments and StatefulSets that constructs write field by field (workloadObject in
 * lib/workload.ts), by platform: `<component>/<name>` and the container resources apply to.
 */
const KUBEFLOW: Record<string, { kind: string; container: string }> = {
  'central-dashboard/dashboard': { kind: 'Deployment', container: 'dashboard' },
  'katib/katib-ui': { kind: 'Deployment', container: 'katib-ui' },
  'katib/katib-db-manager': { kind: 'Deployment', container: 'katib-db-manager' },
  'katib/katib-mysql': { kind: 'Deployment', container: 'katib-mysql' },
  'kubeflow-pipelines/metacontroller': { kind: 'StatefulSet', container: 'metacontroller' },
  'gateway-api-inference-extension/epp-llama': { kind: 'Deployment', container: 'epp' },
  'kserve/kserve-localmodelnode-agent': { kind: 'DaemonSet', container: 'manager' },
};
const MODEL_SERVING: Record<string, { kind: string; container: string }> = {
  'ai-gateway-payload-processing/payload-pre-processing': { kind: 'Deployment', container: 'payload-pre-processing' },
  'ai-gateway-payload-processing/payload-processing': { kind: 'Deployment', container: 'payload-processing' },
  'odh-model-controller/model-serving-api': { kind: 'Deployment', container: 'server' },
};
/** Those that run one pod at most (a ReadWriteOnce claim, no leader election). */
const SINGLE = new Set(['katib/katib-mysql', 'kubeflow-pipelines/metacontroller']);
/** DaemonSets: one pod per node, so customization sets their resources only. */
const DAEMONSETS = new Set(['kserve/kserve-localmodelnode-agent']);

const MIRROR = 'mirror.example.com/ml';
const RESOURCES = { requests: { cpu: '21m' }, limits: { memory: '3Gi' } };

function kubeflow(custom: PlatformCustomization): PlatformBuild {
  return build((app: App) => {
    const p = new KubeflowPlatform(app, 'kubeflow', custom);
    // An InferencePool, so the extension writes its endpoint picker.
    (p.node.findChild('gateway-api-inference-extension') as GatewayApiInferenceExtension)
      .addInferencePool('Pool', { namespace: 'default', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000] });
    return p;
  });
}
const modelServing = (custom: PlatformCustomization): PlatformBuild => build((app: App) => new ModelServingPlatform(app, 'model-serving', custom));

function workload(b: PlatformBuild, target: string, kind: string): any {
  const [component, name] = target.split('/');
  const found = b.model.objects.filter((o) => o.component.componentName === component && o.json.kind === kind && o.json.metadata.name === name);
  expect(found).toHaveLength(1);
  return found[0].json;
}

const customization = (targets: string[], c: (t: string) => ControllerCustomization): PlatformCustomization => ({
  images: { registryMirror: MIRROR },
  controllers: Object.fromEntries(targets.map((t) => [t, c(t)])),
});

describe.each([
  ['kubeflow', kubeflow, KUBEFLOW],
  ['model-serving', modelServing, MODEL_SERVING],
] as const)('controllers customization reaches every directly written workload of %s', (_name, make, targets) => {
  const plain = make({});
  const custom = make(customization(Object.keys(targets), (t) => (DAEMONSETS.has(t) ? { resources: RESOURCES } : { replicas: SINGLE.has(t) ? 0 : 2, resources: RESOURCES })));

  test('every container of its workloads carries the one restricted securityContext (restrictedContainerSecurityContext)', () => {
    const restricted = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, runAsNonRoot: true };
    for (const target of Object.keys(targets)) {
      const [component, name] = target.split('/');
      const o = plain.model.objects.find((x) => x.component.componentName === component && x.json.metadata.name === name && x.json.spec?.template)!;
      for (const c of o.json.spec.template.spec.containers) expect({ target, securityContext: c.securityContext }).toMatchObject({ target, securityContext: restricted });
    }
  });

  test.each(Object.entries(targets))('%s: replicas, resources merged over its own, image from the mirror', (target, { kind, container }) => {
    const before = workload(plain, target, kind);
    const after = workload(custom, target, kind);
    expect(before.spec.replicas).toBe(DAEMONSETS.has(target) ? undefined : 1);
    expect(after.spec.replicas).toBe(DAEMONSETS.has(target) ? undefined : SINGLE.has(target) ? 0 : 2);
    const ctr = (o: any) => o.spec.template.spec.containers.find((x: any) => x.name === container);
    expect(ctr(after).resources).toEqual({
      requests: { ...ctr(before).resources?.requests, cpu: '21m' },
      limits: { ...ctr(before).resources?.limits, memory: '3Gi' },
    });
    expect(ctr(before).image.startsWith(MIRROR)).toBe(false);
    expect(ctr(after).image.startsWith(`${MIRROR}/`)).toBe(true);
  });
});

describe('customization that a directly written workload cannot take', () => {
  test('fails when it asks for several pods of one that runs a single pod', () => {
    expect(problemsOf(() => kubeflow({ controllers: { 'katib/katib-mysql': { replicas: 2 } } }))).toEqual([
      "kubeflow/katib/MySql/Deployment: customization controllers['katib/katib-mysql'].replicas 2: its ReadWriteOnce claim mounts on one pod, and two MySQL servers must not share a data directory; use replicas: 1 (or 0)",
    ]);
  });

  test('fails when it sets replicas of a DaemonSet', () => {
    expect(problemsOf(() => kubeflow({ controllers: { 'kserve/kserve-localmodelnode-agent': { replicas: 2 } } }))).toEqual([
      "kubeflow/kserve/NodeAgent: customization controllers['kserve/kserve-localmodelnode-agent'].replicas 2: kserve-localmodelnode-agent is a DaemonSet, which runs one pod per node; customize its resources only",
    ]);
  });

  test('fails when merged resources request more than their limit, naming the customization', () => {
    expect(problemsOf(() => kubeflow({ controllers: { 'central-dashboard/dashboard': { resources: { requests: { memory: '1Gi' } } } } }))).toEqual([
      "kubeflow/central-dashboard/Deployment: customization controllers['central-dashboard/dashboard'].resources merged over the component's: requests.memory '1Gi' is above limits.memory '512Mi'; raise the limit or lower the request",
    ]);
  });

  test('several endpoint-picker replicas turn on its leader election', () => {
    const b = kubeflow({ controllers: { 'gateway-api-inference-extension/epp-llama': { replicas: 3 } } });
    const epp = workload(b, 'gateway-api-inference-extension/epp-llama', 'Deployment');
    expect(epp.spec.replicas).toBe(3);
    expect(epp.spec.template.spec.containers[0].args).toContain('--ha-enable-leader-election');
  });
});
