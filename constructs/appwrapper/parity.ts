import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { valueDeviation } from '../../lib/parity-items';

/** The AppWrapper operator's differences from upstream's default install (v1.2.1 config/default), on purpose. */
export const APPWRAPPER_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'appwrapper-operator-config', item: 'config.yaml' }, 'sha256:b8c20e0d4160ce79b81a7dbb506296256c66df74ab415b28f7e60b12c44d872f',
    DeviationCategory.PLATFORM_INTEGRATION, 'the configuration states enableKueueIntegrations (the kueueIntegration prop, on by default), where upstream leaves it to the operator\'s default.'),
  {
    fact: { kind: FactKind.ENV, object: 'Deployment/appwrapper-controller-manager container manager', item: 'NAMESPACE', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'v1.2.1\'s cmd/main.go getNamespace reads NAMESPACE first (the service account token\'s namespace file is only its fallback) to find its ConfigMap and certificate Secret: the downward API states the namespace directly.',
  },
];
