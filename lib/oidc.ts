import { SecretKeyRef, secretKeyRefProblems } from './database';

/**
 * An OpenID Connect provider users sign in with, as typed settings: the identity proxy
 * (oauth2-proxy) redeems codes with it and the mesh (Istio's RequestAuthentication)
 * verifies its tokens. The client secret is only ever a Secret reference: no literal
 * secret can reach the output through this type.
 */
export interface OidcProviderSettings {
  /**
   * The issuer URL, exactly as the provider's tokens carry it in `iss` (its discovery
   * document is at `<issuer>/.well-known/openid-configuration`). https, no query or fragment.
   */
  readonly issuer: string;
  /** The OAuth2 client id registered with the provider for this platform. */
  readonly clientId: string;
  /** The Secret key holding the client's secret (the platform team creates the Secret; it is never emitted). */
  readonly clientSecret: SecretKeyRef;
  /** Scopes to request. @default ['profile', 'email', 'groups', 'openid'] (as kubeflow/manifests asks Dex) */
  readonly scopes?: string[];
  /** The token claim that names the user (sent to the apps as the user id header). @default email */
  readonly userClaim?: string;
  /** The token claim that lists the user's groups. @default groups */
  readonly groupsClaim?: string;
  /** The provider's name on the sign-in page. @default the issuer's host */
  readonly displayName?: string;
}

/** Scopes kubeflow/manifests' oauth2-proxy asks for. */
export const DEFAULT_OIDC_SCOPES: readonly string[] = Object.freeze(['profile', 'email', 'groups', 'openid']);

const CLAIM = /^[A-Za-z_][-A-Za-z0-9_.:/]*$/;

/**
 * Problems with an external provider's settings, each naming `prop`, the value and the fix
 * ([] when valid).
 */
export function oidcProviderProblems(prop: string, p: OidcProviderSettings): string[] {
  const out: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(p.issuer);
  } catch {
    out.push(`${prop}.issuer '${p.issuer}' is not a URL; give the provider's issuer, e.g. https://login.example.com/realms/kubeflow`);
  }
  if (url) {
    if (url.protocol !== 'https:') {
      out.push(`${prop}.issuer '${p.issuer}' must use https: tokens and the client secret travel to it, and Istio fetches its keys from it; give the provider's https issuer`);
    }
    if (url.search || url.hash) out.push(`${prop}.issuer '${p.issuer}' must not have a query or fragment (OIDC issuers are plain https URLs)`);
  }
  if (!p.clientId || /\s/.test(p.clientId)) out.push(`${prop}.clientId '${p.clientId}' must be the client id registered with the provider (non-empty, no spaces)`);
  if (!p.clientSecret) {
    out.push(`${prop}.clientSecret is missing; give the Secret key that holds the client secret, e.g. { name: 'oidc-client', key: 'client-secret' } (create the Secret yourself: no secret is ever emitted)`);
  } else {
    out.push(...secretKeyRefProblems(`${prop}.clientSecret`, p.clientSecret));
  }
  if (p.scopes !== undefined) {
    if (!p.scopes.includes('openid')) out.push(`${prop}.scopes [${p.scopes.join(', ')}] must include 'openid' (OIDC sign-in needs it)`);
    for (const s of p.scopes) if (!s || /\s/.test(s)) out.push(`${prop}.scopes entry '${s}' must be one scope name without spaces`);
  }
  for (const k of ['userClaim', 'groupsClaim'] as const) {
    const v = p[k];
    if (v !== undefined && !CLAIM.test(v)) out.push(`${prop}.${k} '${v}' is not a claim name; give the token claim, e.g. email or groups`);
  }
  return out;
}
