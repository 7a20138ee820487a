// Synthetic platforms for the scaling sweep of `npm run bench` (scripts/bench.ts): sizes
// that grow by one knob, built from the same framework as the real platforms, so that the
// time and memory per object can be read off as they grow.
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ContributorRole, ProfileController } from '../constructs/profile-controller';
import { Component } from '../lib/component';
import { Controller } from '../lib/controller';
import { CrdDefinition, CrdScope } from '../lib/crd';
import { ImageSpec } from '../lib/images';
import { Platform } from '../lib/platform';
import { ISTIO } from '../lib/prerequisites';
import { core } from '../lib/schema/core';
import { s } from '../lib/schema/dsl';

/**
 * A Kubeflow profile controller with `count` typed tenants (`addTenant`): each a Profile
 * with its namespace, owner and contributor bindings, resource quota, network policy and
 * Istio authorization policy, as a multi-tenant platform declares them.
 */
export class TenantsPlatform extends Platform {
  constructor(scope: Construct, id: string, count: number) {
    super(scope, id, { name: 'tenants', prerequisites: [ISTIO] });
    const profiles = new ProfileController(this, 'profile-controller');
    for (let i = 0; i < count; i++) {
      const name = `tenant-${String(i).padStart(5, '0')}`;
      profiles.addTenant({
        name,
        owner: `owner-${i}@example.com`,
        quota: { 'cpu': '8', 'memory': '32Gi', 'requests.nvidia.com/gpu': 1 },
        contributors: [{ user: `member-${i}@example.com`, role: ContributorRole.EDIT }],
      });
    }
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
