import { MODEL_REGISTRY_DB_PASSWORD_ENV, MODEL_REGISTRY_DB_USER_ENV } from './embedmd';
import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, valueDeviation } from '../../lib/parity-items';

const C = DeviationCategory;
const SERVER = 'Deployment/model-registry-deployment container rest-container';
const DB = 'Deployment/model-registry-db container db-container';

export interface ModelRegistryParityOptions {
  /** The server's datastore and port arguments (those upstream writes as $(VAR) references). */
  readonly serverArgs: readonly string[];
  /** Whether the registry includes its MySQL (upstream's overlays/db). */
  readonly includedMySql: boolean;
}

/** The Kubeflow model registry's differences from upstream's db and istio overlays at v0.3.7, and why. */
export function modelRegistryParityDeviations(o: ModelRegistryParityOptions): ParityDeviation[] {
  const flags = 'the server reads only its flags (its environment prefix is MR_, cmd/root.go), so upstream\'s MODEL_REGISTRY_* and MYSQL_* values, which reach it only through $(VAR) expansion in the arguments, are written into the flags here, with the credentials from Secret references';
  const out: ParityDeviation[] = [
    ...itemDeviations({ kind: FactKind.ARG, object: SERVER, status: 'missing' }, [
      '--datastore-type=$(MODEL_REGISTRY_DATA_STORE_TYPE)',
      '--embedmd-database-dsn=$(MYSQL_USER_NAME):$(MYSQL_ROOT_PASSWORD)@tcp(model-registry-db:$(MYSQL_PORT))/$(MYSQL_DATABASE)?charset=utf8mb4',
      '--port=$(MODEL_REGISTRY_REST_SERVICE_PORT)',
    ], C.PLATFORM_INTEGRATION, `${flags}.`),
    ...itemDeviations({ kind: FactKind.ARG, object: SERVER, status: 'extra' }, o.serverArgs, C.PLATFORM_INTEGRATION,
      `${flags}; the MySQL DSN adds parseTime=true and leaves the charset to the Go MySQL driver, whose default is utf8mb4.`),
    {
      fact: { kind: FactKind.CONFIGMAP, object: 'model-registry-configmap', status: 'missing' },
      category: C.PLATFORM_INTEGRATION,
      reason: `upstream's ConfigMap only feeds the server's $(VAR) references; ${flags}.`,
    },
    ...itemDeviations({ kind: FactKind.ENV, object: SERVER, status: 'extra' }, [MODEL_REGISTRY_DB_PASSWORD_ENV, MODEL_REGISTRY_DB_USER_ENV], C.HARDENING,
      'the DSN\'s user and password, each from a Secret key reference (no credential in the output), where upstream ships a Secret with a fixed password.'),
  ];
  if (o.includedMySql) {
    out.push(
      {
        fact: { kind: FactKind.CONFIGMAP, object: 'model-registry-db-parameters', status: 'missing' },
        category: C.HARDENING,
        reason: 'upstream\'s parameters allow an empty root password and carry MYSQL_PORT for its DSN only; the database gets MYSQL_DATABASE directly and its root password from the platform\'s Secret reference.',
      },
      ...itemDeviations({ kind: FactKind.ENV, object: DB, status: 'extra' }, ['MYSQL_DATABASE', 'MYSQL_ROOT_PASSWORD'], C.HARDENING,
        'the MySQL image reads these at first start; upstream passes them through envFrom of its parameters and of a Secret with a fixed password, here the password comes from the platform\'s Secret reference.'),
      {
        fact: { kind: FactKind.SERVICE_SELECTOR, object: 'model-registry-db', item: 'component', status: 'differs' },
        category: C.PLATFORM_INTEGRATION,
        reason: 'upstream selects component: db, which in a namespace shared with Pipelines\' and Katib\'s databases could match another component\'s pods; the Service keeps upstream\'s name, which is what the server connects to.',
      },
      valueDeviation({ kind: FactKind.PROBE, object: DB, item: 'readiness' },
        'exec ["/bin/bash","-c","mysql -h 127.0.0.1 -D $$MYSQL_DATABASE -u$$MYSQL_USER_NAME -p$$MYSQL_ROOT_PASSWORD -e \'SELECT 1\'"]', C.PLATFORM_INTEGRATION,
        'the readiness query logs in as root with the root password the server connects with; upstream logs in as MYSQL_USER_NAME from its parameters ConfigMap, which the database does not get here (the registry connects as root, as upstream\'s DSN does by default).'),
    );
  }
  out.push({ fact: { kind: FactKind.ENV_FROM, object: SERVER, item: 'configMap:model-registry-configmap', status: 'missing' }, category: C.PLATFORM_INTEGRATION, reason: `upstream's ConfigMap only feeds the server's $(VAR) references; ${flags}.` });
  for (const item of ['configMap:model-registry-db-parameters', 'secret:model-registry-db-secrets']) {
    out.push({ fact: { kind: FactKind.ENV_FROM, object: SERVER, item, status: 'missing' }, category: C.HARDENING, reason: `${flags}.` });
    if (o.includedMySql) {
      out.push({
        fact: { kind: FactKind.ENV_FROM, object: DB, item, status: 'missing' },
        category: C.HARDENING,
        reason: 'the MySQL image reads these at first start; upstream passes them through envFrom of its parameters and of a Secret with a fixed password, here the password comes from the platform\'s Secret reference.',
      });
    }
  }
  return out;
}
