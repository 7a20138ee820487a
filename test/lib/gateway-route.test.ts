import { App } from 'cdk8s';
import { Component } from '../../lib/component';
import { addGatewayRoute, GatewayRouteProps, gatewayRouteProblems } from '../../lib/gateway-route';
import { ImageSpec } from '../../lib/images';
import { Platform } from '../../lib/platform';

class Routed extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = {};
  constructor(scope: Platform, id: string, route: Partial<GatewayRouteProps>) {
    super(scope, id, 'apps');
    addGatewayRoute(this, 'Route', {
      name: 'app', labels: { app: 'app' }, selector: { app: 'app' }, gateway: 'kubeflow/kubeflow-gateway', prefix: '/app/', serviceName: 'app-service', servicePort: 80, ...route,
    });
  }
}
const objectsOf = (route: Partial<GatewayRouteProps>) => {
  const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'p' });
  const c = new Routed(p, 'routed', route);
  return c.apiObjects.map((o) => o.toJson());
};

describe('addGatewayRoute', () => {
  test('a VirtualService on the gateway, an AuthorizationPolicy admitting only the ingress gateway, a DestinationRule with mutual TLS, each naming the Service by its cluster DNS name', () => {
    const [vs, ap, dr] = objectsOf({ clusterDomain: 'example.internal', timeout: '300s' });
    expect(vs.spec).toEqual({
      gateways: ['kubeflow/kubeflow-gateway'],
      hosts: ['*'],
      http: [{
        headers: { request: { add: { 'x-forwarded-prefix': '/app' } } },
        match: [{ uri: { prefix: '/app/' } }],
        rewrite: { uri: '/' },
        route: [{ destination: { host: 'app-service.apps.svc.example.internal', port: { number: 80 } } }],
        timeout: '300s',
      }],
    });
    expect(ap.spec.rules).toEqual([{ from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }]);
    expect(ap.spec.selector).toEqual({ matchLabels: { app: 'app' } });
    expect(dr.spec).toEqual({ host: 'app-service.apps.svc.example.internal', trafficPolicy: { tls: { mode: 'ISTIO_MUTUAL' } } });
  });

  test('rewrite: false keeps the path and sets no prefix header', () => {
    const [vs] = objectsOf({ rewrite: false });
    expect(vs.spec.http[0].rewrite).toBeUndefined();
    expect(vs.spec.http[0].headers).toBeUndefined();
  });

  test('bad gateway, prefix and domain are errors naming the construct, the value and the form expected', () => {
    expect(() => objectsOf({ prefix: '/app' })).toThrow("p/routed: prefix '/app' must start and end with /");
    expect(() => objectsOf({ gateway: 'gw' })).toThrow("p/routed: gateway 'gw' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)");
    expect(gatewayRouteProblems('istio.gateway', 'kubeflow/kubeflow-gateway', 'Bad Domain')).toEqual(["clusterDomain 'Bad Domain' is not a DNS domain; give the cluster's domain, e.g. cluster.local"]);
  });
});
