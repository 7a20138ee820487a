import { PvcViewerController, PvcViewerControllerProps } from '../../../constructs/pvcviewer-controller';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { build, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

function platform(props: PvcViewerControllerProps = {}) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'pvcviewers', prerequisites: [ISTIO, CERT_MANAGER] });
    new PvcViewerController(p, 'pvcviewer-controller', props);
    return p;
  });
}
const alone = platform();
const objects = alone.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};

describe('PvcViewerController', () => {
  test('the PVCViewer CRD from the Go types at v1.11.0: a core PodSpec (not pruned), networking, rwoScheduling defaulted, Deployment conditions', () => {
    const crd = find('CustomResourceDefinition', 'pvcviewers.kubeflow.org');
    expect(crd.spec.versions.map((v: any) => [v.name, v.storage, v.subresources])).toEqual([['v1alpha1', true, { status: {} }]]);
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    const spec = schema.properties.spec;
    expect(spec.required).toEqual(['pvc', 'rwoScheduling']);
    expect(spec.properties.rwoScheduling).toMatchObject({ type: 'boolean', default: false });
    expect(spec.properties.podSpec.required).toEqual(['containers']);
    expect(Object.keys(spec.properties.podSpec.properties)).toEqual(expect.arrayContaining(['containers', 'volumes', 'serviceAccountName', 'securityContext']));
    expect(spec.properties.networking.properties.targetPort['x-kubernetes-int-or-string']).toBe(true);
    expect(Object.keys(spec.properties.networking.properties).sort()).toEqual(['basePrefix', 'rewrite', 'targetPort', 'timeout']);
    expect(schema.properties.status.required).toEqual(['ready']);
    expect(schema.properties.status.properties.conditions.items.required).toEqual(['status', 'type']);
    // One version: nothing to convert, no conversion webhook.
    expect(crd.spec.conversion ?? { strategy: 'None' }).toEqual({ strategy: 'None' });
  });

  test('its mutating and validating webhooks fail closed, reach the manager\'s port 9443 past the sidecar, with a cert-manager certificate', () => {
    const mutating = find('MutatingWebhookConfiguration', 'pvcviewer-mutating-webhook-configuration');
    const validating = find('ValidatingWebhookConfiguration', 'pvcviewer-validating-webhook-configuration');
    for (const [cfg, name, path] of [[mutating, 'mpvcviewer.kb.io', '/mutate-kubeflow-org-v1alpha1-pvcviewer'], [validating, 'vpvcviewer.kb.io', '/validate-kubeflow-org-v1alpha1-pvcviewer']]) {
      expect(cfg.webhooks).toHaveLength(1);
      expect(cfg.webhooks[0]).toMatchObject({
        name,
        failurePolicy: 'Fail',
        sideEffects: 'None',
        clientConfig: { service: { name: 'pvcviewer-webhook-service', namespace: 'kubeflow', path } },
        rules: [{ apiGroups: ['kubeflow.org'], apiVersions: ['v1alpha1'], resources: ['pvcviewers'], operations: ['CREATE', 'UPDATE'] }],
      });
      expect(cfg.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kubeflow/pvcviewer-serving-cert');
    }
    const pod = find('Deployment', 'pvcviewer-controller-manager').spec.template;
    expect(pod.metadata.annotations['traffic.sidecar.istio.io/excludeInboundPorts']).toBe('9443');
    expect(pod.spec.containers[0].args).toEqual(expect.arrayContaining(['--health-probe-bind-address=:8081', '--leader-elect', '--metrics-bind-address=127.0.0.1:8080']));
    expect(find('Service', 'pvcviewer-webhook-service').spec.selector).toEqual({ 'app': 'pvcviewer', 'control-plane': 'controller-manager' });
  });

  test('replicas 0 is refused: the webhooks fail closed', () => {
    expect(problemsOf(() => platform({ replicas: 0 }))).toEqual([
      'p/pvcviewer-controller: replicas 0 must be a whole number >= 1 (the webhooks fail closed: with 0 replicas no PVCViewer can be created)',
    ]);
  });
});
