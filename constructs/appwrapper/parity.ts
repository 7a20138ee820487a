import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';

/** The AppWrapper operator's differences from upstream's default install (v1.2.1 config/default), on purpose. */
export const APPWRAPPER_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  {
    fact: { kind: FactKind.ENV, object: 'Deployment/appwrapper-controller-manager container manager', item: 'NAMESPACE', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'v1.2.1\'s cmd/main.go getNamespace reads NAMESPACE first (the service account token\'s namespace file is only its fallback) to find its ConfigMap and certificate Secret: the downward API states the namespace directly.',
  },
];
