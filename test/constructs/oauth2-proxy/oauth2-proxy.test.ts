import { App } from 'cdk8s';
import { Dex } from '../../../constructs/dex';
import { OAuth2Proxy, OAuth2ProxyProps } from '../../../constructs/oauth2-proxy';
import { OidcProviderSettings } from '../../../lib/oidc';
import { Platform } from '../../../lib/platform';
import { build, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

function platform(props: OAuth2ProxyProps = {}, dex = !props.oidc) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'auth', prerequisites: [ISTIO] });
    if (dex) new Dex(p, 'dex');
    new OAuth2Proxy(p, 'oauth2-proxy', props);
    return p;
  });
}
const objectsOf = (b: ReturnType<typeof platform>) => b.model.objects.map((o) => o.json);
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
/** oauth2-proxy's configuration file as key -> value text. */
const cfgOf = (objects: any[]) => Object.fromEntries((find(objects, 'ConfigMap', 'oauth2-proxy').data['oauth2_proxy.cfg'] as string).trim().split('\n').map((l) => l.split(' = ')));

const EXTERNAL: OidcProviderSettings = { issuer: 'https://login.example.com/realms/kubeflow', clientId: 'kubeflow', clientSecret: { name: 'oidc-client', key: 'client-secret' } };

describe('OAuth2Proxy', () => {
  const withDex = objectsOf(platform());

  test('OWN-TEXT: with Dex, its configuration sets what kubeflow/manifests v1.11.0 sets (but the custom sign-in logo)', () => {
    // Upstream's values (common/oauth2-proxy/base/oauth2_proxy.cfg), setting by setting.
    expect(cfgOf(withDex)).toEqual({
      provider: '"oidc"',
      oidc_issuer_url: '"http://dex.auth.svc.cluster.local:5556/dex"',
      scope: '"profile email groups openid"',
      email_domains: '[ "*" ]',
      upstreams: '[ "static://200" ]',
      skip_auth_routes: '[ "^/dex/" ]',
      api_routes: '[ "/api/", "/apis/", "^/ml_metadata" ]',
      skip_oidc_discovery: 'true',
      login_url: '"/dex/auth"',
      redeem_url: '"http://dex.auth.svc.cluster.local:5556/dex/token"',
      oidc_jwks_url: '"http://dex.auth.svc.cluster.local:5556/dex/keys"',
      prompt: '"none"',
      skip_provider_button: 'false',
      provider_display_name: '"Dex"',
      banner: '"-"',
      footer: '"-"',
      set_authorization_header: 'true',
      set_xauthrequest: 'true',
      cookie_name: '"oauth2_proxy_kubeflow"',
      cookie_expire: '"24h"',
      cookie_refresh: '0',
      code_challenge_method: '"S256"',
      redirect_url: '"/oauth2/callback"',
      relative_redirect_url: 'true',
    });
    expect(find(withDex, 'ConfigMap', 'oauth2-proxy-parameters').data).toEqual({ ALLOW_SELF_SIGNED_ISSUER: 'true', ENABLE_M2M_TOKENS: 'true', EXTRA_JWT_ISSUERS: '', FORCE_HTTPS: 'false' });
  });

  test('AUTH-NOSECRET: client and cookie secrets from Secret keys; no Secret emitted', () => {
    expect(withDex.filter((o) => o.kind === 'Secret')).toEqual([]);
    const env = find(withDex, 'Deployment', 'oauth2-proxy').spec.template.spec.containers[0].env;
    expect(env.slice(0, 3)).toEqual([
      { name: 'OAUTH2_PROXY_CLIENT_ID', value: 'kubeflow-oidc-authservice' },
      { name: 'OAUTH2_PROXY_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'oauth2-proxy', key: 'client-secret' } } },
      { name: 'OAUTH2_PROXY_COOKIE_SECRET', valueFrom: { secretKeyRef: { name: 'oauth2-proxy', key: 'cookie-secret' } } },
    ]);
  });

  test('the ingress gateway asks it (CUSTOM), denies requests without a verified token and turns the token\'s claims into the user headers, as kubeflow/manifests', () => {
    const selector = { matchLabels: { app: 'istio-ingressgateway' } };
    const open = ['/dex/*', '/dex/**', '/oauth2/*'];
    expect(find(withDex, 'AuthorizationPolicy', 'istio-ingressgateway-oauth2-proxy')).toMatchObject({
      metadata: { namespace: 'istio-system' },
      spec: {
        action: 'CUSTOM',
        provider: { name: 'oauth2-proxy' },
        selector,
        rules: [{ to: [{ operation: { notPaths: open } }], when: [{ key: 'request.headers[authorization]', notValues: ['*'] }] }],
      },
    });
    expect(find(withDex, 'AuthorizationPolicy', 'istio-ingressgateway-require-jwt').spec).toEqual({
      action: 'DENY', selector, rules: [{ from: [{ source: { notRequestPrincipals: ['*'] } }], to: [{ operation: { notPaths: open } }] }],
    });
    expect(find(withDex, 'RequestAuthentication', 'dex-jwt').spec).toEqual({
      selector,
      jwtRules: [{
        issuer: 'http://dex.auth.svc.cluster.local:5556/dex',
        forwardOriginalToken: true,
        fromHeaders: [{ name: 'Authorization', prefix: 'Bearer ' }],
        outputClaimToHeaders: [{ header: 'kubeflow-userid', claim: 'email' }, { header: 'kubeflow-groups', claim: 'groups' }],
      }],
    });
    expect(find(withDex, 'VirtualService', 'oauth2-proxy').spec.http[0]).toEqual({ match: [{ uri: { prefix: '/oauth2/' } }], route: [{ destination: { host: 'oauth2-proxy.oauth2-proxy.svc.cluster.local', port: { number: 80 } } }] });
  });

  test('what Istio must be told: the ext-authz extension provider kubeflow/manifests adds to the mesh config (REPORT.md lists it)', () => {
    const b = platform();
    const proxy = b.model.components.find((c): c is OAuth2Proxy => c instanceof OAuth2Proxy)!;
    expect(proxy.meshExtensionProvider()).toEqual({
      name: 'oauth2-proxy',
      envoyExtAuthzHttp: {
        service: 'oauth2-proxy.oauth2-proxy.svc.cluster.local',
        port: 80,
        includeRequestHeadersInCheck: ['authorization', 'cookie'],
        headersToUpstreamOnAllow: ['authorization', 'path', 'x-auth-request-email', 'x-auth-request-groups', 'x-auth-request-user'],
        headersToDownstreamOnDeny: ['content-type', 'set-cookie'],
      },
    });
    const report = b.files.get('REPORT.md')!;
    expect(report).toContain('- istio: Istio 1.22 or later');
    expect(report).toContain(`  - needed by oauth2-proxy: meshConfig.extensionProviders lists the ext-authz provider the gateway's CUSTOM policy names: ${JSON.stringify(proxy.meshExtensionProvider())}`);
  });

  describe('an external OIDC provider (no Dex)', () => {
    const ext = objectsOf(platform({ oidc: { ...EXTERNAL, userClaim: 'preferred_username' } }));

    test('oauth2-proxy discovers it by its issuer; the gateway verifies its tokens; no Dex paths are left open', () => {
      const cfg = cfgOf(ext);
      expect(cfg.oidc_issuer_url).toBe('"https://login.example.com/realms/kubeflow"');
      expect(cfg.oidc_email_claim).toBe('"preferred_username"');
      for (const k of ['skip_oidc_discovery', 'login_url', 'redeem_url', 'oidc_jwks_url', 'skip_auth_routes', 'prompt']) expect(cfg[k]).toBeUndefined();
      expect(cfg.provider_display_name).toBe('"login.example.com"');
      expect(find(ext, 'ConfigMap', 'oauth2-proxy-parameters').data.ALLOW_SELF_SIGNED_ISSUER).toBe('false');
      expect(find(ext, 'Deployment', 'oauth2-proxy').spec.template.spec.containers[0].env.slice(0, 2)).toEqual([
        { name: 'OAUTH2_PROXY_CLIENT_ID', value: 'kubeflow' },
        { name: 'OAUTH2_PROXY_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'oidc-client', key: 'client-secret' } } },
      ]);
      const ra = find(ext, 'RequestAuthentication', 'oidc-jwt').spec.jwtRules[0];
      expect(ra.issuer).toBe('https://login.example.com/realms/kubeflow');
      expect(ra.outputClaimToHeaders[0]).toEqual({ header: 'kubeflow-userid', claim: 'preferred_username' });
      expect(find(ext, 'AuthorizationPolicy', 'istio-ingressgateway-require-jwt').spec.rules[0].to[0].operation.notPaths).toEqual(['/oauth2/*']);
      expect(ext.filter((o) => o.kind === 'Secret')).toEqual([]);
    });
  });

  describe('bad OIDC settings fail naming the construct path, the prop, the value and the fix', () => {
    const fails = (oidc: any) => problemsOf(() => new OAuth2Proxy(new Platform(new App(), 'p', { name: 'x' }), 'oauth2-proxy', { oidc }));
    test('an issuer that is not https', () => {
      expect(fails({ ...EXTERNAL, issuer: 'http://login.example.com' })).toEqual([
        "p/oauth2-proxy: oidc.issuer 'http://login.example.com' must use https: tokens and the client secret travel to it, and Istio fetches its keys from it; give the provider's https issuer",
      ]);
    });
    test('an issuer that is not a URL', () => {
      expect(fails({ ...EXTERNAL, issuer: 'login.example.com' })).toEqual([
        "p/oauth2-proxy: oidc.issuer 'login.example.com' is not a URL; give the provider's issuer, e.g. https://login.example.com/realms/kubeflow",
      ]);
    });
    test('a missing client secret reference', () => {
      expect(fails({ issuer: EXTERNAL.issuer, clientId: 'kubeflow' })).toEqual([
        "p/oauth2-proxy: oidc.clientSecret is missing; give the Secret key that holds the client secret, e.g. { name: 'oidc-client', key: 'client-secret' } (create the Secret yourself: no secret is ever emitted)",
      ]);
    });
    test('an empty client id, scopes without openid, a bad Secret key', () => {
      expect(fails({ ...EXTERNAL, clientId: '', scopes: ['email'], clientSecret: { name: 'oidc-client', key: 'a b' } })).toEqual([
        "p/oauth2-proxy: oidc.clientId '' must be the client id registered with the provider (non-empty, no spaces); " +
          "oidc.clientSecret.key 'a b' is not a valid Secret key (letters, digits, '-', '_', '.'); oidc.scopes [email] must include 'openid' (OIDC sign-in needs it)",
      ]);
    });
    test('no provider at all: no Dex in the platform and no oidc', () => {
      expect(problemsOf(() => new OAuth2Proxy(new Platform(new App(), 'p', { name: 'x' }), 'oauth2-proxy'))).toEqual([
        'p/oauth2-proxy: no OIDC provider: the platform has no Dex component (add one before oauth2-proxy) and oidc is not set; give oidc: { issuer, clientId, clientSecret } for an external provider',
      ]);
    });
    test('Dex\'s clientSecret together with an external provider', () => {
      expect(problemsOf(() => new OAuth2Proxy(new Platform(new App(), 'p', { name: 'x' }), 'oauth2-proxy', { oidc: EXTERNAL, clientSecret: { name: 'a', key: 'b' } }))).toEqual([
        "p/oauth2-proxy: clientSecret is for Dex's client; with oidc, give the secret as oidc.clientSecret",
      ]);
    });
  });
});
