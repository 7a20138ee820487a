// Synthetic platforms for the scaling sweep of `npm run bench` (scripts/bench.ts): sizes
// that grow by one knob, built from the same framework as the real platforms, so that the
// time and memory per object can be read off as they grow.
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Component } from '../lib/component';
import { Controller } from '../lib/controller';
import { CrdDefinition, CrdScope } from '../lib/crd';
import { ImageSpec } from '../lib/images';
import { Platform } from '../lib/platform';
import { core } from '../lib/schema/core';
import { s } from '../lib/schema/dsl';

/** Objects per synthetic tenant: Namespace, Role, RoleBinding, ResourceQuota, NetworkPolicy. */
export const OBJECTS_PER_TENANT = 5;

/** `count` tenants, each a namespace with its RBAC, quota and network policy. */
class Tenants extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = {};

  constructor(scope: Platform, id: string, count: number) {
    super(scope, id, 'tenants-system');
    for (let i = 0; i < count; i++) {
      const ns = `tenant-${String(i).padStart(5, '0')}`;
      const labels = { 'app.kubernetes.io/part-of': 'tenants', 'example.com/tenant': ns };
      const t = new Construct(this, ns);
      new k8s.KubeNamespace(t, 'Namespace', { metadata: { name: ns, labels } });
      new k8s.KubeRole(t, 'Role', {
        metadata: { name: 'tenant-edit', namespace: ns, labels },
        rules: [
          { apiGroups: [''], resources: ['configmaps', 'pods', 'secrets', 'services'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
          { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
        ],
      });
      new k8s.KubeRoleBinding(t, 'RoleBinding', {
        metadata: { name: 'tenant-edit', namespace: ns, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'tenant-edit' },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: `${ns}-members` }],
      });
      new k8s.KubeResourceQuota(t, 'ResourceQuota', {
        metadata: { name: 'tenant-quota', namespace: ns, labels },
        spec: { hard: { 'requests.cpu': k8s.Quantity.fromString('8'), 'requests.memory': k8s.Quantity.fromString('32Gi'), 'pods': k8s.Quantity.fromNumber(50) } },
      });
      new k8s.KubeNetworkPolicy(t, 'NetworkPolicy', {
        metadata: { name: 'same-namespace-only', namespace: ns, labels },
        spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] },
      });
    }
  }
}

/** A platform of `count` synthetic tenants. */
export class TenantsPlatform extends Platform {
  constructor(scope: Construct, id: string, count: number) {
    super(scope, id, { name: 'tenants' });
    new Tenants(this, 'tenants', count);
  }
}

function widget(i: number): CrdDefinition {
  return {
    group: `c${i}.bench.example.com`,
    kind: 'Widget',
    plural: 'widgets',
    scope: CrdScope.NAMESPACED,
    versions: [{
      name: 'v1',
      storage: true,
      schema: s.object({
        spec: s.object({
          size: s.integer({ minimum: 1 }).required(),
          color: s.enum('red', 'blue'),
          labels: s.map(s.string()),
          template: core('V1PodTemplateSpec'),
        }).required(),
        status: s.object({ ready: s.boolean() }),
      }),
      subresources: { status: true },
    }],
  };
}

/** A component with a CRD, a controller that owns it, and one custom resource. */
class Synthetic extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = { manager: { repository: 'example.com/bench/manager', tag: 'v1.0.0' } };

  constructor(scope: Platform, id: string, i: number) {
    super(scope, id, id);
    this.addNamespace();
    const def = widget(i);
    this.addCrd(def);
    new Controller(this, 'Controller', {
      name: `${id}-controller`,
      image: this.image('manager'),
      selectorLabels: { 'app.kubernetes.io/name': id },
      owns: [def],
    });
    new ApiObject(this, 'Sample', {
      apiVersion: `${def.group}/v1`,
      kind: def.kind,
      metadata: { name: 'sample', namespace: id },
      spec: { size: 3, color: 'red', labels: { team: 'a' }, template: { spec: { containers: [{ name: 'main', image: 'example.com/app:v1' }] } } },
    });
  }
}

/** A platform of `count` synthetic components. */
export class ComponentsPlatform extends Platform {
  constructor(scope: Construct, id: string, count: number) {
    super(scope, id, { name: 'components' });
    for (let i = 0; i < count; i++) new Synthetic(this, `component-${String(i).padStart(3, '0')}`, i);
  }
}
