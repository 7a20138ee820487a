import { App } from 'cdk8s';
import { KubeflowIstioResources, KubeflowIstioResourcesProps } from '../../../constructs/kubeflow-istio-resources';
import { Platform } from '../../../lib/platform';
import { build } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

const platform = (props: KubeflowIstioResourcesProps = {}) => build((app) => {
  const p = new Platform(app, 'p', { name: 'gw', prerequisites: [ISTIO] });
  new KubeflowIstioResources(p, 'kubeflow-istio-resources', props);
  return p;
});
const objectsOf = (b: ReturnType<typeof platform>) => b.model.objects.map((o) => o.json);
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

describe('KubeflowIstioResources', () => {
  test('the kubeflow-gateway Gateway as kubeflow/manifests v1.11.0: the ingress gateway pods, http on port 80 for every host', () => {
    const objects = objectsOf(platform());
    expect(find(objects, 'Gateway', 'kubeflow-gateway')).toMatchObject({
      metadata: { namespace: 'kubeflow' },
      spec: {
        selector: { istio: 'ingressgateway' }, servers: [{ hosts: ['*'], port: { name: 'http', number: 80, protocol: 'HTTP' } }],
      },
    });
    expect(find(objects, 'ClusterRole', 'kubeflow-istio-admin').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-istio-admin': 'true' } }] });
    expect(find(objects, 'ClusterRole', 'kubeflow-istio-view').rules).toEqual(expect.arrayContaining([{ apiGroups: ['security.istio.io'], resources: ['authorizationpolicies'], verbs: ['get', 'list', 'watch'] }]));
  });

  test('https with a certificate Secret, plain http redirected', () => {
    const gw = find(objectsOf(platform({ hosts: ['kubeflow.example.com'], tls: { credentialName: 'kubeflow-tls' } })), 'Gateway', 'kubeflow-gateway');
    expect(gw.spec.servers).toEqual([
      { hosts: ['kubeflow.example.com'], port: { name: 'http', number: 80, protocol: 'HTTP' }, tls: { httpsRedirect: true } },
      { hosts: ['kubeflow.example.com'], port: { name: 'https', number: 443, protocol: 'HTTPS' }, tls: { mode: 'SIMPLE', credentialName: 'kubeflow-tls' } },
    ]);
  });

  test('fails on a bad host, an empty selector, a bad Secret name', () => {
    const make = (props: KubeflowIstioResourcesProps) => () => new KubeflowIstioResources(new Platform(new App(), 'p', { name: 'x' }), 'kubeflow-istio-resources', props);
    expect(make({ hosts: ['https://kubeflow.example.com'] })).toThrow("p/kubeflow-istio-resources: hosts entry 'https://kubeflow.example.com' is not a host name (e.g. kubeflow.example.com, *.example.com or *)");
    expect(make({ ingressGatewaySelector: {} })).toThrow("p/kubeflow-istio-resources: ingressGatewaySelector is empty: the Gateway would configure every gateway pod; give the ingress gateway's labels, e.g. { istio: 'ingressgateway' }");
    expect(make({ tls: { credentialName: 'TLS' } })).toThrow("p/kubeflow-istio-resources: tls.credentialName 'TLS' must name a kubernetes.io/tls Secret in the ingress gateway's namespace");
  });
});
