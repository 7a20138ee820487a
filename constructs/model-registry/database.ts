import { Construct } from 'constructs';
import { Component } from '../../lib/component';
import { DatabaseEngine, databaseProbes, ExternalDatabase, SecretKeyRef } from '../../lib/database';
import { Workload } from '../../lib/workload';

/** Upstream's names for the included database (overlays/db): Service, PVC and Deployment. */
export const MODEL_REGISTRY_DB_SERVICE = 'model-registry-db';
export const MODEL_REGISTRY_DB_CLAIM = 'metadata-mysql';
/** UNCONFIRMED: the database name upstream's params.env sets. */
export const MODEL_REGISTRY_DB_NAME = 'model_registry';

export interface ModelRegistryMySqlProps {
  readonly image: string;
  readonly rootPassword: SecretKeyRef;
  readonly storage: string;
  readonly storageClassName?: string;
}

/** The uid and gid of the mysql user in the official image. */
const MYSQL_UID = 999;

/**
 * The MySQL server the registry includes by default (upstream's overlays/db): one replica,
 * Recreate, data on the claim metadata-mysql, restricted security context with the root
 * filesystem writable as upstream's (MySQL writes its socket and temporary files there). The root password is only a
 * Secret reference (upstream generates a Secret with a literal password; we emit none).
 */
export class ModelRegistryMySql extends Construct {
  public readonly workload: Workload;
  /** How the server reaches it. */
  public readonly connection: ExternalDatabase;

  constructor(scope: Component, id: string, props: ModelRegistryMySqlProps) {
    super(scope, id);
    // As upstream's overlays/db: a readiness probe only (no liveness probe to restart it while it starts).
    const probes = databaseProbes(`${this.node.path}/model-registry-db`, {
      readiness: { exec: { command: ['/bin/bash', '-c', 'mysql -D ${MYSQL_DATABASE} -u root -p${MYSQL_ROOT_PASSWORD} -e "SELECT 1"'] }, initialDelaySeconds: 5, periodSeconds: 2, timeoutSeconds: 1 },
    });
    this.workload = new Workload(scope, `${id}Workload`, {
      name: 'model-registry-db',
      containerName: 'db-container',
      image: props.image,
      // Upstream selects on `component: db`; in a namespace shared with Pipelines' and
      // Katib's databases we use a selector that cannot match another component's pods.
      selectorLabels: { component: 'model-registry-db' },
      // Upstream's args at v0.3.7 (overlays/db): the data directory below the claim's mount.
      args: ['--datadir', '/var/lib/mysql/datadir'],
      env: [
        { name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: props.rootPassword.name, key: props.rootPassword.key } } },
        { name: 'MYSQL_DATABASE', value: MODEL_REGISTRY_DB_NAME },
      ],
      ports: [{ name: 'dbapi', containerPort: 3306 }],
      service: { name: MODEL_REGISTRY_DB_SERVICE, ports: [{ name: 'dbapi', port: 3306, targetPort: 'dbapi' }] },
      readinessProbe: probes.readiness,
      runAsUser: MYSQL_UID,
      runAsGroup: MYSQL_UID,
      fsGroup: MYSQL_UID,
      volumeClaims: [{ name: MODEL_REGISTRY_DB_CLAIM, size: props.storage, storageClassName: props.storageClassName, mountPath: '/var/lib/mysql' }],
      resources: { requests: { cpu: '100m', memory: '512Mi' } },
      // As upstream's overlays/db: the database stays outside the mesh.
      istioSidecar: false,
    });
    this.connection = {
      engine: DatabaseEngine.MYSQL,
      host: MODEL_REGISTRY_DB_SERVICE,
      port: 3306,
      database: MODEL_REGISTRY_DB_NAME,
      user: 'root',
      passwordSecret: props.rootPassword,
    };
  }
}
