import { App } from 'cdk8s';
import { parse } from 'yaml';
import { Dex, DexProps } from '../../../constructs/dex';
import { Platform } from '../../../lib/platform';
import { build } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

function platform(props: DexProps = {}) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'auth', prerequisites: [ISTIO] });
    new Dex(p, 'dex', props);
    return p;
  });
}
const objectsOf = (b: ReturnType<typeof platform>) => b.model.objects.map((o) => o.json);
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const dexError = (props: DexProps) => () => new Dex(new Platform(new App(), 'p', { name: 'x' }), 'dex', props);

describe('Dex', () => {
  const objects = objectsOf(platform());
  const container = find(objects, 'Deployment', 'dex').spec.template.spec.containers[0];

  test('as kubeflow/manifests v1.11.0: namespace auth (restricted), AuthCode CRD, Service 5556, route /dex/ on the Kubeflow gateway', () => {
    expect(find(objects, 'Namespace', 'auth').metadata.labels).toEqual({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    expect(find(objects, 'CustomResourceDefinition', 'authcodes.dex.coreos.com').spec.scope).toBe('Namespaced');
    expect(find(objects, 'Service', 'dex').spec.ports).toEqual([{ name: 'dex', port: 5556, targetPort: 5556, protocol: 'TCP' }]);
    expect(container.image).toBe('ghcr.io/dexidp/dex:v2.44.0');
    expect(container.command).toEqual(['dex', 'serve', '/etc/dex/cfg/config.yaml']);
    expect(find(objects, 'VirtualService', 'dex').spec).toEqual({
      gateways: ['kubeflow/kubeflow-gateway'],
      hosts: ['*'],
      http: [{ match: [{ uri: { prefix: '/dex/' } }], route: [{ destination: { host: 'dex.auth.svc.cluster.local', port: { number: 5556 } } }] }],
    });
  });

  test('AUTH-NOSECRET: the client secret and the password hash come from Secret keys the platform team creates; no Secret is emitted', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(container.envFrom).toBeUndefined();
    expect(container.env).toEqual([
      { name: 'KUBERNETES_POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'OIDC_CLIENT_ID', value: 'kubeflow-oidc-authservice' },
      { name: 'OIDC_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'dex-oidc-client', key: 'OIDC_CLIENT_SECRET' } } },
      { name: 'DEX_USER_PASSWORD', valueFrom: { secretKeyRef: { name: 'dex-passwords', key: 'DEX_USER_PASSWORD' } } },
    ]);
  });

  test('its configuration names the variables, not the values (idEnv, secretEnv, hashFromEnv), with upstream\'s issuer and client', () => {
    const config = parse(find(objects, 'ConfigMap', 'dex').data['config.yaml']);
    expect(config).toEqual({
      issuer: 'http://dex.auth.svc.cluster.local:5556/dex',
      storage: { type: 'kubernetes', config: { inCluster: true } },
      web: { http: '0.0.0.0:5556' },
      logger: { level: 'debug', format: 'text' },
      oauth2: { skipApprovalScreen: true },
      enablePasswordDB: true,
      staticPasswords: [{ email: 'user@example.com', hashFromEnv: 'DEX_USER_PASSWORD', username: 'user', userID: '15841185641784' }],
      staticClients: [{ idEnv: 'OIDC_CLIENT_ID', redirectURIs: ['/oauth2/callback'], name: 'Dex Login Application', secretEnv: 'OIDC_CLIENT_SECRET' }],
    });
  });

  test('users and the client are typed settings; no users turns the password database off', () => {
    const custom = objectsOf(platform({
      client: { id: 'kf', secret: { name: 'oidc', key: 'secret' } },
      staticPasswords: [
        { email: 'a@example.com', username: 'a', userId: '1', hashSecret: { name: 'users', key: 'a' } },
        { email: 'b@example.com', username: 'b', userId: '2', hashSecret: { name: 'users', key: 'b' } },
      ],
    }));
    const env = find(custom, 'Deployment', 'dex').spec.template.spec.containers[0].env;
    expect(env.slice(1)).toEqual([
      { name: 'OIDC_CLIENT_ID', value: 'kf' },
      { name: 'OIDC_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'oidc', key: 'secret' } } },
      { name: 'DEX_USER_PASSWORD', valueFrom: { secretKeyRef: { name: 'users', key: 'a' } } },
      { name: 'DEX_USER_PASSWORD_1', valueFrom: { secretKeyRef: { name: 'users', key: 'b' } } },
    ]);
    expect(parse(find(custom, 'ConfigMap', 'dex').data['config.yaml']).staticPasswords.map((p: any) => p.hashFromEnv)).toEqual(['DEX_USER_PASSWORD', 'DEX_USER_PASSWORD_1']);
    const none = parse(find(objectsOf(platform({ staticPasswords: [] })), 'ConfigMap', 'dex').data['config.yaml']);
    expect(none.enablePasswordDB).toBe(false);
    expect(none.staticPasswords).toBeUndefined();
  });

  test('fails on a user without a hash Secret, a bad email, a duplicate user, a bad Secret name, a bad gateway', () => {
    expect(dexError({ staticPasswords: [{ email: 'a@example.com', username: 'a', userId: '1' } as any] })).toThrow(
      "p/dex: staticPasswords[0].hashSecret is missing; give the Secret key holding the user's bcrypt password hash (no password is ever emitted)");
    expect(dexError({ staticPasswords: [{ email: 'nobody', username: 'a', userId: '1', hashSecret: { name: 's', key: 'k' } }] })).toThrow(
      "p/dex: staticPasswords[0].email 'nobody' is not an email address");
    const u = { email: 'a@example.com', username: 'a', userId: '1', hashSecret: { name: 's', key: 'k' } };
    expect(dexError({ staticPasswords: [u, u] })).toThrow("p/dex: staticPasswords: email 'a@example.com' is listed twice; list each user once");
    expect(dexError({ client: { secret: { name: 'Bad_Name', key: 'k' } } })).toThrow("p/dex: client.secret.name 'Bad_Name' is not a valid Secret name (lower-case DNS subdomain)");
    expect(dexError({ istioGateway: 'kubeflow-gateway' })).toThrow("p/dex: istioGateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway), or false");
  });
});
