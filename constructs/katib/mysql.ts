import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { katibLabels, RESTRICTED_POD } from './pod';
import { databaseProbes, SecretKeyRef } from '../../lib/database';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';

export const KATIB_MYSQL_SERVICE = 'katib-mysql';
export const KATIB_MYSQL_DATABASE = 'katib';

export interface KatibMySqlProps {
  readonly namespace: string;
  readonly image: string;
  /** The root password's Secret key (the platform team creates the Secret; it is not emitted). */
  readonly rootPassword: SecretKeyRef;
  /** Size of the data volume. */
  readonly storage: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
}

/** The uid and gid of the mysql user in the official image. */
const MYSQL_UID = 999;

/**
 * The MySQL server that Katib's standalone install includes (katib-mysql): one replica,
 * Recreate strategy, data on a PersistentVolumeClaim. Unlike upstream (which ships a Secret
 * with a literal password), the root password is a Secret reference the platform team
 * provides. It runs as the image's mysql user with the root filesystem writable, as
 * upstream's (MySQL writes its socket and temporary files there).
 */
export class KatibMySql extends Construct {
  public readonly deployment: ApiObject;

  constructor(scope: Construct, id: string, props: KatibMySqlProps) {
    super(scope, id);
    const labels = katibLabels('mysql');
    new k8s.KubePersistentVolumeClaim(this, 'Storage', {
      metadata: { name: 'katib-mysql', namespace: props.namespace, labels },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: props.storageClassName,
        resources: { requests: { storage: k8s.Quantity.fromString(props.storage) } },
      },
    });
    // Upstream's probes (v0.19.0): 15 minutes to start, then restarted after 10 failed pings.
    const ping = { exec: { command: ['/bin/bash', '-c', 'mysqladmin ping -u root -p${MYSQL_ROOT_PASSWORD}'] } };
    const probes = databaseProbes(`${this.node.path}/katib-mysql`, {
      readiness: { exec: { command: ['/bin/bash', '-c', "mysql -D ${MYSQL_DATABASE} -u root -p${MYSQL_ROOT_PASSWORD} -e 'SELECT 1'"] }, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 10 },
      liveness: { ...ping, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 10 },
      startup: { ...ping, periodSeconds: 15, failureThreshold: 60 },
    });
    const password = { name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: props.rootPassword.name, key: props.rootPassword.key } } };
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: { name: 'katib-mysql', namespace: props.namespace, labels },
      singleReplica: 'its ReadWriteOnce claim mounts on one pod, and two MySQL servers must not share a data directory',
      spec: {
        replicas: 1,
        strategy: { type: 'Recreate' },
        selector: { matchLabels: labels },
        template: {
          metadata: { labels, annotations: { 'sidecar.istio.io/inject': 'false' } },
          spec: {
            automountServiceAccountToken: false,
            securityContext: { ...RESTRICTED_POD, fsGroup: MYSQL_UID, runAsGroup: MYSQL_UID },
            containers: [{
              name: 'katib-mysql',
              image: props.image,
              args: ['--datadir', '/var/lib/mysql/datadir'],
              env: [password, { name: 'MYSQL_ALLOW_EMPTY_PASSWORD', value: 'true' }, { name: 'MYSQL_DATABASE', value: KATIB_MYSQL_DATABASE }],
              ports: [{ name: 'dbapi', containerPort: 3306, protocol: 'TCP' }],
              readinessProbe: probes.readiness,
              livenessProbe: probes.liveness,
              startupProbe: probes.startup,
              // Upstream sets no resources: requests only (MLP054), no limits that could kill the database.
              resources: { requests: { cpu: '100m', memory: '256Mi' } },
              securityContext: restrictedContainerSecurityContext({ runAsUser: MYSQL_UID }),
              volumeMounts: [
                { name: 'katib-mysql', mountPath: '/var/lib/mysql' },
              ],
            }],
            volumes: [
              { name: 'katib-mysql', persistentVolumeClaim: { claimName: 'katib-mysql' } },
            ],
          },
        },
      },
    });
    new k8s.KubeService(this, 'Service', {
      metadata: { name: KATIB_MYSQL_SERVICE, namespace: props.namespace, labels },
      spec: { selector: labels, ports: [{ name: 'dbapi', port: 3306, targetPort: k8s.IntOrString.fromString('dbapi'), protocol: 'TCP' }] },
    });
  }
}
