import { applyKnownUnchanged, jsonEqual } from '../../../lib/cluster/unchanged';

type Json = Record<string, any>;
const M = 'mlplatform-serving';

/** A Deployment as applied, and as the server keeps it after apply's server-side apply: defaults, status, managedFields. */
const applied: Json = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'ctl', namespace: 'ns', labels: { 'app': 'ctl', 'applyset.kubernetes.io/part-of': 'x' } },
  spec: {
    selector: { matchLabels: { app: 'ctl' } },
    template: {
      metadata: { labels: { app: 'ctl' } },
      spec: { containers: [{ name: 'manager', image: 'example.com/ctl:v1', args: ['--a', '--b'], ports: [{ containerPort: 9443, protocol: 'TCP' }] }] },
    },
  },
};
const fields: Json = {
  'f:metadata': { 'f:labels': { 'f:app': {}, 'f:applyset.kubernetes.io/part-of': {} } },
  'f:spec': {
    'f:selector': {},
    'f:template': {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"manager"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":9443,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } } } } },
    },
  },
};
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

function liveOf(a: Json, f: Json, extra: Json[] = []): Json {
  const live = clone(a);
  live.metadata.uid = 'u';
  live.metadata.resourceVersion = '7';
  live.metadata.managedFields = [{ manager: M, operation: 'Apply', apiVersion: a.apiVersion, fieldsType: 'FieldsV1', fieldsV1: f }, ...extra];
  live.spec.replicas = 1;
  live.spec.template.spec.containers[0].terminationMessagePath = '/dev/termination-log';
  live.status = { replicas: 1 };
  return live;
}

describe('applyKnownUnchanged: a server-side apply known to change nothing, without a dry run', () => {
  test('the fields apply owns, each as applied (server defaults, status and other managers\' fields aside): unchanged', () => {
    const status = { manager: 'kube-controller-manager', operation: 'Update', subresource: 'status', apiVersion: 'apps/v1', fieldsV1: { 'f:status': { 'f:replicas': {} } } };
    const scaler = { manager: 'hpa', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:x': {} } } } };
    const live = liveOf(applied, fields, [status, scaler]);
    live.metadata.annotations = { x: 'y' };
    expect(applyKnownUnchanged(live, applied, M)).toBe(true);
  });

  test('a value another manager changed, a field left out of the output, a field added to it: not known unchanged', () => {
    const edited = liveOf(applied, fields);
    edited.spec.template.spec.containers[0].image = 'example.com/ctl:v2';
    expect(applyKnownUnchanged(edited, applied, M)).toBe(false);

    const fewer = clone(applied);
    delete fewer.spec.template.spec.containers[0].args;
    expect(applyKnownUnchanged(liveOf(applied, fields), fewer, M)).toBe(false);

    const more = clone(applied);
    more.metadata.labels.tier = 'web';
    expect(applyKnownUnchanged(liveOf(applied, fields), more, M)).toBe(false);
    // The same value set by someone else (a field apply does not own yet): the apply would take it.
    const shared = liveOf(applied, fields);
    shared.metadata.labels.tier = 'web';
    expect(applyKnownUnchanged(shared, more, M)).toBe(false);
  });

  test('an atomic field (owned whole) must equal the output, not merely contain it', () => {
    const args = clone(applied);
    args.spec.template.spec.containers[0].args = ['--a'];
    expect(applyKnownUnchanged(liveOf(applied, fields), args, M)).toBe(false);
    const selector = clone(applied);
    selector.spec.selector = { matchLabels: { app: 'ctl' }, matchExpressions: [] };
    expect(applyKnownUnchanged(liveOf(applied, fields), selector, M)).toBe(false);
  });

  test('a list key the server defaulted (the output does not set it): that member; a key field apply owns must be set', () => {
    const noProtocol = clone(applied);
    delete noProtocol.spec.template.spec.containers[0].ports[0].protocol;
    const f = clone(fields);
    const ports = { 'k:{"containerPort":9443,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } };
    f['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"manager"}']['f:ports'] = ports;
    expect(applyKnownUnchanged(liveOf(applied, f), noProtocol, M)).toBe(true);
    // Owned before (the output set it), left out now: the apply gives it up.
    expect(applyKnownUnchanged(liveOf(applied, fields), noProtocol, M)).toBe(false);
    // Two members the one without a protocol could be.
    const two = clone(noProtocol);
    two.spec.template.spec.containers[0].ports.push({ containerPort: 9443, protocol: 'UDP' });
    const twoLive = liveOf(applied, f);
    twoLive.spec.template.spec.containers[0].ports.push({ containerPort: 9443, protocol: 'UDP' });
    (f['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"manager"}']['f:ports'] as Record<string, object>)['k:{"containerPort":9443,"protocol":"UDP"}'] = { '.': {}, 'f:containerPort': {}, 'f:protocol': {} };
    expect(applyKnownUnchanged(twoLive, two, M)).toBe(true);
    const swapped = clone(two);
    swapped.spec.template.spec.containers[0].ports.reverse();
    expect(applyKnownUnchanged(twoLive, { ...swapped }, M)).toBe(true);
    const ambiguous = clone(two);
    delete ambiguous.spec.template.spec.containers[0].ports[1].protocol;
    expect(applyKnownUnchanged(twoLive, ambiguous, M)).toBe(false);
  });

  test('a map apply owned whole while empty, with fields another manager set inside it since: not known unchanged', () => {
    const empty = clone(applied);
    empty.metadata.annotations = {};
    const f = clone(fields);
    f['f:metadata']['f:annotations'] = {};
    const live = liveOf(empty, f, [{ manager: 'other', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:x': {} } } } }]);
    live.metadata.annotations = { x: 'y' };
    const filled = clone(applied);
    filled.metadata.annotations = { x: 'y' };
    expect(applyKnownUnchanged(live, filled, M)).toBe(false);
  });

  test('a set of scalars (v: entries) matches member by member', () => {
    const a: Json = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, spec: { finalizers: ['a', 'b'] } };
    const f = { 'f:spec': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } } };
    const live = (x: Json) => ({ ...clone(x), metadata: { ...x.metadata, managedFields: [{ manager: M, operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: f }] } });
    expect(applyKnownUnchanged(live(a), a, M)).toBe(true);
    expect(applyKnownUnchanged(live(a), { ...a, spec: { finalizers: ['a', 'c'] } }, M)).toBe(false);
    expect(applyKnownUnchanged(live(a), { ...a, spec: { finalizers: ['a', 'b', 'c'] } }, M)).toBe(false);
  });

  test('what it cannot read: no entry or two, another apiVersion, status in the output, another object: not known unchanged', () => {
    const none = liveOf(applied, fields);
    none.metadata.managedFields[0].manager = 'someone';
    expect(applyKnownUnchanged(none, applied, M)).toBe(false);
    const two = liveOf(applied, fields, [{ manager: M, operation: 'Apply', apiVersion: 'apps/v1beta2', fieldsV1: fields }]);
    expect(applyKnownUnchanged(two, applied, M)).toBe(false);
    const older = liveOf(applied, fields);
    older.metadata.managedFields[0].apiVersion = 'apps/v1beta2';
    expect(applyKnownUnchanged(older, applied, M)).toBe(false);
    expect(applyKnownUnchanged(liveOf(applied, fields), { ...applied, status: { replicas: 1 } }, M)).toBe(false);
    expect(applyKnownUnchanged(liveOf(applied, fields), { ...applied, metadata: { ...applied.metadata, name: 'other' } }, M)).toBe(false);
    // A field that is null in the output (a removal in a merge patch; the server is asked).
    const nulled = clone(applied);
    nulled.metadata.labels.app = null;
    expect(applyKnownUnchanged(liveOf(applied, fields), nulled, M)).toBe(false);
  });

  test('jsonEqual: key order aside, arrays in order, numbers and strings apart', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual({ a: undefined }, {})).toBe(false);
  });
});
