import { build, newPlatform, TestComponent, widgetDef } from './support';
import { Controller } from '../../lib/controller';
import { WebhookServer } from '../../lib/webhook-server';

const SELECTOR = { 'app.kubernetes.io/name': 'widget-controller' };
const rules = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE' as const] }];

function server(): { p: ReturnType<typeof newPlatform>; server: () => WebhookServer } {
  const p = newPlatform();
  let s!: WebhookServer;
  new TestComponent(p, 'test', 'test-system', (self) => {
    self.namespaceObject();
    self.crd(widgetDef());
    const ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 }, owns: [widgetDef()] });
    s = new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
  });
  return { p, server: () => s };
}

describe('WebhookServer matchConditions', () => {
  test('renders matchConditions on the webhook', () => {
    const { p, server: s } = server();
    s().addMutatingWebhook('mpod.example.com', {
      name: 'mpod.example.com',
      path: '/mutate-pod',
      rules,
      namespaceSelector: { matchLabels: { 'example.com/inject': 'enabled' } },
      matchConditions: [{ name: 'not-self', expression: 'request.userInfo.username != "system:serviceaccount:test-system:widget-controller"' }],
    });
    const m = build(p).model.objects.map((o) => o.json).find((o) => o.kind === 'MutatingWebhookConfiguration')!;
    expect(m.webhooks[0].matchConditions).toEqual([{ name: 'not-self', expression: 'request.userInfo.username != "system:serviceaccount:test-system:widget-controller"' }]);
  });

  test('leaves matchConditions out when none are given', () => {
    const { p, server: s } = server();
    s().addValidatingWebhook('vpod.example.com', { name: 'vpod.example.com', path: '/validate-pod', rules, namespaceSelector: { matchLabels: { 'example.com/inject': 'enabled' } } });
    const v = build(p).model.objects.map((o) => o.json).find((o) => o.kind === 'ValidatingWebhookConfiguration')!;
    expect(v.webhooks[0]).not.toHaveProperty('matchConditions');
  });

  test('fails when two matchConditions share a name', () => {
    const { server: s } = server();
    expect(() => s().addValidatingWebhook('vpod.example.com', {
      name: 'vpod.example.com',
      path: '/validate-pod',
      rules,
      matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'false' }],
    })).toThrow("p/test/Webhooks: webhook 'vpod.example.com': matchConditions name 'a' is used twice; give each condition its own name");
  });
});
