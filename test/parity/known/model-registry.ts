import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's model-registry install (see ../known-defects.ts). */
export const KNOWN_MODEL_REGISTRY: readonly KnownDefect[] = [
  { install: 'model-registry', defect: 'MR-MYSQL', fact: { kind: F.ARG, object: 'Deployment/model-registry-db container db-container', status: 'extra' }, items: ['--default-authentication-plugin=mysql_native_password'], note: "the MySQL database differs from upstream's (args, env, selector, parameters)" },
  { install: 'model-registry', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/model-registry-deployment container rest-container', status: 'missing' }, items: ['--datastore-type=$(MODEL_REGISTRY_DATA_STORE_TYPE)', '--embedmd-database-dsn=$(MYSQL_USER_NAME):$(MYSQL_ROOT_PASSWORD)@tcp(model-registry-db:$(MYSQL_PORT))/$(MYSQL_DATABASE)?charset=utf8mb4', '--port=$(MODEL_REGISTRY_REST_SERVICE_PORT)'], note: 'arg upstream has, we lack' },
  { install: 'model-registry', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/model-registry-deployment container rest-container', status: 'extra' }, items: ['--datastore-type=embedmd', '--embedmd-database-dsn=$(MODEL_REGISTRY_DB_USER):$(MODEL_REGISTRY_DB_PASSWORD)@tcp(model-registry-db:3306)/model_registry?parseTime=true', '--embedmd-database-type=mysql', '--port=8080'], note: 'arg we add, upstream has not' },
  { install: 'model-registry', defect: 'UNTRIAGED', fact: { kind: F.CONFIGMAP, object: 'model-registry-configmap', status: 'missing' }, note: 'configmap upstream has, we lack' },
  { install: 'model-registry', defect: 'MR-MYSQL', fact: { kind: F.CONFIGMAP, object: 'model-registry-db-parameters', status: 'missing' }, note: "the MySQL database differs from upstream's (args, env, selector, parameters)" },
  { install: 'model-registry', defect: 'MR-MYSQL', fact: { kind: F.ENV, object: 'Deployment/model-registry-db container db-container', status: 'extra' }, items: ['MYSQL_DATABASE', 'MYSQL_ROOT_PASSWORD'], note: "the MySQL database differs from upstream's (args, env, selector, parameters)" },
  { install: 'model-registry', defect: 'UNTRIAGED', fact: { kind: F.ENV, object: 'Deployment/model-registry-deployment container rest-container', status: 'extra' }, items: ['MODEL_REGISTRY_DB_PASSWORD', 'MODEL_REGISTRY_DB_USER'], note: 'env we add, upstream has not' },
  { install: 'model-registry', defect: 'MR-MYSQL', fact: { kind: F.SERVICE_SELECTOR, object: 'model-registry-db', status: 'differs' }, items: ['component'], note: "the MySQL database differs from upstream's (args, env, selector, parameters)" },
];
