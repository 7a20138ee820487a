import { build } from './helpers';
import { Controller } from '../../lib/controller';
import { metricsTable } from '../../lib/report';
import { PlatformBuild } from '../../lib/synth';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';
import { TrainingPlatform } from '../../platforms/training';

/**
 * The five controllers upstream serves plain-HTTP metrics for on a Service port (ModelMesh,
 * KubeRay, odh-model-controller, the training-operator and both Spark Operator services),
 * and the Llama Stack operator, are fenced: their metrics port admits only the monitoring
 * namespace, and nothing else of their pods is closed by the fence.
 */
const fenceOf = (objects: any[], ns: string, deployment: string) => {
  const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.namespace === ns && o.metadata.name === deployment);
  const np = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.namespace === ns && o.metadata.name === `${deployment}-metrics-fence`);
  return { d, np };
};
const from = (ns: string) => [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [ns] }] } }];
/** The metrics port the Controller named `name` declares. */
const metricsPort = (b: PlatformBuild, name: string) => {
  const ctl = b.model.components.flatMap((c) => c.node.findAll()).find((x): x is Controller => x instanceof Controller && x.name === name)!;
  return ctl.metrics!.port;
};

describe('metrics fence in the default platforms', () => {
  test('training: the training-operator, both Spark Operator services and KubeRay, each fence selecting only its own pods', () => {
    const t = build((app) => new TrainingPlatform(app, 'training'));
    const objects = t.model.objects.map((o) => o.json);
    for (const [ns, name] of [['kubeflow', 'training-operator'], ['spark-operator', 'spark-operator-controller'], ['spark-operator', 'spark-operator-webhook'], ['ray-system', 'kuberay-operator']]) {
      const { d, np } = fenceOf(objects, ns, name);
      expect(np.spec.podSelector).toEqual({ matchLabels: d.spec.selector.matchLabels });
      expect(np.spec.ingress[0]).toEqual({ from: from('monitoring'), ports: [{ port: metricsPort(t, name), protocol: 'TCP' }] });
      // Every other port of the pod stays open as before.
      const others = d.spec.template.spec.containers.flatMap((c: any) => c.ports ?? []).map((p: any) => p.containerPort).filter((p: number) => p !== metricsPort(t, name)).sort();
      expect((np.spec.ingress[1]?.ports ?? []).map((p: any) => p.port)).toEqual(others);
    }
    expect(metricsTable(t.model).filter((l) => l.includes('only from namespace monitoring'))).toHaveLength(5);
  });

  test('Open Data Hub: ModelMesh, odh-model-controller, KubeRay, training-operator and Llama Stack fenced to OpenShift\'s user-workload monitoring namespace', () => {
    const odh = build((app) => new OpenDataHubPlatform(app, 'opendatahub'));
    const objects = odh.model.objects.map((o) => o.json);
    for (const name of ['modelmesh-controller', 'odh-model-controller', 'kuberay-operator', 'training-operator', 'llama-stack-k8s-operator-controller-manager']) {
      const { d, np } = fenceOf(objects, 'opendatahub', name);
      expect(np.spec.ingress[0].from).toEqual(from('openshift-user-workload-monitoring'));
      expect(np.spec.ingress[0].ports).toEqual([{ port: metricsPort(odh, name), protocol: 'TCP' }]);
      expect(np.spec.podSelector).toEqual({ matchLabels: d.spec.selector.matchLabels });
    }
    const custom = build((app) => new OpenDataHubPlatform(app, 'opendatahub', { metricsFence: { enabled: false } }));
    expect(custom.model.objects.filter((o) => o.json.kind === 'NetworkPolicy').map((o) => o.json.metadata.name)).toEqual(['modelmesh-webhook', 'modelmesh-runtimes']);
  });
});
