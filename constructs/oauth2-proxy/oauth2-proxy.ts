import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { oauth2ProxyParityDeviations } from './parity';
import { OAUTH2_PROXY_IMAGES, OAUTH2_PROXY_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { SecretKeyRef, secretKeyRefProblems } from '../../lib/database';
import { ImageSpec } from '../../lib/images';
import { DEFAULT_OIDC_SCOPES, OidcProviderSettings, oidcProviderProblems } from '../../lib/oidc';
import type { Platform } from '../../lib/platform';
import { SecretEncoding, SecretValue } from '../../lib/secrets';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';
import { Dex } from '../dex/dex';

/** Where the Istio ingress gateway runs: the policies that send its requests through oauth2-proxy select it. */
export interface IngressGatewaySelection {
  /** @default istio-system */
  readonly namespace?: string;
  /** Labels of the gateway's pods. @default { app: 'istio-ingressgateway' } */
  readonly selector?: Record<string, string>;
}

/** A further issuer whose JWTs oauth2-proxy accepts as bearer tokens (machine-to-machine). */
export interface ExtraJwtIssuer {
  readonly issuer: string;
  readonly audience: string;
}

export interface OAuth2ProxyProps extends ComponentProps {
  /**
   * An external OpenID Connect provider (Keycloak, Entra ID, Okta, ...). Without it,
   * oauth2-proxy signs users in through the platform's Dex component (which must then be
   * in the platform, added before this one).
   * @default the platform's Dex
   */
  readonly oidc?: OidcProviderSettings;
  /**
   * With Dex: the Secret key, in oauth2-proxy's namespace, holding the client secret Dex has
   * for its client (the same value as Dex's client.secret). Ignored with `oidc`, which names its own.
   * @default { name: 'oauth2-proxy', key: 'client-secret' } (kubeflow/manifests' Secret and key)
   */
  readonly clientSecret?: SecretKeyRef;
  /**
   * The Secret key holding the cookie secret (16, 24 or 32 random bytes, e.g.
   * `openssl rand -hex 16`). `mlplatform apply` generates 32 random bytes (URL-safe base64)
   * when the Secret is missing; it is never emitted.
   * @default { name: 'oauth2-proxy', key: 'cookie-secret' } (kubeflow/manifests' Secret and key)
   */
  readonly cookieSecret?: SecretKeyRef;
  /** Mark cookies Secure (the gateway serves https). @default false (as kubeflow/manifests' plain-http example) */
  readonly secureCookies?: boolean;
  /**
   * Skip TLS verification towards the provider. @default true with Dex (as kubeflow/manifests),
   * false with an external provider
   */
  readonly allowSelfSignedIssuer?: boolean;
  /** Accept JWT bearer tokens (machine-to-machine) besides the session cookie. @default true */
  readonly machineTokens?: boolean;
  /** Further JWT issuers accepted as bearer tokens. @default none */
  readonly extraJwtIssuers?: ExtraJwtIssuer[];
  /** @default 2 */
  readonly replicas?: number;
  /** The Istio Gateway that routes /oauth2/ to oauth2-proxy, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly istioGateway?: string;
  /** The ingress gateway the authentication policies apply to. @default istio-system, app: istio-ingressgateway */
  readonly ingressGateway?: IngressGatewaySelection;
  /**
   * The name of the ext-authz extension provider in Istio's mesh config that points at this
   * oauth2-proxy (see `meshExtensionProvider`). @default oauth2-proxy (as kubeflow/manifests)
   */
  readonly extensionProviderName?: string;
  /** Header the user's id claim is copied to for the apps behind the gateway. @default kubeflow-userid */
  readonly userIdHeader?: string;
  /** Header the user's groups claim is copied to. @default kubeflow-groups */
  readonly groupsHeader?: string;
  /** The cluster's DNS domain. @default cluster.local */
  readonly clusterDomain?: string;
}

const LABELS = { 'app.kubernetes.io/name': 'oauth2-proxy' };
const HTTP_PORT = 4180;
const METRICS_PORT = 44180;
const DNS = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const GATEWAY = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const HEADER = /^[A-Za-z0-9-]+$/;

/**
 * oauth2-proxy as kubeflow/manifests runs it: Istio's ingress gateway asks it (ext-authz)
 * whether each request is signed in, it runs the OIDC sign-in with Dex or an external
 * provider, and hands the ID token on as a bearer token that the gateway's
 * RequestAuthentication verifies and turns into the user id header the apps trust.
 * Secrets (client and cookie) are only Secret references.
 *
 * Istio itself stays a prerequisite: its mesh config must name this proxy as an
 * `envoyExtAuthzHttp` extension provider (`meshExtensionProvider()` gives the entry).
 */
export class OAuth2Proxy extends Component {
  public override get release(): string {
    return OAUTH2_PROXY_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = OAUTH2_PROXY_IMAGES;
  /** The issuer whose tokens the gateway accepts. */
  public readonly issuer: string;
  /** The extension provider name the CUSTOM AuthorizationPolicy uses. */
  public readonly extensionProviderName: string;
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;
  private readonly clusterDomain: string;

  constructor(scope: Platform, id: string, props: OAuth2ProxyProps = {}) {
    super(scope, id, props.namespace ?? 'oauth2-proxy', props);
    const ns = this.namespaceName;
    const problems: string[] = [];
    this.clusterDomain = props.clusterDomain ?? 'cluster.local';
    if (!DNS.test(this.clusterDomain)) problems.push(`clusterDomain '${this.clusterDomain}' is not a DNS domain; give the cluster's domain, e.g. cluster.local`);
    if (props.oidc) problems.push(...oidcProviderProblems('oidc', props.oidc));
    if (props.oidc && props.clientSecret) problems.push('clientSecret is for Dex\'s client; with oidc, give the secret as oidc.clientSecret');
    const cookieSecret = props.cookieSecret ?? { name: 'oauth2-proxy', key: 'cookie-secret' };
    problems.push(...secretKeyRefProblems('cookieSecret', cookieSecret));
    if (props.clientSecret) problems.push(...secretKeyRefProblems('clientSecret', props.clientSecret));
    const replicas = props.replicas ?? 2;
    if (!Number.isInteger(replicas) || replicas < 1) problems.push(`replicas ${props.replicas} must be a whole number >= 1`);
    const gateway = props.istioGateway ?? 'kubeflow/kubeflow-gateway';
    if (!GATEWAY.test(gateway)) problems.push(`istioGateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
    const gwNamespace = props.ingressGateway?.namespace ?? 'istio-system';
    if (!DNS_LABEL.test(gwNamespace)) problems.push(`ingressGateway.namespace '${gwNamespace}' is not a namespace name`);
    const gwSelector = props.ingressGateway?.selector ?? { app: 'istio-ingressgateway' };
    if (!Object.keys(gwSelector).length) problems.push('ingressGateway.selector is empty: the policies would apply to every workload of the namespace; give the gateway pods\' labels, e.g. { app: \'istio-ingressgateway\' }');
    this.extensionProviderName = props.extensionProviderName ?? 'oauth2-proxy';
    if (!DNS_LABEL.test(this.extensionProviderName)) problems.push(`extensionProviderName '${this.extensionProviderName}' must be a lower-case name as in Istio's meshConfig.extensionProviders`);
    const userIdHeader = props.userIdHeader ?? 'kubeflow-userid';
    const groupsHeader = props.groupsHeader ?? 'kubeflow-groups';
    for (const [k, v] of [['userIdHeader', userIdHeader], ['groupsHeader', groupsHeader]]) if (!HEADER.test(v)) problems.push(`${k} '${v}' is not an HTTP header name`);
    for (const [i, e] of (props.extraJwtIssuers ?? []).entries()) {
      if (!/^https?:\/\/\S+$/.test(e.issuer)) problems.push(`extraJwtIssuers[${i}].issuer '${e.issuer}' must be an http(s) URL`);
      if (!e.audience || /[\s,=]/.test(e.audience)) problems.push(`extraJwtIssuers[${i}].audience '${e.audience}' must be a non-empty audience without spaces, ',' or '='`);
    }

    // The provider: external settings, or the platform's Dex.
    const dex = props.oidc ? undefined : this.platform.components.find((c): c is Dex => c instanceof Dex && c.enabled);
    if (!props.oidc && !dex) {
      problems.push('no OIDC provider: the platform has no Dex component (add one before oauth2-proxy) and oidc is not set; give oidc: { issuer, clientId, clientSecret } for an external provider');
    }
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);

    const oidc = props.oidc;
    this.issuer = oidc ? oidc.issuer : dex!.issuer;
    const clientId = oidc ? oidc.clientId : dex!.clientId;
    const clientSecret = oidc ? oidc.clientSecret : props.clientSecret ?? { name: 'oauth2-proxy', key: 'client-secret' };
    // The Secrets: with Dex, apply generates the client secret (Dex's value) and the cookie
    // secret; an external provider's client secret is the user's.
    const cookieValue = SecretValue.random(32, SecretEncoding.BASE64URL);
    const cookieHint = `--from-literal=${cookieSecret.key}="$(openssl rand -base64 32 | tr -- '+/' '-_' | tr -d '=')"`;
    if (oidc) {
      const sameSecret = clientSecret.name === cookieSecret.name;
      this.referenceSecret({
        name: clientSecret.name,
        purpose: `the secret of oauth2-proxy's client ${clientId} at ${oidc.issuer}${sameSecret ? ', and its cookie secret (32 random bytes)' : ''}`,
        keys: [clientSecret.key, ...(sameSecret ? [cookieSecret.key] : [])],
        userProvided: `kubectl -n ${ns} create secret generic ${clientSecret.name} --from-literal=${clientSecret.key}=<the client secret your provider issued>${sameSecret ? ` ${cookieHint}` : ''}`,
      });
      if (!sameSecret) this.referenceSecret({ name: cookieSecret.name, purpose: 'the cookie secret of oauth2-proxy (32 random bytes, URL-safe base64)', generate: { [cookieSecret.key]: cookieValue } });
    } else {
      const shared = SecretValue.sameAs({ namespace: dex!.namespaceName, name: dex!.clientSecret.name, key: dex!.clientSecret.key });
      const sameSecret = clientSecret.name === cookieSecret.name;
      this.referenceSecret({
        name: clientSecret.name,
        purpose: `the secret of Dex's OAuth2 client ${clientId} (the value Dex holds in ${dex!.namespaceName}/${dex!.clientSecret.name})${sameSecret ? ' and the cookie secret of oauth2-proxy' : ''}`,
        generate: { [clientSecret.key]: shared, ...(sameSecret ? { [cookieSecret.key]: cookieValue } : {}) },
      });
      if (!sameSecret) this.referenceSecret({ name: cookieSecret.name, purpose: 'the cookie secret of oauth2-proxy (32 random bytes, URL-safe base64)', generate: { [cookieSecret.key]: cookieValue } });
    }
    const scopes = oidc?.scopes ?? DEFAULT_OIDC_SCOPES;
    const userClaim = oidc?.userClaim ?? 'email';
    const groupsClaim = oidc?.groupsClaim ?? 'groups';
    // Paths the gateway lets through unauthenticated: the sign-in flow itself.
    const openPaths = [...(dex ? ['/dex/*', '/dex/**'] : []), '/oauth2/*'];
    this.providesInfrastructure.push('oauth2-proxy');
    this.addNamespace({ 'pod-security.kubernetes.io/enforce': 'restricted' });

    const q = (v: string) => JSON.stringify(v);
    const list = (vs: readonly string[]) => `[ ${vs.map(q).join(', ')} ]`;
    const cfg: string[] = [
      `provider = ${q('oidc')}`,
      `oidc_issuer_url = ${q(this.issuer)}`,
      `scope = ${q(scopes.join(' '))}`,
      `email_domains = ${list(['*'])}`,
      // A static 200 upstream: the proxy only answers the gateway's ext-authz checks.
      `upstreams = ${list(['static://200'])}`,
      ...(dex ? [`skip_auth_routes = ${list(['^/dex/'])}`] : []),
      // Background API calls get 401 rather than a redirect to the sign-in page.
      `api_routes = ${list(['/api/', '/apis/', '^/ml_metadata'])}`,
      ...(dex ? [
        // Dex's in-cluster address is not the browser's: discovery would redirect there.
        'skip_oidc_discovery = true',
        `login_url = ${q('/dex/auth')}`,
        `redeem_url = ${q(`${dex.serviceUrl}/token`)}`,
        `oidc_jwks_url = ${q(`${dex.serviceUrl}/keys`)}`,
        `prompt = ${q('none')}`,
      ] : []),
      ...(userClaim !== 'email' ? [`oidc_email_claim = ${q(userClaim)}`] : []),
      ...(groupsClaim !== 'groups' ? [`oidc_groups_claim = ${q(groupsClaim)}`] : []),
      'skip_provider_button = false',
      `provider_display_name = ${q(oidc ? oidc.displayName ?? new URL(oidc.issuer).host : 'Dex')}`,
      `banner = ${q('-')}`,
      `footer = ${q('-')}`,
      'set_authorization_header = true',
      'set_xauthrequest = true',
      `cookie_name = ${q('oauth2_proxy_kubeflow')}`,
      `cookie_expire = ${q('24h')}`,
      'cookie_refresh = 0',
      `code_challenge_method = ${q('S256')}`,
      `redirect_url = ${q('/oauth2/callback')}`,
      'relative_redirect_url = true',
    ];
    new k8s.KubeConfigMap(this, 'Config', { metadata: { name: 'oauth2-proxy', namespace: ns }, data: { 'oauth2_proxy.cfg': `${cfg.join('\n')}\n` } });
    new k8s.KubeConfigMap(this, 'Parameters', {
      metadata: { name: 'oauth2-proxy-parameters', namespace: ns },
      data: {
        ALLOW_SELF_SIGNED_ISSUER: String(props.allowSelfSignedIssuer ?? !oidc),
        ENABLE_M2M_TOKENS: String(props.machineTokens ?? true),
        EXTRA_JWT_ISSUERS: (props.extraJwtIssuers ?? []).map((e) => `${e.issuer}=${e.audience}`).join(','),
        FORCE_HTTPS: String(props.secureCookies ?? false),
      },
    });
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: 'oauth2-proxy', namespace: ns } });

    const secretEnv = (name: string, ref: SecretKeyRef) => ({ name, valueFrom: { secretKeyRef: { name: ref.name, key: ref.key } } });
    const paramEnv = (name: string, key: string) => ({ name, valueFrom: { configMapKeyRef: { name: 'oauth2-proxy-parameters', key } } });
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: { name: 'oauth2-proxy', namespace: ns, labels: { app: 'oauth2-proxy' } },
      spec: {
        replicas,
        selector: { matchLabels: LABELS },
        template: {
          metadata: { labels: LABELS },
          spec: {
            serviceAccountName: 'oauth2-proxy',
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'oauth2-proxy',
              image: this.image('proxy'),
              args: [`--http-address=0.0.0.0:${HTTP_PORT}`, '--config=/etc/oauth2_proxy/oauth2_proxy.cfg'],
              env: [
                { name: 'OAUTH2_PROXY_CLIENT_ID', value: clientId },
                secretEnv('OAUTH2_PROXY_CLIENT_SECRET', clientSecret),
                secretEnv('OAUTH2_PROXY_COOKIE_SECRET', cookieSecret),
                paramEnv('OAUTH2_PROXY_COOKIE_SECURE', 'FORCE_HTTPS'),
                paramEnv('OAUTH2_PROXY_SSL_INSECURE_SKIP_VERIFY', 'ALLOW_SELF_SIGNED_ISSUER'),
                paramEnv('OAUTH2_PROXY_SKIP_JWT_BEARER_TOKENS', 'ENABLE_M2M_TOKENS'),
                paramEnv('OAUTH2_PROXY_EXTRA_JWT_ISSUERS', 'EXTRA_JWT_ISSUERS'),
              ],
              ports: [{ name: 'http', containerPort: HTTP_PORT, protocol: 'TCP' }, { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' }],
              livenessProbe: { httpGet: { path: '/ping', port: 'http', scheme: 'HTTP' } },
              readinessProbe: { httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' } },
              // kubeflow/manifests sets none; its README measures about 3m CPU and 27Mi.
              resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '128Mi' } },
              securityContext: restrictedContainerSecurityContext({ seccompProfile: true }),
              volumeMounts: [{ name: 'oauth2-proxy-config', mountPath: '/etc/oauth2_proxy/oauth2_proxy.cfg', subPath: 'oauth2_proxy.cfg', readOnly: true }],
            }],
            volumes: [{ name: 'oauth2-proxy-config', configMap: { name: 'oauth2-proxy' } }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: { name: 'oauth2-proxy', namespace: ns },
      spec: { type: 'ClusterIP', publishNotReadyAddresses: true, selector: LABELS, ports: [{ name: 'http', port: 80, targetPort: k8s.IntOrString.fromString('http') }] },
    });

    this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the sign-in callback (/oauth2/) is routed through the Kubeflow gateway' });
    this.require({ group: 'security.istio.io', kind: 'AuthorizationPolicy', reason: 'the ingress gateway sends every request through oauth2-proxy (CUSTOM action) and denies those without a verified token' });
    this.require({ group: 'security.istio.io', kind: 'RequestAuthentication', reason: 'the ingress gateway verifies the provider\'s tokens and copies the user\'s claims into headers' });
    new ApiObject(this, 'VirtualService', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'oauth2-proxy', namespace: ns },
      spec: {
        gateways: [gateway],
        hosts: ['*'],
        http: [{ match: [{ uri: { prefix: '/oauth2/' } }], route: [{ destination: { host: this.serviceHost, port: { number: 80 } } }] }],
      },
    });
    // The gateway's namespace is Istio's (a prerequisite): it exists before the platform applies.
    this.platform.addExistingNamespace(gwNamespace);
    const selector = { matchLabels: gwSelector };
    new ApiObject(this, 'ExtAuthzPolicy', {
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'istio-ingressgateway-oauth2-proxy', namespace: gwNamespace },
      spec: {
        action: 'CUSTOM',
        provider: { name: this.extensionProviderName },
        // Requests that already carry a token are verified by the RequestAuthentication instead.
        rules: [{ to: [{ operation: { notPaths: openPaths } }], when: [{ key: 'request.headers[authorization]', notValues: ['*'] }] }],
        selector,
      },
    });
    new ApiObject(this, 'RequireJwtPolicy', {
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'istio-ingressgateway-require-jwt', namespace: gwNamespace },
      spec: {
        action: 'DENY',
        rules: [{ from: [{ source: { notRequestPrincipals: ['*'] } }], to: [{ operation: { notPaths: openPaths } }] }],
        selector,
      },
    });
    new ApiObject(this, 'RequestAuthentication', {
      apiVersion: 'security.istio.io/v1',
      kind: 'RequestAuthentication',
      metadata: { name: dex ? 'dex-jwt' : 'oidc-jwt', namespace: gwNamespace },
      spec: {
        jwtRules: [{
          issuer: this.issuer,
          forwardOriginalToken: true,
          fromHeaders: [{ name: 'Authorization', prefix: 'Bearer ' }],
          outputClaimToHeaders: [{ header: userIdHeader, claim: userClaim }, { header: groupsHeader, claim: groupsClaim }],
        }],
        selector,
      },
    });
    // Istio is installed by its own operator or chart: what it must be told about this proxy.
    this.expectOfPrerequisite('istio', `meshConfig.extensionProviders lists the ext-authz provider the gateway's CUSTOM policy names: ${JSON.stringify(this.meshExtensionProvider())}`);
    this.expectOfPrerequisite('istio', `an ingress gateway in namespace ${gwNamespace} whose pods carry ${Object.entries(gwSelector).map(([k, v]) => `${k}=${v}`).join(', ')} (the authentication policies select it)`);
    if (dex) {
      this.expectOfPrerequisite('istio', 'istiod with PILOT_JWT_PUB_KEY_REFRESH_INTERVAL=1m (as kubeflow/manifests sets it): istiod fetches Dex\'s signing keys for the RequestAuthentication, and with the default 20m a gateway started before Dex rejects every token for up to 20 minutes');
    }
    this.declareParityDeviations(oauth2ProxyParityDeviations());
  }

  /** oauth2-proxy's in-cluster Service host. */
  public get serviceHost(): string {
    return `oauth2-proxy.${this.namespaceName}.svc.${this.clusterDomain}`;
  }

  /**
   * The entry Istio's mesh config must list under `extensionProviders` for the gateway to
   * ask this proxy (kubeflow/manifests patches Istio's `istio` ConfigMap with it).
   */
  public meshExtensionProvider(): Record<string, unknown> {
    return {
      name: this.extensionProviderName,
      envoyExtAuthzHttp: {
        service: this.serviceHost,
        port: 80,
        includeRequestHeadersInCheck: ['authorization', 'cookie'],
        headersToUpstreamOnAllow: ['authorization', 'path', 'x-auth-request-email', 'x-auth-request-groups', 'x-auth-request-user'],
        headersToDownstreamOnDeny: ['content-type', 'set-cookie'],
      },
    };
  }
}
