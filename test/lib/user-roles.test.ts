import { App, Chart } from 'cdk8s';
import { CrdDefinition, CrdScope } from '../../lib/crd';
import { s } from '../../lib/schema/dsl';
import { UserRoles } from '../../lib/user-roles';

const widget: CrdDefinition = {
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1', storage: true, schema: s.object({ spec: s.object() }) }],
};

function chart(): Chart {
  return new Chart(new App({ outdir: '/nonexistent' }), 'c');
}

describe('UserRoles', () => {
  test('emits an editor and a viewer ClusterRole per kind, without aggregation by default', () => {
    const c = chart();
    const roles = new UserRoles(c, 'Roles', { crds: [widget] });
    expect(roles.roleNames).toEqual(['widget-editor-role', 'widget-viewer-role']);
    const out = c.toJson();
    expect(out.map((o: any) => o.metadata.name)).toEqual(['widget-editor-role', 'widget-viewer-role']);
    expect(out[0].metadata.labels).toBeUndefined();
    expect(out[0].rules).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
      { apiGroups: ['example.com'], resources: ['widgets/status'], verbs: ['get'] },
    ]);
    expect(out[1].rules).toContainEqual({ apiGroups: ['example.com'], resources: ['widgets/status'], verbs: ['get'] });
  });

  test('aggregates into edit and view when asked', () => {
    const c = chart();
    new UserRoles(c, 'Roles', { crds: [widget], aggregate: true });
    const [editor, viewer] = c.toJson();
    expect(editor.metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(viewer.metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
  });

  test('fails when no CRD is given', () => {
    expect(() => new UserRoles(chart(), 'Roles', { crds: [] })).toThrow('c/Roles: crds is empty; pass the CRDs users get roles for');
  });
});
