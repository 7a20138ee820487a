import { Construct } from 'constructs';
import { Component } from '../../lib/component';
import { Workload } from '../../lib/workload';

/** A database KFP runs for itself: MySQL with a PersistentVolumeClaim. */
export interface IncludedDatabase {
  /** @default 20Gi (upstream's claim) */
  readonly size?: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
}

/** A MySQL-compatible database run outside the platform. */
export interface ExternalDatabase {
  readonly host: string;
  /** @default 3306 */
  readonly port?: number;
}

/** Where KFP keeps runs, experiments and ML Metadata: included (default) or external. */
export type PipelinesDatabase = { readonly included: IncludedDatabase } | { readonly external: ExternalDatabase };

/** An S3-compatible object store KFP runs for itself: SeaweedFS with a PersistentVolumeClaim. */
export interface IncludedObjectStore {
  /** @default 20Gi */
  readonly size?: string;
  readonly storageClassName?: string;
}

/** An S3-compatible object store run outside the platform. */
export interface ExternalObjectStore {
  /** Host name, without scheme or port. */
  readonly host: string;
  /** @default 443 when secure, else 80 */
  readonly port?: number;
  /** HTTPS. @default true */
  readonly secure?: boolean;
  readonly region?: string;
}

/** Where pipeline artifacts and logs go: included (default) or external. */
export type PipelinesObjectStore = { readonly included: IncludedObjectStore } | { readonly external: ExternalObjectStore };

/** How the other KFP workloads reach the database and the object store. */
export interface StorageConnection {
  readonly dbHost: string;
  readonly dbPort: number;
  readonly s3Host: string;
  readonly s3Port: number;
  readonly s3Secure: boolean;
  readonly s3Region?: string;
}

export interface PipelinesStorageProps {
  readonly database: PipelinesDatabase;
  readonly objectStore: PipelinesObjectStore;
  /** Secret (keys username, password) the user creates; never emitted. */
  readonly databaseSecret: string;
  /** Secret (keys accesskey, secretkey) the user creates; never emitted. */
  readonly objectStoreSecret: string;
  readonly mysqlImage: string;
  readonly seaweedfsImage: string;
}

const QUANTITY = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;

/**
 * The database and object store of Kubeflow Pipelines: each either included (a restricted
 * MySQL or SeaweedFS with a claim, as upstream's platform-agnostic install) or external.
 * Credentials always come from Secrets the user creates: no password is ever in the output.
 */
export class PipelinesStorage extends Construct {
  public readonly connection: StorageConnection;

  constructor(scope: Component, id: string, props: PipelinesStorageProps) {
    super(scope, id);
    const where = scope.node.path;
    const size = (what: string, v: string | undefined) => {
      if (v !== undefined && !QUANTITY.test(v)) throw new Error(`${where}: ${what}.size '${v}' is not a quantity; give e.g. 20Gi`);
      return v ?? '20Gi';
    };
    const db = props.database;
    let dbHost: string;
    let dbPort: number;
    if ('external' in db) {
      if (!db.external.host || /[:/]/.test(db.external.host)) throw new Error(`${where}: database.external.host '${db.external.host}' must be a host name without scheme or port (set port separately)`);
      dbHost = db.external.host;
      dbPort = db.external.port ?? 3306;
    } else {
      // UNCONFIRMED: upstream's MySQL runs with an empty root password (MYSQL_ALLOW_EMPTY_PASSWORD);
      // ours takes the root password from the user's Secret instead.
      new Workload(scope, 'Mysql', {
        name: 'mysql',
        image: props.mysqlImage,
        selectorLabels: { app: 'mysql' },
        args: ['--datadir=/var/lib/mysql'],
        env: [
          { name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: props.databaseSecret, key: 'password' } } },
        ],
        ports: [{ name: 'mysql', containerPort: 3306 }],
        livenessProbe: { tcpSocket: { port: 'mysql' }, initialDelaySeconds: 30, periodSeconds: 10 },
        readinessProbe: { tcpSocket: { port: 'mysql' }, initialDelaySeconds: 5, periodSeconds: 10 },
        // The official image's mysql user.
        runAsUser: 999,
        runAsGroup: 999,
        fsGroup: 999,
        volumeClaims: [{ name: 'mysql-pv-claim', size: size('database.included', db.included.size), storageClassName: db.included.storageClassName, mountPath: '/var/lib/mysql' }],
        resources: { requests: { cpu: '100m', memory: '800Mi' } },
      });
      dbHost = 'mysql';
      dbPort = 3306;
    }

    const os = props.objectStore;
    let s3: Pick<StorageConnection, 's3Host' | 's3Port' | 's3Secure' | 's3Region'>;
    if ('external' in os) {
      if (!os.external.host || /[:/]/.test(os.external.host)) throw new Error(`${where}: objectStore.external.host '${os.external.host}' must be a host name without scheme or port (set port and secure separately)`);
      const secure = os.external.secure ?? true;
      s3 = { s3Host: os.external.host, s3Port: os.external.port ?? (secure ? 443 : 80), s3Secure: secure, s3Region: os.external.region };
    } else {
      // SeaweedFS's S3 gateway on 8333, behind the Service name and port KFP expects
      // (minio-service:9000), as upstream's SeaweedFS install does. Its S3 identities come
      // from the object store Secret. UNCONFIRMED: the exact flags upstream passes.
      new Workload(scope, 'Seaweedfs', {
        name: 'seaweedfs',
        image: props.seaweedfsImage,
        selectorLabels: { app: 'seaweedfs' },
        command: ['weed'],
        args: ['server', '-dir=/data', '-s3', '-s3.port=8333', '-master.volumeSizeLimitMB=1024'],
        env: [
          { name: 'AWS_ACCESS_KEY_ID', valueFrom: { secretKeyRef: { name: props.objectStoreSecret, key: 'accesskey' } } },
          { name: 'AWS_SECRET_ACCESS_KEY', valueFrom: { secretKeyRef: { name: props.objectStoreSecret, key: 'secretkey' } } },
        ],
        ports: [{ name: 's3', containerPort: 8333 }],
        service: { name: 'minio-service', ports: [{ name: 'http', port: 9000, targetPort: 's3' }] },
        readinessProbe: { tcpSocket: { port: 's3' }, initialDelaySeconds: 10 },
        livenessProbe: { tcpSocket: { port: 's3' }, initialDelaySeconds: 30, periodSeconds: 20 },
        runAsUser: 1000,
        fsGroup: 1000,
        volumeClaims: [{ name: 'seaweedfs-pvc', size: size('objectStore.included', os.included.size), storageClassName: os.included.storageClassName, mountPath: '/data' }],
      });
      s3 = { s3Host: 'minio-service', s3Port: 9000, s3Secure: false };
    }
    this.connection = { dbHost, dbPort, ...s3 };
  }
}
