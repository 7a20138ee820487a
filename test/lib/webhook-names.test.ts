/**
 * Webhook names are unique only within one configuration: Kueue, AppWrapper and CodeFlare
 * each have a vappwrapper.kb.io. Checks and the report identify a webhook by
 * configuration kind, configuration name and webhook name.
 */
import { ApiObject } from 'cdk8s';
import { newPlatform, problemsOf, TestComponent, widgetDef } from './support';
import { Controller } from '../../lib/controller';
import { Platform } from '../../lib/platform';
import { wiringTable } from '../../lib/report';
import { buildPlatform } from '../../lib/synth';
import { WebhookRule, WebhookServer } from '../../lib/webhook-server';

const NS = 'test-system';
const NAME = 'vappwrapper.kb.io';
const RULES: WebhookRule[] = [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }];
const CA_BUNDLE = Buffer.from('test CA').toString('base64');

/** A component with a working webhook server whose configurations hold a webhook named NAME. */
function withServer(body: (c: TestComponent, server: WebhookServer) => void): Platform {
  const platform = newPlatform();
  new TestComponent(platform, 'test', NS, (c) => {
    c.namespaceObject();
    const ctl = new Controller(c, 'Manager', { name: 'widget-controller', image: c.image('manager'), selectorLabels: { app: 'widget' }, ports: { webhook: 9443 } });
    const server = new WebhookServer(c, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
    server.addValidatingWebhook('good-validating', { name: NAME, path: '/validate', rules: RULES });
    body(c, server);
  });
  return platform;
}

/** A hand-written configuration holding one webhook named NAME. */
function rawConfig(c: TestComponent, kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', name: string, clientConfig: Record<string, unknown>, failurePolicy = 'Ignore'): void {
  new ApiObject(c, `Raw-${kind}-${name}`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: [{ name: NAME, admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy, clientConfig, rules: RULES }],
  } as any);
}

describe('a webhook name used by two configurations', () => {
  test('MLP020 names the configuration whose webhook points nowhere, not the other', () => {
    const platform = withServer((c) => rawConfig(c, 'ValidatingWebhookConfiguration', 'broken', { service: { name: 'missing', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE }));
    expect(problemsOf(platform)).toEqual([
      `[MLP020] p/test/Raw-ValidatingWebhookConfiguration-broken: webhook ${NAME} of ValidatingWebhookConfiguration broken points at Service test-system/missing, which is not in the platform output`,
    ]);
  });

  test('MLP020 tells a mutating and a validating configuration of the same name apart', () => {
    const platform = withServer((c) => {
      rawConfig(c, 'ValidatingWebhookConfiguration', 'same', { service: { name: 'widget-webhook', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE });
      rawConfig(c, 'MutatingWebhookConfiguration', 'same', { service: { name: 'widget-webhook', namespace: NS, path: '/mutate', port: 8443 }, caBundle: CA_BUNDLE });
    });
    expect(problemsOf(platform)).toEqual([
      `[MLP020] p/test/Raw-MutatingWebhookConfiguration-same: webhook ${NAME} of MutatingWebhookConfiguration same points at port 8443 of Service test-system/widget-webhook, which exposes 443`,
    ]);
  });

  test('MLP021 names the configuration without a CA source', () => {
    const platform = withServer((c) => rawConfig(c, 'ValidatingWebhookConfiguration', 'no-ca', { service: { name: 'widget-webhook', namespace: NS, path: '/validate' } }));
    expect(problemsOf(platform)).toEqual([
      `[MLP021] p/test/Raw-ValidatingWebhookConfiguration-no-ca: webhook ${NAME} of ValidatingWebhookConfiguration no-ca has no CA source: ` +
        "no caBundle, no cert-manager injection, no OpenShift service-ca (with the Service's serving-cert annotation)",
    ]);
  });

  test('MLP022 names the fail-closed configuration that intercepts an object applied too early', () => {
    const platform = withServer((c) => {
      // Fail-open in the server's configuration, fail-closed in the broken one.
      c.crd(widgetDef());
      rawConfig(c, 'ValidatingWebhookConfiguration', 'closed', { service: { name: 'missing', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE }, 'Fail');
      new ApiObject(c, 'Default', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'default', namespace: NS } });
    });
    expect(problemsOf(platform).filter((p) => p.startsWith('[MLP022]'))).toEqual([
      `[MLP022] p/test/Default: Widget default (phase 30-resources) is intercepted by fail-closed webhook ${NAME} of ValidatingWebhookConfiguration closed, whose backend is not in the output; apply it in a later phase than the backend`,
    ]);
  });

  test('the report lists each webhook under its configuration', () => {
    const platform = withServer((_c, server) => {
      server.addValidatingWebhook('other-validating', { name: NAME, path: '/validate-other', rules: RULES });
      server.addMutatingWebhook('good-mutating', { name: NAME, path: '/mutate', rules: RULES });
    });
    const table = wiringTable(buildPlatform(platform).model);
    expect(table.map((l) => l.split(' -> ')[0])).toEqual([
      `validating good-validating/${NAME}`,
      `validating other-validating/${NAME}`,
      `mutating good-mutating/${NAME}`,
    ]);
    expect(table[1]).toContain('test-system/widget-webhook:443/validate-other');
  });
});
