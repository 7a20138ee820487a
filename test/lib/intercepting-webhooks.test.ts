import { k8s } from 'cdk8s-plus-28';
import { build, newPlatform, TestComponent } from './support';
import { interceptingWebhooks } from '../../lib/checks';
import { Controller } from '../../lib/controller';
import { excludingNamespaces, WebhookServer } from '../../lib/webhook-server';

/** A pod mutator scoped to namespaces labelled team=true, and a validator of every pod create. */
function model() {
  const p = newPlatform();
  new TestComponent(p, 'test', 'test-system', (c) => {
    c.namespaceObject();
    new k8s.KubeNamespace(c, 'Tenant', { metadata: { name: 'tenant-a', labels: { team: 'true' } } });
    new k8s.KubeNamespace(c, 'Other', { metadata: { name: 'other' } });
    const ctl = new Controller(c, 'Manager', { name: 'pod-mutator', image: c.image('manager'), selectorLabels: { app: 'pod-mutator' }, ports: { webhook: 9443 } });
    const srv = new WebhookServer(c, 'Webhooks', { controller: ctl, serviceName: 'pod-mutator', secretName: 'pod-mutator-tls' });
    const pods = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE' as const] }];
    srv.addMutatingWebhook('pod-mutator', { name: 'tenants.example.com', path: '/mutate', rules: pods, namespaceSelector: { matchLabels: { team: 'true' } } });
    srv.addMutatingWebhook('pod-mutator', { name: 'labelled.example.com', path: '/mutate-labelled', rules: pods, namespaceSelector: excludingNamespaces(['kube-system', 'test-system']), objectSelector: { matchExpressions: [{ key: 'inject', operator: 'Exists' }] } });
  });
  return build(p).model;
}

describe('interceptingWebhooks', () => {
  const m = model();
  const pod = (namespace: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace, labels } });
  const names = (json: any) => interceptingWebhooks(m, json).map((w) => w.name);

  test('a namespaceSelector resolves against the labels of the Namespace objects of the platform', () => {
    expect(names(pod('tenant-a'))).toEqual(['tenants.example.com']);
    expect(names(pod('other'))).toEqual([]);
  });

  test('a namespace the platform does not create has only its name label', () => {
    expect(names(pod('kube-system'))).toEqual([]);
  });

  test('objectSelector and rules apply too', () => {
    expect(names(pod('other', { inject: 'yes' }))).toEqual(['labelled.example.com']);
    expect(names(pod('tenant-a', { inject: 'yes' }))).toEqual(['tenants.example.com', 'labelled.example.com']);
    expect(names({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'tenant-a' } })).toEqual([]);
  });
});
