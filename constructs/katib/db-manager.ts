import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { katibLabels, RESTRICTED_POD } from './pod';
import { DatabaseEngine, defaultPort, envFrom, ExternalDatabase, SecretKeyRef } from '../../lib/database';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';

export const KATIB_DB_MANAGER_PORT = 6789;

export interface KatibDbManagerProps {
  readonly namespace: string;
  readonly image: string;
  /** Where the database is: the included MySQL (host katib-mysql) or an external server. */
  readonly database: ExternalDatabase;
  readonly replicas: number;
}

/**
 * katib-db-manager: the gRPC service (port 6789) through which the controller and the
 * metrics collectors store and read observation logs. It connects to MySQL or PostgreSQL
 * as DB_NAME selects; the password comes from a Secret reference only.
 */
export class KatibDbManager extends Construct {
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;

  constructor(scope: Construct, id: string, props: KatibDbManagerProps) {
    super(scope, id);
    const labels = katibLabels('db-manager');
    const db = props.database;
    const prefix = db.engine === DatabaseEngine.MYSQL ? 'KATIB_MYSQL_DB' : 'KATIB_POSTGRESQL_DB';
    const env = [
      { name: 'DB_NAME', value: db.engine },
      envFrom('DB_USER', db.user as string | SecretKeyRef),
      envFrom('DB_PASSWORD', db.passwordSecret),
      { name: `${prefix}_HOST`, value: db.host },
      { name: `${prefix}_PORT`, value: String(db.port ?? defaultPort(db.engine)) },
      { name: `${prefix}_DATABASE`, value: db.database },
    ];
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: { name: 'katib-db-manager', namespace: props.namespace, labels },
      spec: {
        replicas: props.replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels, annotations: { 'sidecar.istio.io/inject': 'false' } },
          spec: {
            automountServiceAccountToken: false,
            securityContext: RESTRICTED_POD,
            containers: [{
              name: 'katib-db-manager',
              image: props.image,
              command: ['./katib-db-manager'],
              env,
              ports: [{ name: 'api', containerPort: KATIB_DB_MANAGER_PORT, protocol: 'TCP' }],
              // gRPC health service; upstream probes it every minute after 10 s (unconfirmed timings).
              livenessProbe: { grpc: { port: KATIB_DB_MANAGER_PORT }, initialDelaySeconds: 10, periodSeconds: 60, failureThreshold: 5 },
              // Upstream sets no resources: requests only (MLP054), no limits that could throttle or kill it.
              resources: { requests: { cpu: '10m', memory: '64Mi' } },
              securityContext: restrictedContainerSecurityContext({ runAsUser: 1000 }),
            }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: { name: 'katib-db-manager', namespace: props.namespace, labels },
      spec: {
        selector: labels,
        ports: [{ name: 'api', port: KATIB_DB_MANAGER_PORT, targetPort: k8s.IntOrString.fromString('api'), protocol: 'TCP' }],
      },
    });
  }
}
