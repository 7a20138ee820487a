import { Construct } from 'constructs';
import { Component } from '../../lib/component';
import { databaseProbes } from '../../lib/database';
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
  /** Bucket the included object store creates. */
  readonly bucket: string;
}

/** Container ports of `weed server` (name, port). */
const SEAWEEDFS_PORTS: Array<[string, number]> = [['s3', 8333], ['iam', 8111], ['master', 9333], ['master-grpc', 19333], ['filer', 8888], ['filer-grpc', 18888]];
/** Upstream's `seaweedfs` Service (name, port, target container port). */
const SEAWEEDFS_SERVICE_PORTS: Array<[string, number, string]> = [
  ['http-iam', 8111, 'iam'], ['http-s3', 8333, 's3'], ['http-s3-compat', 9000, 's3'], ['http-master', 9333, 'master'],
  ['grpc-master', 19333, 'master-grpc'], ['grpc-filer', 18888, 'filer-grpc'], ['http-filer', 8888, 'filer'],
];
/** Written by the postStart hook when the bucket and the S3 identity are in place. */
const SEAWEEDFS_READY = '/tmp/initialization-complete';

/**
 * The included object store's postStart hook: wait (at most 2 minutes) for the S3 gateway,
 * create the bucket, then configure the admin identity from the Secret's keys (envFrom:
 * $accesskey, $secretkey), each with retries; a failure fails the container, as it should.
 */
function seaweedfsSetup(bucket: string): string {
  return [
    'retry() { n=$1; shift; i=0; until "$@"; do i=$((i+1)); [ "$i" -lt "$n" ] || return 1; sleep 5; done; }',
    'up() { wget -q -O /dev/null http://127.0.0.1:8333/status; }',
    `bucket() { echo "s3.bucket.create -name ${bucket}" | weed shell >/dev/null 2>&1; echo s3.bucket.list | weed shell 2>/dev/null | grep -q ${bucket}; }`,
    'identity() { echo "s3.configure -user kubeflow-admin -access_key $accesskey -secret_key $secretkey -actions Admin -apply" | weed shell; }',
    `retry 24 up && retry 6 bucket && retry 6 identity && touch ${SEAWEEDFS_READY}`,
  ].join('\n');
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
      // Deliberate difference: upstream's MySQL runs with an empty root password
      // (MYSQL_ALLOW_EMPTY_PASSWORD); ours takes the root password from the user's Secret.
      // Upstream's MySQL has no probes; ours is ready once it accepts connections, and has no
      // liveness probe that could restart it while it initializes (as upstream).
      const probes = databaseProbes(`${where}/mysql`, { readiness: { tcpSocket: { port: 'mysql' }, initialDelaySeconds: 5, periodSeconds: 10 } });
      new Workload(scope, 'Mysql', {
        name: 'mysql',
        image: props.mysqlImage,
        selectorLabels: { app: 'mysql' },
        // As upstream's: ML Metadata's client logs in with mysql_native_password, which MySQL 8.4
        // serves only when enabled; no binary log (no replication).
        args: ['--datadir', '/var/lib/mysql', '--authentication-policy=mysql_native_password', '--mysql-native-password=ON', '--disable-log-bin'],
        env: [
          { name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: props.databaseSecret, key: 'password' } } },
        ],
        ports: [{ name: 'mysql', containerPort: 3306 }],
        readinessProbe: probes.readiness,
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
      // SeaweedFS as KFP 2.17.0 runs it: master, volume server, filer, S3 gateway (8333) and
      // IAM API (8111) in one `weed server`, behind the `seaweedfs` Service (S3 also on 9000,
      // the port KFP's clients and the v2 launcher's default endpoint seaweedfs.kubeflow:9000
      // use). Once the server answers, a postStart hook creates the bucket and the one S3
      // identity (kubeflow-admin, Admin) from the object store Secret's accesskey/secretkey,
      // which closes the store to anonymous requests; the startup probe waits for both.
      const ready = `test -f ${SEAWEEDFS_READY} && echo s3.bucket.list | weed shell 2>/dev/null | grep -q ${props.bucket}`;
      new Workload(scope, 'Seaweedfs', {
        name: 'seaweedfs',
        image: props.seaweedfsImage,
        selectorLabels: { app: 'seaweedfs' },
        args: ['server', '-dir=/data', '-s3', '-iam', '-filer', '-master.volumePreallocate=false'],
        envFrom: [{ secretRef: { name: props.objectStoreSecret } }],
        ports: SEAWEEDFS_PORTS.map(([name, containerPort]) => ({ name, containerPort })),
        service: { name: 'seaweedfs', ports: SEAWEEDFS_SERVICE_PORTS.map(([name, port, targetPort]) => ({ name, port, targetPort })) },
        postStart: ['/bin/sh', '-c', seaweedfsSetup(props.bucket)],
        startupProbe: { exec: { command: ['/bin/sh', '-c', ready] }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 10, failureThreshold: 24 },
        readinessProbe: { httpGet: { path: '/status', port: 's3' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 },
        livenessProbe: { httpGet: { path: '/status', port: 's3' }, initialDelaySeconds: 30, periodSeconds: 30, timeoutSeconds: 10 },
        resources: { requests: { cpu: '64m', memory: '256Mi' } },
        runAsUser: 1000,
        runAsGroup: 1000,
        fsGroup: 1000,
        volumeClaims: [{ name: 'seaweedfs-pvc', size: size('objectStore.included', os.included.size), storageClassName: os.included.storageClassName, mountPath: '/data' }],
      });
      s3 = { s3Host: `seaweedfs.${scope.namespaceName}`, s3Port: 9000, s3Secure: false };
    }
    this.connection = { dbHost, dbPort, ...s3 };
  }
}
