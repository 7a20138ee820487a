import { ApiObject } from 'cdk8s';
import { Component } from './component';
import { serviceAccountPrincipal } from './network-policy';

/**
 * A web app reached through the Istio ingress gateway, as Kubeflow's web apps are exposed
 * (their istio overlays): a VirtualService routing a path prefix on the gateway to the app's
 * Service, an AuthorizationPolicy admitting only the ingress gateway (the app takes the
 * user's identity from the header the gateway sets), and a DestinationRule sending mutual
 * TLS to the Service.
 */
export interface GatewayRouteProps {
  /** The VirtualService's name. */
  readonly name: string;
  /** Name of the AuthorizationPolicy and DestinationRule. @default name */
  readonly policyName?: string;
  /** Labels of the three objects. */
  readonly labels: Record<string, string>;
  /** The app's pod labels the AuthorizationPolicy selects. */
  readonly selector: Record<string, string>;
  /** The Istio Gateway, as namespace/name. */
  readonly gateway: string;
  /** Path prefix on the gateway, with its trailing slash (e.g. /jupyter/). */
  readonly prefix: string;
  /** The app's Service and port. */
  readonly serviceName: string;
  readonly servicePort: number;
  /** @default cluster.local */
  readonly clusterDomain?: string;
  /** Principal of the ingress gateway. @default cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account */
  readonly ingressGatewayPrincipal?: string;
  /** Route timeout (Istio duration). @default - Istio's (none) */
  readonly timeout?: string;
  /**
   * Whether the prefix is rewritten to / and passed as the x-forwarded-prefix header (the
   * web apps serve at / and build their links from that header). @default true
   */
  readonly rewrite?: boolean;
}

const GATEWAY = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const DOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with a gateway reference and cluster domain (empty when fine), each naming the prop. */
export function gatewayRouteProblems(gatewayProp: string, gateway: string, clusterDomain?: string): string[] {
  const out: string[] = [];
  if (!GATEWAY.test(gateway)) out.push(`${gatewayProp} '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
  if (clusterDomain !== undefined && !DOMAIN.test(clusterDomain)) out.push(`clusterDomain '${clusterDomain}' is not a DNS domain; give the cluster's domain, e.g. cluster.local`);
  return out;
}

/** The objects of a gateway route. */
export interface GatewayRoute {
  readonly virtualService: ApiObject;
  readonly authorizationPolicy: ApiObject;
  readonly destinationRule: ApiObject;
}

/** The Istio kinds a gateway route emits: the component requires each (Component.require). */
export const GATEWAY_ROUTE_KINDS: ReadonlyArray<{ readonly group: string; readonly kind: string }> = [
  { group: 'networking.istio.io', kind: 'VirtualService' },
  { group: 'networking.istio.io', kind: 'DestinationRule' },
  { group: 'security.istio.io', kind: 'AuthorizationPolicy' },
];

/** Adds a web app's route, policy and destination rule to a component (which requires GATEWAY_ROUTE_KINDS). */
export function addGatewayRoute(component: Component, id: string, props: GatewayRouteProps): GatewayRoute {
  const problems = gatewayRouteProblems('gateway', props.gateway, props.clusterDomain);
  if (!props.prefix.startsWith('/') || !props.prefix.endsWith('/')) problems.push(`prefix '${props.prefix}' must start and end with /`);
  if (problems.length) throw new Error(`${component.node.path}: ${problems.join('; ')}`);
  const ns = component.namespaceName;
  const host = `${props.serviceName}.${ns}.svc.${props.clusterDomain ?? 'cluster.local'}`;
  const policyName = props.policyName ?? props.name;
  const rewrite = props.rewrite ?? true;
  const virtualService = new ApiObject(component, `${id}VirtualService`, {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: props.name, namespace: ns, labels: props.labels },
    spec: {
      gateways: [props.gateway],
      hosts: ['*'],
      http: [{
        ...(rewrite ? { headers: { request: { add: { 'x-forwarded-prefix': props.prefix.replace(/\/$/, '') } } } } : {}),
        match: [{ uri: { prefix: props.prefix } }],
        ...(rewrite ? { rewrite: { uri: '/' } } : {}),
        route: [{ destination: { host, port: { number: props.servicePort } } }],
        ...(props.timeout ? { timeout: props.timeout } : {}),
      }],
    },
  });
  const authorizationPolicy = new ApiObject(component, `${id}AuthorizationPolicy`, {
    apiVersion: 'security.istio.io/v1beta1',
    kind: 'AuthorizationPolicy',
    metadata: { name: policyName, namespace: ns, labels: props.labels },
    spec: {
      action: 'ALLOW',
      rules: [{ from: [{ source: { principals: [props.ingressGatewayPrincipal ?? serviceAccountPrincipal('istio-system', 'istio-ingressgateway-service-account')] } }] }],
      selector: { matchLabels: props.selector },
    },
  });
  const destinationRule = new ApiObject(component, `${id}DestinationRule`, {
    apiVersion: 'networking.istio.io/v1',
    kind: 'DestinationRule',
    metadata: { name: policyName, namespace: ns, labels: props.labels },
    spec: { host, trafficPolicy: { tls: { mode: 'ISTIO_MUTUAL' } } },
  });
  return { virtualService, authorizationPolicy, destinationRule };
}
