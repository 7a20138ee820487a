import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { dexParityDeviations } from './parity';
import { DEX_IMAGES, DEX_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { CrdScope } from '../../lib/crd';
import { SecretKeyRef, secretKeyRefProblems } from '../../lib/database';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { bindingObject, roleObject } from '../../lib/rbac';
import { s } from '../../lib/schema';
import { GeneratedValue, SecretValue } from '../../lib/secrets';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';

/** A user of Dex's password database. Only the bcrypt hash of the password, from a Secret, reaches Dex. */
export interface DexStaticPassword {
  readonly email: string;
  readonly username: string;
  /** A stable, unique id of the user. */
  readonly userId: string;
  /**
   * The Secret key holding the bcrypt hash of the user's password. `mlplatform apply`
   * generates a password into Secret dex-initial-password (key `password`; for the users
   * after the first, dex-initial-password-<index>) and its hash here, when this Secret is
   * missing; a platform team that creates it first (e.g. with
   * `htpasswd -nbBC 12 "" PASSWORD | tr -d ':\n'`) keeps its own. No password or hash is
   * ever emitted.
   */
  readonly hashSecret: SecretKeyRef;
}

/** The OAuth2 client Dex registers for the identity proxy (oauth2-proxy). */
export interface DexClientProps {
  /** @default kubeflow-oidc-authservice (kubeflow/manifests' client id) */
  readonly id?: string;
  /**
   * The Secret key holding the client secret, in Dex's namespace; oauth2-proxy must be given
   * the same secret. `mlplatform apply` generates it when missing (and gives oauth2-proxy the
   * same value); it is never emitted.
   * @default { name: 'dex-oidc-client', key: 'OIDC_CLIENT_SECRET' } (kubeflow/manifests' Secret and key)
   */
  readonly secret?: SecretKeyRef;
  /** @default ['/oauth2/callback'] (oauth2-proxy's callback on the gateway's host) */
  readonly redirectUris?: string[];
}

export interface DexProps extends ComponentProps {
  /** The OAuth2 client of the identity proxy. @default kubeflow/manifests' client, its secret from a Secret the platform team creates */
  readonly client?: DexClientProps;
  /**
   * Users of the password database. Empty turns the password database off (users then sign
   * in through connectors the platform team adds to Dex, or an external provider replaces Dex).
   * @default kubeflow/manifests' example user (user@example.com), its hash from Secret dex-passwords, key DEX_USER_PASSWORD
   */
  readonly staticPasswords?: DexStaticPassword[];
  /** @default debug (as kubeflow/manifests) */
  readonly logLevel?: 'debug' | 'info' | 'error';
  /** The Istio Gateway that routes /dex/ to Dex, as namespace/name; false for no route. @default kubeflow/kubeflow-gateway */
  readonly istioGateway?: string | false;
  /** The cluster's DNS domain (in the issuer URL and the route's destination). @default cluster.local */
  readonly clusterDomain?: string;
}

/** kubeflow/manifests' example user (common/dex/base/config-map.yaml). */
export const DEX_EXAMPLE_USER: DexStaticPassword = Object.freeze({
  email: 'user@example.com',
  username: 'user',
  userId: '15841185641784',
  hashSecret: { name: 'dex-passwords', key: 'DEX_USER_PASSWORD' },
});

/**
 * The Secret (key `password`) into which `mlplatform apply` generates the first static user's
 * password, whose bcrypt hash Dex reads; further users' are `dex-initial-password-<index>`.
 */
export const DEX_INITIAL_PASSWORD_SECRET = 'dex-initial-password';

const LABELS = { app: 'dex' };
const PORT = 5556;
const DNS = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const GATEWAY = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/**
 * Dex, the OpenID Connect provider of kubeflow/manifests' authentication: it signs users in
 * (its password database, or connectors) and issues the tokens oauth2-proxy and Istio check.
 * State lives in Kubernetes objects of dex.coreos.com (Dex creates its CRDs at start; the
 * AuthCode CRD is shipped, as upstream does). Passwords and the client secret come only
 * from Secrets the platform team creates.
 */
export class Dex extends Component {
  public override get release(): string {
    return DEX_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = DEX_IMAGES;
  /** The issuer URL Dex's tokens carry (in-cluster). */
  public readonly issuer: string;
  /** The client id registered for the identity proxy. */
  public readonly clientId: string;
  /** The Secret key holding the client secret. */
  public readonly clientSecret: SecretKeyRef;
  /** Dex's in-cluster base URL (issuer), for the token and keys endpoints. */
  public readonly serviceUrl: string;
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;

  constructor(scope: Platform, id: string, props: DexProps = {}) {
    super(scope, id, props.namespace ?? 'auth', props);
    const ns = this.namespaceName;
    const clusterDomain = props.clusterDomain ?? 'cluster.local';
    if (!DNS.test(clusterDomain)) throw new Error(`${this.node.path}: clusterDomain '${clusterDomain}' is not a DNS domain; give the cluster's domain, e.g. cluster.local`);
    this.clientId = props.client?.id ?? 'kubeflow-oidc-authservice';
    if (!this.clientId || /\s/.test(this.clientId)) throw new Error(`${this.node.path}: client.id '${this.clientId}' must be a non-empty client id without spaces, e.g. kubeflow-oidc-authservice`);
    this.clientSecret = props.client?.secret ?? { name: 'dex-oidc-client', key: 'OIDC_CLIENT_SECRET' };
    const passwords = props.staticPasswords ?? [DEX_EXAMPLE_USER];
    const problems = [
      ...secretKeyRefProblems('client.secret', this.clientSecret),
      ...passwords.flatMap((p, i) => [
        ...(p.hashSecret ? secretKeyRefProblems(`staticPasswords[${i}].hashSecret`, p.hashSecret)
          : [`staticPasswords[${i}].hashSecret is missing; give the Secret key holding the user's bcrypt password hash (no password is ever emitted)`]),
        ...(/^[^@\s]+@[^@\s]+$/.test(p.email ?? '') ? [] : [`staticPasswords[${i}].email '${p.email}' is not an email address`]),
        ...(p.username && p.userId ? [] : [`staticPasswords[${i}] needs a username and a userId`]),
      ]),
    ];
    const emails = passwords.map((p) => p.email);
    for (const e of new Set(emails.filter((x, i) => emails.indexOf(x) !== i))) problems.push(`staticPasswords: email '${e}' is listed twice; list each user once`);
    const redirects = props.client?.redirectUris ?? ['/oauth2/callback'];
    if (!redirects.length) problems.push('client.redirectUris is empty; give oauth2-proxy\'s callback, e.g. /oauth2/callback');
    const gateway = props.istioGateway ?? 'kubeflow/kubeflow-gateway';
    if (gateway !== false && !GATEWAY.test(gateway)) problems.push(`istioGateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway), or false`);
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);

    // The Secrets: apply generates them when missing (a Secret that exists is never changed, so
    // a platform team that creates them first keeps its own values).
    const generated = new Map<string, { purposes: string[]; generate: Record<string, GeneratedValue> }>();
    const add = (ref: SecretKeyRef, purpose: string, value: GeneratedValue) => {
      const entry = generated.get(ref.name) ?? { purposes: [], generate: {} };
      if (!entry.purposes.includes(purpose)) entry.purposes.push(purpose);
      entry.generate[ref.key] = value;
      generated.set(ref.name, entry);
    };
    add(this.clientSecret, `the secret of Dex's OAuth2 client ${this.clientId} (oauth2-proxy holds the same value)`, SecretValue.alphanumeric(40));
    passwords.forEach((p, i) => {
      // Each user's password is generated into a Secret of its own that the admin reads once; Dex gets only its bcrypt hash.
      const plain = { namespace: ns, name: i === 0 ? DEX_INITIAL_PASSWORD_SECRET : `${DEX_INITIAL_PASSWORD_SECRET}-${i}`, key: 'password' };
      this.referenceSecret({ name: plain.name, purpose: `the initial password of Dex's static user ${p.email} (read it once and keep it elsewhere; Dex holds only its hash)`, generate: { password: SecretValue.alphanumeric(24) }, forPeople: true });
      add(p.hashSecret, 'the bcrypt hashes of the passwords of Dex\'s static users', SecretValue.bcryptOf(plain));
    });
    for (const [name, e] of generated) this.referenceSecret({ name, purpose: e.purposes.join('; '), generate: e.generate });

    this.serviceUrl = `http://dex.${ns}.svc.${clusterDomain}:${PORT}/dex`;
    this.issuer = this.serviceUrl;
    this.providesInfrastructure.push('dex');
    this.addNamespace({ 'pod-security.kubernetes.io/enforce': 'restricted' });

    // Dex's Kubernetes storage keeps its state in these; it creates the other kinds itself at start.
    this.addCrd({
      group: 'dex.coreos.com',
      kind: 'AuthCode',
      plural: 'authcodes',
      scope: CrdScope.NAMESPACED,
      versions: [{ name: 'v1', served: true, storage: true, schema: s.object({}, { preserveUnknownFields: true }).describe('Dex storage: fields at the top level, written and read only by Dex (deliberately open).') }],
    });

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: 'dex', namespace: ns } });
    roleObject(this, 'ClusterRole', {
      name: 'dex',
      rules: [
        { apiGroups: ['dex.coreos.com'], resources: ['*'], verbs: ['*'] },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['create'] },
      ],
      securityExceptions: [{ check: 'wildcardRbac', reason: 'Dex\'s Kubernetes storage creates its dex.coreos.com CRDs at start and then reads and writes every kind of them (the set grows with Dex releases); upstream grants \'*\' on the group' }],
    });
    bindingObject(this, 'ClusterRoleBinding', { name: 'dex', roleRef: { kind: 'ClusterRole', name: 'dex' }, serviceAccounts: [{ name: 'dex', namespace: ns }] });

    const hashEnv = (i: number) => (i === 0 ? 'DEX_USER_PASSWORD' : `DEX_USER_PASSWORD_${i}`);
    const config = {
      issuer: this.issuer,
      storage: { type: 'kubernetes', config: { inCluster: true } },
      web: { http: `0.0.0.0:${PORT}` },
      logger: { level: props.logLevel ?? 'debug', format: 'text' },
      oauth2: { skipApprovalScreen: true },
      enablePasswordDB: passwords.length > 0,
      ...(passwords.length ? { staticPasswords: passwords.map((p, i) => ({ email: p.email, hashFromEnv: hashEnv(i), username: p.username, userID: p.userId })) } : {}),
      staticClients: [{ idEnv: 'OIDC_CLIENT_ID', redirectURIs: redirects, name: 'Dex Login Application', secretEnv: 'OIDC_CLIENT_SECRET' }],
    };
    new k8s.KubeConfigMap(this, 'Config', { metadata: { name: 'dex', namespace: ns }, data: { 'config.yaml': stringify(config) } });

    this.deployment = workloadObject(this, 'Deployment', {
      metadata: { name: 'dex', namespace: ns, labels: LABELS },
      spec: {
        replicas: 1,
        selector: { matchLabels: LABELS },
        template: {
          metadata: { labels: LABELS },
          spec: {
            serviceAccountName: 'dex',
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'dex',
              image: this.image('dex'),
              command: ['dex', 'serve', '/etc/dex/cfg/config.yaml'],
              ports: [{ name: 'http', containerPort: PORT }],
              env: [
                { name: 'KUBERNETES_POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                { name: 'OIDC_CLIENT_ID', value: this.clientId },
                { name: 'OIDC_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: this.clientSecret.name, key: this.clientSecret.key } } },
                ...passwords.map((p, i) => ({ name: hashEnv(i), valueFrom: { secretKeyRef: { name: p.hashSecret.name, key: p.hashSecret.key } } })),
              ],
              readinessProbe: { httpGet: { path: '/dex/healthz', port: PORT }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
              // kubeflow/manifests sets none; its README measures about 3m CPU and 27Mi.
              resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '128Mi' } },
              securityContext: restrictedContainerSecurityContext({ seccompProfile: true }),
              volumeMounts: [{ name: 'config', mountPath: '/etc/dex/cfg' }],
            }],
            volumes: [{ name: 'config', configMap: { name: 'dex', items: [{ key: 'config.yaml', path: 'config.yaml' }] } }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: { name: 'dex', namespace: ns },
      spec: { type: 'ClusterIP', selector: LABELS, ports: [{ name: 'dex', port: PORT, targetPort: k8s.IntOrString.fromNumber(PORT), protocol: 'TCP' }] },
    });

    if (gateway !== false) {
      this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'Dex\'s sign-in pages (/dex/) are routed through the Kubeflow gateway (istioGateway: false turns this off)' });
      new ApiObject(this, 'VirtualService', {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'dex', namespace: ns },
        spec: {
          gateways: [gateway],
          hosts: ['*'],
          http: [{ match: [{ uri: { prefix: '/dex/' } }], route: [{ destination: { host: `dex.${ns}.svc.${clusterDomain}`, port: { number: PORT } } }] }],
        },
      });
    }
    this.declareParityDeviations(dexParityDeviations());
  }
}
