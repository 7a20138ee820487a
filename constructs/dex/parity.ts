import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations } from '../../lib/parity-items';

const CONTAINER = 'Deployment/dex container dex';

/** Dex's differences from kubeflow/manifests v1.11.0's common/dex (overlays/oauth2-proxy), and why. */
export function dexParityDeviations(): ParityDeviation[] {
  return [
    ...itemDeviations({ kind: FactKind.ENV_FROM, object: CONTAINER, status: 'missing' }, ['secret:dex-oidc-client', 'secret:dex-passwords'], DeviationCategory.HARDENING,
      'upstream ships these Secrets with literal values (the client secret and the example user\'s password hash) and loads them whole; no secret is emitted here: each value comes from a key of a Secret the platform team creates (variables below).'),
    ...itemDeviations({ kind: FactKind.ENV, object: CONTAINER, status: 'extra' }, ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'DEX_USER_PASSWORD'], DeviationCategory.HARDENING,
      'the variables Dex\'s configuration reads (idEnv, secretEnv, hashFromEnv), set one by one: the client id as a value (it is not a secret), the client secret and the password hash from Secret keys the platform team provides.'),
  ];
}
