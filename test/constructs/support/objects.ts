import { allows, PolicyRule } from '../../../lib/rbac';
import { PlatformBuild } from '../../../lib/synth';

/** Accessors over a built platform's objects. */
export function objectsOf(b: PlatformBuild, component?: string) {
  const objects = b.model.objects.filter((o) => !component || o.component.componentName === component).map((o) => o.json);
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => {
    const o = objects.find((x) => x.kind === kind && x.metadata?.name === name);
    if (!o) throw new Error(`no ${kind} ${name} (have ${ofKind(kind).map((x) => x.metadata?.name).join(', ')})`);
    return o;
  };
  const container = (deployment: string) => named('Deployment', deployment).spec.template.spec.containers[0];
  /** Whether the named ClusterRole (or Role) allows verb on group/resource (optionally one named object). */
  const can = (kind: 'ClusterRole' | 'Role', role: string, group: string, resource: string, verb: string, name?: string) =>
    allows(named(kind, role).rules as PolicyRule[], group, resource, verb, name);
  return { objects, ofKind, named, container, can };
}
