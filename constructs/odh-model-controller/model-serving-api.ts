import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { MODEL_SERVING_API_RULES } from './rbac';
import { Component } from '../../lib/component';
import { bindingObject, roleObject } from '../../lib/rbac';
import { restrictedContainerSecurityContext, RootFilesystem } from '../../lib/security';
import { serviceServingCertificate } from '../../lib/webhook-server';
import { workloadObject } from '../../lib/workload';

export interface ModelServingApiProps {
  readonly image: string;
  /** Label selector of the gateways the API lists. @default '' (all) */
  readonly gatewayLabelSelector?: string;
}

const NAME = 'model-serving-api';
const TLS_SECRET = 'model-serving-api-tls';

/**
 * model-serving-api: the HTTPS API the Open Data Hub dashboard asks which gateways serve
 * models. Its serving certificate comes from the platform's certificate provider.
 */
export class ModelServingApi extends Construct {
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;

  constructor(scope: Component, id: string, props: ModelServingApiProps) {
    super(scope, id);
    const ns = scope.namespaceName;
    const labels = { 'app.kubernetes.io/component': 'server', 'app.kubernetes.io/name': NAME, 'app.kubernetes.io/part-of': 'odh-model-controller' };
    const selector = { app: NAME, ...labels };
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: NAME, namespace: ns, labels } });
    roleObject(this, 'ClusterRole', { name: NAME, labels, rules: MODEL_SERVING_API_RULES });
    bindingObject(this, 'ClusterRoleBinding', { name: NAME, labels, roleRef: { kind: 'ClusterRole', name: NAME }, serviceAccounts: [{ name: NAME, namespace: ns }] });
    const annotations = serviceServingCertificate(this, scope, { serviceName: NAME, secretName: TLS_SECRET });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: { name: NAME, namespace: ns, labels, annotations: Object.keys(annotations).length ? annotations : undefined },
      spec: {
        selector,
        ports: [
          { name: 'https', port: 443, targetPort: k8s.IntOrString.fromNumber(8443), protocol: 'TCP' },
          { name: 'metrics', port: 8080, targetPort: k8s.IntOrString.fromNumber(8080), protocol: 'TCP' },
        ],
      },
    });
    const probe = (path: string) => ({ httpGet: { path, port: 8443, scheme: 'HTTPS' }, initialDelaySeconds: 5, periodSeconds: 10 });
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: { name: NAME, namespace: ns, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: selector },
          spec: {
            serviceAccountName: NAME,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'server',
              image: props.image,
              imagePullPolicy: 'IfNotPresent',
              env: [{ name: 'TLS_CERT_DIR', value: '/tls' }, { name: 'GATEWAY_LABEL_SELECTOR', value: props.gatewayLabelSelector ?? '' }],
              ports: [{ name: 'https', containerPort: 8443, protocol: 'TCP' }, { name: 'metrics', containerPort: 8080, protocol: 'TCP' }],
              livenessProbe: probe('/healthz'),
              readinessProbe: probe('/readyz'),
              resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '1Gi' } },
              securityContext: restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.readOnly() }),
              volumeMounts: [{ name: 'tls-certs', mountPath: '/tls', readOnly: true }],
            }],
            volumes: [{ name: 'tls-certs', secret: { secretName: TLS_SECRET } }],
          },
        },
      },
    });
  }
}
