import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, valueDeviation } from '../../lib/parity-items';

const DEPLOYMENT = 'Deployment/oauth2-proxy';
const CONTAINER = `${DEPLOYMENT} container oauth2-proxy`;

/** oauth2-proxy's differences from kubeflow/manifests v1.11.0's common/oauth2-proxy (overlays/m2m-dex-only), and why. */
export function oauth2ProxyParityDeviations(): ParityDeviation[] {
  return [
    valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'oauth2-proxy', item: 'oauth2_proxy.cfg' }, 'sha256:8cd450478a27e365be08ec6eee300728131af34d8b6a4102d96f8121787792b5', DeviationCategory.OWN_TEXT,
      'the configuration is written from typed settings (Dex or an external provider); with Dex it sets what upstream\'s sets, without the custom sign-in logo (test/constructs/oauth2-proxy holds the settings to upstream\'s).'),
    {
      fact: { kind: FactKind.CONFIGMAP, object: 'oauth2-proxy-theme', status: 'missing' },
      category: DeviationCategory.NOT_INSTALLED,
      reason: 'the Kubeflow logo on the sign-in page is an upstream asset, not carried over: the page shows oauth2-proxy\'s own.',
    },
    ...itemDeviations({ kind: FactKind.MOUNT, object: CONTAINER, status: 'missing' }, ['/custom-theme/kubeflow-logo.svg (subPath kubeflow-logo.svg)'], DeviationCategory.NOT_INSTALLED,
      'the logo\'s ConfigMap is not shipped (above).'),
    {
      fact: { kind: FactKind.ENV, object: CONTAINER, item: 'OAUTH2_PROXY_CLIENT_ID', status: 'differs', upstream: 'secretKeyRef oauth2-proxy/client-id' },
      category: DeviationCategory.PLATFORM_INTEGRATION,
      reason: 'the client id is a typed setting (Dex\'s client, or the external provider\'s clientId), not a secret: set as a value; upstream keeps it in the Secret it ships with literal values, which is not emitted here.',
    },
  ];
}
