import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { restrictedContainerSecurityContext, RootFilesystem } from '../../lib/security';
import { workloadObject } from '../../lib/workload';

/** The ext-proc gRPC port and the metrics port of the payload processor. */
export const PAYLOAD_PROCESSOR_PORTS = { grpc: 9004, metrics: 9005 } as const;

export interface PayloadProcessorProps {
  /** Deployment, Service and `app` label, e.g. payload-processing. */
  readonly name: string;
  readonly namespace: string;
  readonly image: string;
  readonly serviceAccountName: string;
  /** ConfigMap holding the stage configurations, mounted at /config. */
  readonly configMapName: string;
  /** Key of this stage's configuration in the ConfigMap. */
  readonly configKey: string;
  /** Labels shared by every object of the component. */
  readonly labels: Record<string, string>;
  /** @default 1 */
  readonly replicas?: number;
  /** klog verbosity (--v). */
  readonly verbosity: number;
  /** Whether the stage serves metrics on PAYLOAD_PROCESSOR_PORTS.metrics. */
  readonly metrics: boolean;
  readonly resources: { requests: Record<string, string>; limits: Record<string, string> };
}

/**
 * One stage of the payload processor: a Deployment of the ext-proc server and the Service the
 * gateway's ext_proc filter calls (gRPC over HTTP/2).
 */
export class PayloadProcessor extends Construct {
  public readonly name: string;
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;

  constructor(scope: Construct, id: string, props: PayloadProcessorProps) {
    super(scope, id);
    this.name = props.name;
    const selector = { app: props.name, ...props.labels };
    const meta = { name: props.name, namespace: props.namespace, labels: props.labels };
    const ports: Array<Record<string, unknown>> = [{ name: 'grpc', containerPort: PAYLOAD_PROCESSOR_PORTS.grpc, protocol: 'TCP' }];
    if (props.metrics) ports.push({ name: 'metrics', containerPort: PAYLOAD_PROCESSOR_PORTS.metrics, protocol: 'TCP' });
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: meta,
      spec: {
        replicas: props.replicas ?? 1,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: selector },
          spec: {
            serviceAccountName: props.serviceAccountName,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: props.name,
              image: props.image,
              imagePullPolicy: 'IfNotPresent',
              args: ['--config-file', `/config/${props.configKey}`, `--v=${props.verbosity}`, '--tracing=false'],
              ports,
              // The server has no HTTP health endpoint: probes open the gRPC port.
              livenessProbe: { tcpSocket: { port: 'grpc' }, initialDelaySeconds: 15, periodSeconds: 20 },
              readinessProbe: { tcpSocket: { port: 'grpc' }, initialDelaySeconds: 5, periodSeconds: 10 },
              resources: props.resources,
              securityContext: restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.readOnly(), seccompProfile: true }),
              volumeMounts: [{ name: 'plugins-config-volume', mountPath: '/config' }],
            }],
            volumes: [{ name: 'plugins-config-volume', configMap: { name: props.configMapName } }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: meta,
      spec: {
        selector,
        ports: [{ name: 'grpc', port: PAYLOAD_PROCESSOR_PORTS.grpc, targetPort: k8s.IntOrString.fromNumber(PAYLOAD_PROCESSOR_PORTS.grpc), protocol: 'TCP', appProtocol: 'HTTP2' }],
      },
    });
  }
}
