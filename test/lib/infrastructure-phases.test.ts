import { ApiObject } from 'cdk8s';
import { build, newPlatform, problemsOf, TestComponent, widgetDef } from './support';
import { Controller } from '../../lib/controller';
import { Phase, phaseOf, PHASES, setPhase } from '../../lib/phases';
import { s } from '../../lib/schema/dsl';
import { WebhookServer } from '../../lib/webhook-server';

const SELECTOR = { 'app.kubernetes.io/name': 'widget-controller' };
const open = (kind: string) => {
  const base = widgetDef({ group: 'cert-manager.io', kind, plural: `${kind.toLowerCase()}s` });
  return { ...base, versions: [{ ...base.versions[0], schema: s.object({ spec: s.openObject(), status: s.openObject() }) }] };
};
const certificateDef = () => open('Certificate');

/** An infrastructure component that serves cert-manager.io Certificates and validates them. */
function infrastructure(p: ReturnType<typeof newPlatform>): TestComponent {
  return new TestComponent(p, 'infra', 'infra-system', (self) => {
    self.providesInfrastructure.push('cert-manager');
    self.namespaceObject();
    self.crd(certificateDef());
    self.crd(open('Issuer'));
    const ctl = new Controller(self, 'Manager', { name: 'infra-webhook', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 }, owns: [certificateDef(), open('Issuer')] });
    const srv = new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'infra-webhook', secretName: 'infra-webhook-ca', selfManaged: { required: true } });
    srv.addValidatingWebhook('infra-validator', {
      name: 'vcertificate.example.com',
      path: '/validate',
      rules: [{ apiGroups: ['cert-manager.io'], apiVersions: ['v1'], resources: ['*/*'], operations: ['CREATE', 'UPDATE'] }],
    });
  });
}

/** A component whose webhook server takes its certificate from cert-manager (the platform default). */
function user(p: ReturnType<typeof newPlatform>): TestComponent {
  return new TestComponent(p, 'user', 'user-system', (self) => {
    self.namespaceObject();
    const ctl = new Controller(self, 'Manager', { name: 'user-controller', image: self.image('manager'), selectorLabels: { app: 'user' }, ports: { webhook: 9443 } });
    new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'user-webhook', secretName: 'user-webhook-tls' })
      .addValidatingWebhook('user-validator', { name: 'vuser.example.com', path: '/validate', rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['gadgets'], operations: ['CREATE'] }] });
  });
}

describe('infrastructure phases', () => {
  test('the infrastructure phases come after the foundation and before the controllers', () => {
    expect(PHASES).toEqual(['00-foundation', '03-infrastructure', '05-infrastructure-webhooks', '07-infrastructure-resources', '10-controllers', '20-webhooks', '30-resources']);
  });

  test('phaseOf: infrastructure objects, their webhooks and resources; kinds served by infrastructure go with the controllers', () => {
    const obj = (kind: string) => ({ kind }) as ApiObject;
    expect(phaseOf(obj('Deployment'), { isPlatformCustomResource: false, infrastructure: true })).toBe(Phase.INFRASTRUCTURE);
    expect(phaseOf(obj('ValidatingWebhookConfiguration'), { isPlatformCustomResource: false, infrastructure: true })).toBe(Phase.INFRASTRUCTURE_WEBHOOKS);
    expect(phaseOf(obj('ClusterIssuer'), { isPlatformCustomResource: true, infrastructure: true, servedByInfrastructure: true })).toBe(Phase.INFRASTRUCTURE_RESOURCES);
    expect(phaseOf(obj('CustomResourceDefinition'), { isPlatformCustomResource: false, infrastructure: true })).toBe(Phase.FOUNDATION);
    expect(phaseOf(obj('Certificate'), { isPlatformCustomResource: true, servedByInfrastructure: true })).toBe(Phase.CONTROLLERS);
    expect(phaseOf(obj('Widget'), { isPlatformCustomResource: true })).toBe(Phase.RESOURCES);
    expect(phaseOf(obj('Widget'), true)).toBe(Phase.RESOURCES);
    expect(phaseOf(obj('ConfigMap'), false)).toBe(Phase.CONTROLLERS);
  });

  test('an infrastructure component satisfies the need without the prerequisite; other Certificates follow its webhook', () => {
    const p = newPlatform({ prerequisites: [] });
    infrastructure(p);
    user(p);
    const b = build(p);
    const at = (kind: string, name: string) => b.model.objects.find((o) => o.json.kind === kind && o.json.metadata.name === name)!.phase;
    expect(at('Deployment', 'infra-webhook')).toBe(Phase.INFRASTRUCTURE);
    expect(at('ValidatingWebhookConfiguration', 'infra-validator')).toBe(Phase.INFRASTRUCTURE_WEBHOOKS);
    expect(at('Issuer', 'selfsigned-issuer')).toBe(Phase.CONTROLLERS);
    expect(at('Certificate', 'user-webhook-cert')).toBe(Phase.CONTROLLERS);
    expect(at('Deployment', 'user-controller')).toBe(Phase.CONTROLLERS);
    expect(at('ValidatingWebhookConfiguration', 'user-validator')).toBe(Phase.WEBHOOKS);
    // Inside 10-controllers the Issuer and Certificate precede the Deployment that mounts the Secret.
    const order = (kind: string) => b.model.objects.findIndex((o) => o.json.kind === kind && o.component.componentName === 'user');
    expect(order('Issuer')).toBeLessThan(order('Certificate'));
    expect(order('Certificate')).toBeLessThan(order('Deployment'));
  });

  test('fails when neither a component nor a prerequisite provides cert-manager', () => {
    const p = newPlatform({ prerequisites: [] });
    user(p);
    expect(problemsOf(p)).toEqual(expect.arrayContaining([
      "p/user: component 'user' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    ]));
  });

  test('fails (MLP023) when another component\'s Certificate is forced before the infrastructure webhook', () => {
    const p = newPlatform({ prerequisites: [] });
    infrastructure(p);
    const u = user(p);
    const cert = u.node.findAll().find((x): x is ApiObject => x instanceof ApiObject && x.kind === 'Certificate')!;
    setPhase(cert, Phase.INFRASTRUCTURE);
    expect(problemsOf(p)).toEqual([
      "[MLP023] p/user/Webhooks/Certificate: Certificate user-webhook-cert (phase 03-infrastructure) would reach the cluster before webhook vcertificate.example.com of ValidatingWebhookConfiguration infra-validator (phase 05-infrastructure-webhooks) of infrastructure component 'infra' is configured; apply it in a later phase",
    ]);
  });
});
