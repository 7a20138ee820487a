import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's model-registry-operator install (see ../known-defects.ts). */
export const KNOWN_MODEL_REGISTRY_OPERATOR: readonly KnownDefect[] = [
  { install: 'model-registry-operator', defect: 'UNTRIAGED', fact: { kind: F.CONFIGMAP, object: 'model-registry-operator-parameters', status: 'missing' }, note: 'configmap upstream has, we lack' },
  { install: 'model-registry-operator', defect: 'MRO-ENV', fact: { kind: F.ENV, object: 'Deployment/model-registry-operator-controller-manager container manager', status: 'missing' }, items: ['BENCHMARK_DATA_IMAGE', 'CATALOG_DATA_IMAGE', 'ENABLE_MODEL_CATALOG', 'KUBE_RBAC_PROXY_IMAGE', 'POSTGRES_IMAGE', 'REST_IMAGE'], note: "the operator's env names differ from v0.3.8's" },
  { install: 'model-registry-operator', defect: 'MRO-ENV', fact: { kind: F.ENV, object: 'Deployment/model-registry-operator-controller-manager container manager', status: 'extra' }, items: ['GATEWAY_NAME', 'GATEWAY_NAMESPACE', 'HTTPROUTE_NAMESPACE', 'RELATED_IMAGE_ODH_KUBE_RBAC_PROXY_IMAGE', 'RELATED_IMAGE_ODH_MODEL_METADATA_COLLECTION_IMAGE', 'RELATED_IMAGE_ODH_MODEL_PERFORMANCE_DATA_IMAGE', 'RELATED_IMAGE_ODH_MODEL_REGISTRY_IMAGE', 'RELATED_IMAGE_POSTGRESQL_16_IMAGE'], note: "the operator's env names differ from v0.3.8's" },
  { install: 'model-registry-operator', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/model-registry-operator-controller-manager', status: 'extra' }, items: ['config.openshift.io|apiservers|get', 'config.openshift.io|apiservers|list', 'config.openshift.io|apiservers|watch', 'gateway.networking.k8s.io|httproutes|create', 'gateway.networking.k8s.io|httproutes|delete', 'gateway.networking.k8s.io|httproutes|get', 'gateway.networking.k8s.io|httproutes|list', 'gateway.networking.k8s.io|httproutes|patch', 'gateway.networking.k8s.io|httproutes|update', 'gateway.networking.k8s.io|httproutes|watch', 'gateway.networking.k8s.io|referencegrants|create', 'gateway.networking.k8s.io|referencegrants|get', 'gateway.networking.k8s.io|referencegrants|list', 'gateway.networking.k8s.io|referencegrants|watch'], note: 'rbac we add, upstream has not' },
  { install: 'model-registry-operator', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/model-registry-operator-controller-manager', status: 'missing' }, items: ['user.openshift.io|groups|patch'], note: 'rbac upstream has, we lack' },
  { install: 'model-registry-operator', defect: 'UNTRIAGED', fact: { kind: F.WEBHOOK, object: 'validating vcatalog.aihub.opendatahub.io', status: 'extra' }, note: 'webhook we add, upstream has not' },
];
