import { ApiObject } from 'cdk8s';
import { kubeflowIstioResourcesParityDeviations } from './parity';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac, roleObject } from '../../lib/rbac';

/** The release modelled: kubeflow/manifests v1.11.0 (common/istio/kubeflow-istio-resources). */
export const KUBEFLOW_ISTIO_RESOURCES_VERSION = 'v1.11.0';

/** An https server on the gateway, its certificate from a Secret in the ingress gateway's namespace. */
export interface KubeflowGatewayTls {
  /** The kubernetes.io/tls Secret (in the ingress gateway's namespace) the gateway serves. */
  readonly credentialName: string;
  /** Answer plain http with a redirect to https. @default true */
  readonly httpsRedirect?: boolean;
}

export interface KubeflowIstioResourcesProps extends ComponentProps {
  /** @default kubeflow-gateway (the name every Kubeflow app's VirtualService refers to) */
  readonly gatewayName?: string;
  /** Labels of the ingress gateway pods the Gateway configures. @default { istio: 'ingressgateway' } */
  readonly ingressGatewaySelector?: Record<string, string>;
  /** Hosts the gateway serves. @default ['*'] */
  readonly hosts?: string[];
  /** Serve https as well (port 443). @default none: plain http on port 80, as kubeflow/manifests' example */
  readonly tls?: KubeflowGatewayTls;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const HOST = /^(\*|(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$/;
const ISTIO_READ_BECAUSE = 'kubeflow/manifests\' user roles let profile members read every kind of Istio\'s networking groups in their namespace (the kinds differ between Istio releases)';

/**
 * What Kubeflow's ingress needs of Istio besides Istio itself (kubeflow/manifests
 * common/istio/kubeflow-istio-resources): the `kubeflow-gateway` Gateway every app's
 * VirtualService attaches to, and the kubeflow-istio-admin/edit/view roles aggregated into
 * Kubeflow's user roles.
 */
export class KubeflowIstioResources extends Component {
  public override get release(): string {
    return KUBEFLOW_ISTIO_RESOURCES_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = {};
  /** The gateway as VirtualServices name it: namespace/name. */
  public readonly gateway: string;

  constructor(scope: Platform, id: string, props: KubeflowIstioResourcesProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const ns = this.namespaceName;
    const name = props.gatewayName ?? 'kubeflow-gateway';
    const hosts = props.hosts ?? ['*'];
    const selector = props.ingressGatewaySelector ?? { istio: 'ingressgateway' };
    const problems: string[] = [];
    if (!DNS_LABEL.test(name)) problems.push(`gatewayName '${name}' is not a lower-case DNS label`);
    if (!hosts.length) problems.push('hosts is empty; give the host names users reach Kubeflow by, or [\'*\']');
    for (const h of hosts) if (!HOST.test(h)) problems.push(`hosts entry '${h}' is not a host name (e.g. kubeflow.example.com, *.example.com or *)`);
    if (!Object.keys(selector).length) problems.push('ingressGatewaySelector is empty: the Gateway would configure every gateway pod; give the ingress gateway\'s labels, e.g. { istio: \'ingressgateway\' }');
    if (props.tls && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(props.tls.credentialName ?? '')) problems.push(`tls.credentialName '${props.tls.credentialName}' must name a kubernetes.io/tls Secret in the ingress gateway's namespace`);
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);
    this.gateway = `${ns}/${name}`;

    this.addNamespace();
    this.require({ group: 'networking.istio.io', kind: 'Gateway', reason: 'the Kubeflow apps are served through the kubeflow-gateway Gateway' });
    const http = { hosts, port: { name: 'http', number: 80, protocol: 'HTTP' }, ...(props.tls && props.tls.httpsRedirect !== false ? { tls: { httpsRedirect: true } } : {}) };
    const https = props.tls ? [{ hosts, port: { name: 'https', number: 443, protocol: 'HTTPS' }, tls: { mode: 'SIMPLE', credentialName: props.tls.credentialName } }] : [];
    new ApiObject(this, 'Gateway', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'Gateway',
      metadata: { name, namespace: ns },
      spec: { selector, servers: [http, ...https] },
    });

    this.expectOfPrerequisite('istio', `an ingress gateway whose pods carry ${Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(', ')} (Gateway ${this.gateway} configures it)${props.tls ? `, and the TLS Secret ${props.tls.credentialName} in its namespace` : ''}`);
    const istioRead = Rbac.verbs('networking.istio.io', ['*'], ['get', 'list', 'watch']);
    const exception = [{ check: 'wildcardRbac' as const, reason: ISTIO_READ_BECAUSE }];
    roleObject(this, 'AdminRole', {
      name: 'kubeflow-istio-admin',
      labels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-admin': 'true' },
      rules: [],
      aggregateFrom: [{ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-istio-admin': 'true' }],
    });
    roleObject(this, 'EditRole', {
      name: 'kubeflow-istio-edit',
      labels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true', 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-istio-admin': 'true' },
      rules: [{ ...istioRead, apiGroups: ['istio.io', 'networking.istio.io'] }],
      securityExceptions: exception,
    });
    roleObject(this, 'ViewRole', {
      name: 'kubeflow-istio-view',
      labels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true' },
      rules: [{ ...istioRead, apiGroups: ['istio.io', 'networking.istio.io'] }, Rbac.read('security.istio.io', 'authorizationpolicies')],
      securityExceptions: exception,
    });
    this.declareParityDeviations(kubeflowIstioResourcesParityDeviations());
  }
}
