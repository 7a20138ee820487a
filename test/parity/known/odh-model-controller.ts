import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's odh-model-controller install (see ../known-defects.ts). */
export const KNOWN_ODH_MODEL_CONTROLLER: readonly KnownDefect[] = [
  { install: 'odh-model-controller', defect: 'OMC-PARAMS', fact: { kind: F.CONFIGMAP, object: 'odh-model-controller-parameters', status: 'missing' }, note: 'the parameters ConfigMap is not shipped' },
  { install: 'odh-model-controller', defect: 'UNTRIAGED', fact: { kind: F.PORT, object: 'Deployment/odh-model-controller container manager', status: 'extra' }, items: ['8080/TCP'], note: 'port we add, upstream has not' },
  { install: 'odh-model-controller', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/odh-model-controller', status: 'extra' }, items: ['infrastructure.opendatahub.io|hardwareprofiles|get', 'infrastructure.opendatahub.io|hardwareprofiles|list', 'infrastructure.opendatahub.io|hardwareprofiles|watch', 'nim.opendatahub.io|accounts/status|patch', 'nim.opendatahub.io|accounts|create', 'nim.opendatahub.io|accounts|delete'], note: 'rbac we add, upstream has not' },
  { install: 'odh-model-controller', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/odh-model-controller', status: 'missing' }, items: ['nim.opendatahub.io|accounts/status|list', 'nim.opendatahub.io|accounts/status|watch', 'serving.kserve.io|llminferenceservices|post'], note: 'rbac upstream has, we lack' },
  { install: 'odh-model-controller', defect: 'UNTRIAGED', fact: { kind: F.WEBHOOK, object: 'mutating connection-llmisvc-v1alpha1.odh-model-controller.opendatahub.io', status: 'extra' }, note: 'webhook we add, upstream has not' },
  { install: 'odh-model-controller', defect: 'UNTRIAGED', fact: { kind: F.WEBHOOK, object: 'mutating connection-llmisvc-v1alpha2.odh-model-controller.opendatahub.io', status: 'extra' }, note: 'webhook we add, upstream has not' },
  { install: 'odh-model-controller', defect: 'UNTRIAGED', fact: { kind: F.WEBHOOK_FIELD, object: 'mutating minferenceservice-v1beta1.odh-model-controller.opendatahub.io', status: 'differs' }, items: ['sideEffects'], note: 'webhook-field differs from upstream: sideEffects upstream None, ours NoneOnDryRun' },
  { install: 'odh-model-controller', defect: 'OMC-ISVC-UPDATE', fact: { kind: F.WEBHOOK_RULE, object: 'mutating minferenceservice-v1beta1.odh-model-controller.opendatahub.io', status: 'extra' }, items: ['UPDATE|serving.kserve.io|v1beta1|inferenceservices|*'], note: "our webhooks intercept InferenceService UPDATE, upstream's do not" },
  { install: 'odh-model-controller', defect: 'OMC-ISVC-UPDATE', fact: { kind: F.WEBHOOK_RULE, object: 'validating validating.isvc.odh-model-controller.opendatahub.io', status: 'extra' }, items: ['UPDATE|serving.kserve.io|v1beta1|inferenceservices|*'], note: "our webhooks intercept InferenceService UPDATE, upstream's do not" },
];
