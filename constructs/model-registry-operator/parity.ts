import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';

/** The model registry operator's differences from upstream's v0.3.8 install (overlay odh), on purpose. */
export const MODEL_REGISTRY_OPERATOR_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  {
    fact: { kind: FactKind.CONFIGMAP, object: 'model-registry-operator-parameters', status: 'missing' },
    category: DeviationCategory.NOT_INSTALLED,
    reason: 'the overlay\'s parameters ConfigMap only feeds kustomize replacements (config/overlays/odh/replacements.yaml: the manager image and its env values); no code at v0.3.8 reads it from the cluster, and the construct sets those values on the Deployment directly.',
  },
];
