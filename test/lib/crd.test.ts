import { ApiObject, App, Chart, IResolver, JsonPatch, Lazy, ResolutionContext } from 'cdk8s';
import { dataDifference, widgetDef } from './support';
import { ConversionWebhookTarget, CrdDefinition, crdName, CrdScope, CustomResourceDefinition, objectJson, PrinterColumns, rootSchema, storageVersion, validateDefinition } from '../../lib/crd';
import { s } from '../../lib/schema/dsl';
import { isSharedJson } from '../../lib/subtree-sharing';

function chart(): Chart {
  return new Chart(new App(), 'c');
}

function render(def: CrdDefinition, conversionWebhook?: ConversionWebhookTarget): any {
  const c = chart();
  new CustomResourceDefinition(c, 'Widget', { definition: def, conversionWebhook });
  const objs = c.toJson();
  expect(objs).toHaveLength(1);
  return objs[0];
}

const V1 = s.object({ spec: s.object({ size: s.integer() }) });
const V2 = s.object({ spec: s.object({ replicas: s.integer() }) });

const TARGET: ConversionWebhookTarget = {
  serviceName: 'widget-webhook',
  serviceNamespace: 'widget-system',
  port: 443,
  annotations: { 'cert-manager.io/inject-ca-from': 'widget-system/widget-webhook-cert' },
};

const twoVersions = (conversion?: CrdDefinition['conversion']): CrdDefinition =>
  widgetDef({
    versions: [
      { name: 'v1beta1', storage: false, schema: V1, deprecated: true, deprecationWarning: 'use v1' },
      { name: 'v1', storage: true, schema: V2 },
    ],
    conversion,
  });

describe('CustomResourceDefinition rendering', () => {
  test('names, with listKind and singular defaults', () => {
    const crd = render(widgetDef());
    expect(crd.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(crd.kind).toBe('CustomResourceDefinition');
    expect(crd.metadata.name).toBe('widgets.example.com');
    expect(crd.spec.group).toBe('example.com');
    expect(crd.spec.names).toEqual({ kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' });
    expect(crd.spec.scope).toBe('Namespaced');
  });

  test('explicit singular, listKind, shortNames, categories, annotations and cluster scope', () => {
    const crd = render(
      widgetDef({
        singular: 'wdg',
        listKind: 'WidgetCollection',
        shortNames: ['wd'],
        categories: ['all', 'ml'],
        scope: CrdScope.CLUSTER,
        annotations: { 'api-approved.kubernetes.io': 'unapproved' },
      }),
    );
    expect(crd.spec.names).toEqual({ kind: 'Widget', listKind: 'WidgetCollection', plural: 'widgets', singular: 'wdg', shortNames: ['wd'], categories: ['all', 'ml'] });
    expect(crd.spec.scope).toBe('Cluster');
    expect(crd.metadata.annotations).toEqual({ 'api-approved.kubernetes.io': 'unapproved' });
  });

  test('empty shortNames and categories are left out', () => {
    const crd = render(widgetDef({ shortNames: [], categories: [] }));
    expect(crd.spec.names.shortNames).toBeUndefined();
    expect(crd.spec.names.categories).toBeUndefined();
  });

  test('versions: served defaults to true, storage, deprecation', () => {
    const crd = render(twoVersions({ strategy: 'Webhook' }), TARGET);
    expect(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage, v.deprecated, v.deprecationWarning])).toEqual([
      ['v1beta1', true, false, true, 'use v1'],
      ['v1', true, true, undefined, undefined],
    ]);
  });

  test('a version with served: false is rendered as not served', () => {
    const def = widgetDef({
      versions: [
        { name: 'v1alpha1', storage: false, served: false, schema: V1 },
        { name: 'v1', storage: true, schema: V1 },
      ],
    });
    expect(render(def).spec.versions.map((v: any) => v.served)).toEqual([false, true]);
  });

  test('printer columns, keeping only the fields that are set', () => {
    const def = widgetDef({
      versions: [
        {
          name: 'v1',
          storage: true,
          schema: V1,
          printerColumns: [
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'age', priority: 1 },
          ],
        },
      ],
    });
    expect(render(def).spec.versions[0].additionalPrinterColumns).toEqual([
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'age', priority: 1 },
    ]);
  });

  test('subresources: status and scale', () => {
    const def = widgetDef({
      versions: [
        {
          name: 'v1',
          storage: true,
          schema: V1,
          subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        },
      ],
    });
    expect(render(def).spec.versions[0].subresources).toEqual({
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    });
  });

  test('no subresources and no printer columns when none are declared', () => {
    const v = render(widgetDef({ versions: [{ name: 'v1', storage: true, schema: V1 }] })).spec.versions[0];
    expect(v.subresources).toBeUndefined();
    expect(v.additionalPrinterColumns).toBeUndefined();
  });

  test('no conversion stanza with strategy None', () => {
    expect(render(widgetDef()).spec.conversion).toBeUndefined();
  });

  test('conversion stanza and CA annotation when a conversion webhook is wired', () => {
    const crd = render(twoVersions({ strategy: 'Webhook' }), TARGET);
    expect(crd.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { name: 'widget-webhook', namespace: 'widget-system', path: '/convert', port: 443 } },
        conversionReviewVersions: ['v1'],
      },
    });
    expect(crd.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'widget-system/widget-webhook-cert' });
  });

  test('conversion path, review versions and caBundle are taken from the definition and target', () => {
    const c = chart();
    const crd = new CustomResourceDefinition(c, 'Widget', {
      definition: { ...twoVersions({ strategy: 'Webhook', path: '/convert-widgets', conversionReviewVersions: ['v1', 'v1beta1'] }), annotations: { a: 'b' } },
    });
    // Wired after construction, as a component does when it creates the server later.
    crd.useConversionWebhook({ ...TARGET, caBundle: 'Q0E=', annotations: { 'service.beta.openshift.io/inject-cabundle': 'true' } });
    const json = c.toJson()[0];
    expect(json.spec.conversion.webhook).toEqual({
      clientConfig: { service: { name: 'widget-webhook', namespace: 'widget-system', path: '/convert-widgets', port: 443 }, caBundle: 'Q0E=' },
      conversionReviewVersions: ['v1', 'v1beta1'],
    });
    expect(json.metadata.annotations).toEqual({ 'a': 'b', 'service.beta.openshift.io/inject-cabundle': 'true' });
    expect(crd.node.validate()).toEqual([]);
  });

  test('the root schema has apiVersion, kind and metadata next to the version fields', () => {
    const c = chart();
    const crd = new CustomResourceDefinition(c, 'Widget', { definition: widgetDef() });
    const schema = c.toJson()[0].spec.versions[0].schema.openAPIV3Schema;
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(schema.properties.apiVersion).toEqual({ type: 'string' });
    expect(schema.properties.kind).toEqual({ type: 'string' });
    expect(schema.properties.metadata).toEqual({ type: 'object' });
    expect(schema.required).toEqual(['spec']);
    expect(schema.properties.spec.properties.size).toEqual({ type: 'integer', minimum: 1 });
    expect(crd.schemaOf('v1')).toEqual(schema);
    expect(rootSchema(widgetDef().versions[0].schema).toJson()).toEqual(schema);
  });

  test('CEL rules on a version schema stay on the root, where metadata.name is visible', () => {
    const schema = s.object({ spec: s.object({ size: s.integer() }) }).rule("self.metadata.name == 'default'", 'only default');
    const root = render(widgetDef({ versions: [{ name: 'v1', storage: true, schema }] })).spec.versions[0].schema.openAPIV3Schema;
    expect(root['x-kubernetes-validations']).toEqual([{ rule: "self.metadata.name == 'default'", message: 'only default' }]);
    expect(Object.keys(root.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(render(widgetDef()).spec.versions[0].schema.openAPIV3Schema['x-kubernetes-validations']).toBeUndefined();
  });

  test('whole-object CEL rules of a version schema are kept on the root schema', () => {
    const schema = s.object({ spec: s.object({ size: s.integer() }) })
      .rule('!has(oldSelf.spec) || self.spec == oldSelf.spec', 'spec is immutable')
      .rule('has(self.spec)', 'spec is required', { reason: 'FieldValueRequired' });
    const def = widgetDef({ versions: [{ name: 'v1', storage: true, schema }] });
    expect(render(def).spec.versions[0].schema.openAPIV3Schema['x-kubernetes-validations']).toEqual([
      { rule: '!has(oldSelf.spec) || self.spec == oldSelf.spec', message: 'spec is immutable' },
      { rule: 'has(self.spec)', message: 'spec is required', reason: 'FieldValueRequired' },
    ]);
  });

  test('name, storage version and helpers', () => {
    const c = chart();
    const crd = new CustomResourceDefinition(c, 'Widget', { definition: twoVersions({ strategy: 'Webhook' }), conversionWebhook: TARGET });
    expect(crd.name).toBe('widgets.example.com');
    expect(crdName({ plural: 'gadgets', group: 'example.org' })).toBe('gadgets.example.org');
    expect(storageVersion(crd.definition).name).toBe('v1');
  });

  test('fails when schemaOf asks for a version the CRD does not have', () => {
    const crd = new CustomResourceDefinition(chart(), 'Widget', { definition: widgetDef() });
    expect(() => crd.schemaOf('v2')).toThrow('CRD widgets.example.com has no version v2');
  });
});

describe('CustomResourceDefinition validation', () => {
  const fails = (def: CrdDefinition) => () => new CustomResourceDefinition(chart(), 'Widget', { definition: def });

  test('fails when two versions are storage versions', () => {
    const def = widgetDef({ versions: [{ name: 'v1', storage: true, schema: V1 }, { name: 'v2', storage: true, schema: V1 }] });
    expect(fails(def)).toThrow('c/Widget: CRD widgets.example.com: exactly one version must have storage: true (got 2: v1, v2)');
  });

  test('fails when no version is the storage version', () => {
    const def = widgetDef({ versions: [{ name: 'v1', storage: false, schema: V1 }] });
    expect(fails(def)).toThrow('c/Widget: CRD widgets.example.com: exactly one version must have storage: true (got 0: none)');
  });

  test('fails when the kind is not UpperCamelCase', () => {
    expect(fails(widgetDef({ kind: 'widget' }))).toThrow("c/Widget: CRD widgets.example.com: kind 'widget' must be UpperCamelCase");
    expect(fails(widgetDef({ kind: 'My-Widget' }))).toThrow("c/Widget: CRD widgets.example.com: kind 'My-Widget' must be UpperCamelCase");
  });

  test('fails when the plural is not a lower-case DNS label', () => {
    expect(fails(widgetDef({ plural: 'Widgets' }))).toThrow("c/Widget: CRD Widgets.example.com: plural 'Widgets' must be a lower-case DNS label");
    expect(fails(widgetDef({ plural: 'wid.gets' }))).toThrow("c/Widget: CRD wid.gets.example.com: plural 'wid.gets' must be a lower-case DNS label");
  });

  test('fails when the group has no dot', () => {
    expect(fails(widgetDef({ group: 'example' }))).toThrow("c/Widget: CRD widgets.example: group 'example' must be a domain name with a dot, e.g. example.com");
  });

  test('fails when a version is listed twice', () => {
    const def = widgetDef({ versions: [{ name: 'v1', storage: true, schema: V1 }, { name: 'v1', storage: false, schema: V1 }] });
    expect(fails(def)).toThrow("c/Widget: CRD widgets.example.com: version 'v1' is listed twice");
  });

  test('fails when a version name is not a Kubernetes version', () => {
    for (const name of ['1', 'v1.0', 'version1', 'v1gamma1', 'V1']) {
      const def = widgetDef({ versions: [{ name, storage: true, schema: V1 }] });
      expect(fails(def)).toThrow(`c/Widget: CRD widgets.example.com: version name '${name}' is not a Kubernetes version (v1, v1beta1, v2alpha3...)`);
    }
  });

  test('fails when no version is served', () => {
    const def = widgetDef({ versions: [{ name: 'v1', storage: true, served: false, schema: V1 }] });
    expect(fails(def)).toThrow('c/Widget: CRD widgets.example.com: no version is served');
  });

  test('fails when versions have different schemas and conversion is None', () => {
    const message = 'c/Widget: CRD widgets.example.com: versions have different schemas but conversion is None: declare conversion { strategy: "Webhook" }, or give all versions the same schema, or state conversion.schemasDifferBecause';
    expect(fails(twoVersions())).toThrow(message);
    expect(fails(twoVersions({ strategy: 'None' }))).toThrow(message);
  });

  test('versions may differ with conversion None when the definition says why', () => {
    expect(fails(twoVersions({ strategy: 'None', schemasDifferBecause: 'the old version is deprecated and read-only in practice' }))).not.toThrow();
  });

  test('fails when schemasDifferBecause is empty or used with a conversion webhook', () => {
    const message = 'c/Widget: CRD widgets.example.com: conversion.schemasDifferBecause applies to strategy None only and must give a reason; remove it or state why the versions may differ';
    expect(fails(twoVersions({ strategy: 'None', schemasDifferBecause: ' ' }))).toThrow(message);
    expect(fails(twoVersions({ strategy: 'Webhook', schemasDifferBecause: 'because' }))).toThrow(message);
  });

  test('versions with the same schema need no conversion', () => {
    const def = widgetDef({ versions: [{ name: 'v1beta1', storage: false, schema: V1 }, { name: 'v1', storage: true, schema: V1 }] });
    expect(fails(def)).not.toThrow();
  });

  test('validateDefinition reports the path it is given', () => {
    expect(() => validateDefinition('somewhere', widgetDef({ kind: 'x' }))).toThrow("somewhere: CRD widgets.example.com: kind 'x' must be UpperCamelCase");
  });

  test('fails when conversion is Webhook but no conversion webhook is wired (node validation)', () => {
    const c = chart();
    const crd = new CustomResourceDefinition(c, 'Widget', { definition: twoVersions({ strategy: 'Webhook' }) });
    expect(crd.node.validate()).toEqual([
      'CRD widgets.example.com declares conversion strategy Webhook but no conversion webhook server is wired: pass conversionWebhook (a WebhookServer\'s conversionTarget())',
    ]);
    // cdk8s runs the validation when the chart is synthesized.
    expect(() => c.toJson()).toThrow(/\[c\/Widget\] CRD widgets\.example\.com declares conversion strategy Webhook but no conversion webhook server is wired/);
    crd.useConversionWebhook(TARGET);
    expect(crd.node.validate()).toEqual([]);
  });

  test('fails when useConversionWebhook is called on a CRD with conversion None', () => {
    const crd = new CustomResourceDefinition(chart(), 'Widget', { definition: widgetDef() });
    expect(() => crd.useConversionWebhook(TARGET)).toThrow(
      'c/Widget: CRD widgets.example.com has conversion strategy None; a conversion webhook applies only to strategy Webhook',
    );
    expect(() => new CustomResourceDefinition(chart(), 'Widget', { definition: widgetDef({ conversion: { strategy: 'None' } }), conversionWebhook: TARGET })).toThrow(
      'c/Widget: CRD widgets.example.com has conversion strategy None; a conversion webhook applies only to strategy Webhook',
    );
  });
});

describe('rootSchema', () => {
  test('keeps rules on the whole object (e.g. on metadata.name) at the root, after apiVersion, kind and metadata', () => {
    const schema = s.object({ spec: s.object({ a: s.string() }) }).rule('size(self.metadata.name) <= 63', 'name too long');
    const root = rootSchema(schema).toJson();
    expect(root['x-kubernetes-validations']).toEqual([{ rule: 'size(self.metadata.name) <= 63', message: 'name too long' }]);
    expect(Object.keys(root.properties!)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  test('a schema without rules gives a root without rules', () => {
    expect(rootSchema(s.object({ spec: s.object() })).toJson()['x-kubernetes-validations']).toBeUndefined();
  });
});

describe('schema rendering is shared per node', () => {
  const pod = s.object({ name: s.string().required(), labels: s.stringMap() }).describe('a pod');

  test('toJson gives a fresh tree each time: changing one changes neither the node nor other renderings', () => {
    const first = s.object({ a: pod, b: s.array(pod) }).toJson();
    (first.properties!.a as any).description = 'changed';
    (first.properties!.a.properties!.name as any).type = 'integer';
    const second = s.object({ a: pod, b: s.array(pod) }).toJson();
    expect(second.properties!.a.description).toBe('a pod');
    expect(second.properties!.a.properties!.name.type).toBe('string');
    expect(second.properties!.b.items).toEqual(second.properties!.a);
    expect(second.properties!.b.items).not.toBe(second.properties!.a);
  });

  test('a node renders once; a modified copy renders its own changes', () => {
    expect(pod.toSharedJson()).toBe(pod.toSharedJson());
    const copy = pod.describe('another pod').nullable();
    expect(copy.toSharedJson()).not.toBe(pod.toSharedJson());
    expect(copy.toJson()).toMatchObject({ description: 'another pod', nullable: true });
    expect(pod.toJson().nullable).toBeUndefined();
  });

  test('a CRD that embeds one schema in several places holds one frozen, shared copy of it, as does every other CRD', () => {
    const c = chart();
    const def = widgetDef({ versions: [{ name: 'v1', served: true, storage: true, schema: s.object({ spec: s.object({ a: pod, b: pod }) }) }] });
    const json = new CustomResourceDefinition(c, 'W', { definition: def }).apiObject.toJson();
    const spec = json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    expect(spec.a).toEqual(pod.toJson());
    expect(spec.a).toBe(spec.b);
    expect(spec.a).not.toBe(pod.toSharedJson());
    expect(isSharedJson(spec.a)).toBe(true);
    // Frozen to the leaves: a change to one place would change every CRD that holds it.
    expect(() => { spec.a.description = 'changed'; }).toThrow(TypeError);
    expect(() => { spec.a.required.push('labels'); }).toThrow(TypeError);
    expect(() => { spec.a.properties.name.type = 'integer'; }).toThrow(TypeError);
    expect(Object.isFrozen(pod.toSharedJson())).toBe(false);
    // Another CRD embedding the same node holds the same copy; the object around it can still change.
    const other = new CustomResourceDefinition(c, 'O', { definition: widgetDef({ plural: 'others', kind: 'Other', versions: [{ name: 'v1', served: true, storage: true, schema: s.object({ spec: s.object({ c: pod }) }) }] }) }).apiObject.toJson();
    expect(other.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.c).toBe(spec.a);
    expect(isSharedJson(other.metadata)).toBe(false);
    other.metadata.labels = { changed: 'yes' };
    expect(Object.isFrozen(other.spec.versions[0])).toBe(false);
  });
});

// A CRD's ApiObject writes its JSON in one copy where it can (plain data, cdk8s's own
// resolvers); it must be what cdk8s's toJson gives, byte for byte, and cdk8s's toJson must
// decide everything else. test/lib/yaml-writer.test.ts compares both on every CRD of every
// default platform.
describe('CustomResourceDefinition JSON', () => {
  /** What cdk8s's own ApiObject.toJson gives for the same object. */
  const cdk8sJson = (o: ApiObject) => ApiObject.prototype.toJson.call(o);
  /** Equal data, key order, undefined values and holes included. */
  const same = (a: unknown, b: unknown) => expect(dataDifference(a, b)).toBeUndefined();
  const crdOf = (def: CrdDefinition, app = new App()) =>
    new CustomResourceDefinition(new Chart(app, 'c'), 'Widget', { definition: def, conversionWebhook: def.conversion?.strategy === 'Webhook' ? TARGET : undefined });

  test('is cdk8s\'s JSON: sorted keys, apiVersion, kind and metadata first, no null or undefined values, annotations and conversion', () => {
    const def = twoVersions({ strategy: 'Webhook' });
    const crd = crdOf({ ...def, annotations: { b: '2', a: '1' }, shortNames: ['w'], versions: def.versions.map((v) => ({ ...v, printerColumns: [PrinterColumns.ready(), PrinterColumns.age()] })) });
    const json = crd.apiObject.toJson();
    same(json, cdk8sJson(crd.apiObject));
    expect(Object.keys(json)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(Object.keys(json.metadata.annotations)).toEqual(['a', 'b', 'cert-manager.io/inject-ca-from']);
    expect(Object.keys(json.spec)).toEqual(['conversion', 'group', 'names', 'scope', 'versions']);
  });

  test('a default that holds a Lazy is resolved as cdk8s resolves it', () => {
    const crd = crdOf(widgetDef({ versions: [{ name: 'v1', storage: true, schema: s.object({ spec: s.object({ size: s.integer().default(Lazy.any({ produce: () => 3 })) }) }) }] }));
    const json = crd.apiObject.toJson();
    same(json, cdk8sJson(crd.apiObject));
    expect(json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.default).toBe(3);
  });

  test('a default with a null inside a list and in an object is written as cdk8s writes it', () => {
    const crd = crdOf(widgetDef({ versions: [{ name: 'v1', storage: true, schema: s.object({ spec: s.object({ x: s.object().default({ list: [1, null, 'a'], gone: null }) }) }) }] }));
    const json = crd.apiObject.toJson();
    same(json, cdk8sJson(crd.apiObject));
    expect(json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.x.default).toStrictEqual({ list: [1, undefined, 'a'] });
  });

  test('an app\'s own resolver sees the CRD\'s values', () => {
    class Upper implements IResolver {
      public resolve(context: ResolutionContext): void {
        if (context.value === 'widgets') context.replaceValue('WIDGETS');
      }
    }
    const crd = crdOf(widgetDef(), new App({ resolvers: [new Upper()] }));
    const json = crd.apiObject.toJson();
    expect(json.spec.names.plural).toBe('WIDGETS');
    same(json, cdk8sJson(crd.apiObject));
  });

  test('JSON patches of the CRD object are applied', () => {
    const crd = crdOf(widgetDef());
    crd.apiObject.addJsonPatch(JsonPatch.add('/spec/names/shortNames', ['wd']));
    expect(crd.apiObject.toJson().spec.names.shortNames).toEqual(['wd']);
    same(crd.apiObject.toJson(), cdk8sJson(crd.apiObject));
  });

  test('CDK8S_DISABLE_SORT keeps the keys in the order given, as cdk8s does', () => {
    const crd = crdOf(widgetDef());
    const before = process.env.CDK8S_DISABLE_SORT;
    process.env.CDK8S_DISABLE_SORT = '1';
    try {
      const json = crd.apiObject.toJson();
      same(json, cdk8sJson(crd.apiObject));
      expect(Object.keys(json.spec)).toEqual(['group', 'names', 'scope', 'versions']);
      expect(Object.keys(json.spec.names)).toEqual(['kind', 'listKind', 'plural', 'singular']);
    } finally {
      if (before === undefined) delete process.env.CDK8S_DISABLE_SORT;
      else process.env.CDK8S_DISABLE_SORT = before;
    }
  });

  test('values that are not plain data, and a field named constructor, get cdk8s\'s own handling (its error included)', () => {
    class Box {
      constructor(public readonly value: number) {}
    }
    const boxed = crdOf(widgetDef({ versions: [{ name: 'v1', storage: true, schema: s.object({ spec: s.object({ n: s.integer().default(new Box(2)) }) }) }] }));
    same(boxed.apiObject.toJson(), cdk8sJson(boxed.apiObject));
    expect(boxed.apiObject.toJson().spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.n.default).toEqual({ value: 2 });
    const named = crdOf(widgetDef({ versions: [{ name: 'v1', storage: true, schema: s.object({ spec: s.object({ constructor: s.string() }) }) }] }));
    let expected: unknown;
    try {
      expected = cdk8sJson(named.apiObject);
    } catch (e) {
      expected = e;
    }
    if (expected instanceof Error) expect(() => named.apiObject.toJson()).toThrow(expected.message);
    else same(named.apiObject.toJson(), expected);
  });

  test('an error while rendering names the CRD object, as cdk8s does', () => {
    const crd = crdOf(widgetDef({ versions: [{ name: 'v1', storage: true, schema: s.object({ spec: s.object({ n: s.integer().default(Lazy.any({ produce: () => { throw new Error('no value'); } })) }) }) }] }));
    expect(() => crd.apiObject.toJson()).toThrow(/^Failed serializing construct at path 'c\/Widget\/Resource' with name 'widgets.example.com': Error: no value$/);
    expect(() => cdk8sJson(crd.apiObject)).toThrow(/^Failed serializing construct at path 'c\/Widget\/Resource' with name 'widgets.example.com': Error: no value$/);
  });
});

// The synth's path (lib/platform.ts) writes a plain ApiObject's JSON in one copy too
// (objectJson); it must be what the object's toJson gives, and toJson decides everything else.
describe('objectJson', () => {
  const same = (a: unknown, b: unknown) => expect(dataDifference(a, b)).toBeUndefined();
  const objectOf = (props: Record<string, unknown>, app = new App()) =>
    new ApiObject(new Chart(app, 'c', { labels: { team: 'x' } }), 'O', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o', namespace: 'ns', annotations: { b: '2', a: '1' } }, ...props });

  test('OBJECT-JSON-PLAIN: sorted keys, apiVersion, kind and metadata first, null and undefined dropped from objects, undefined for null in lists; a fresh, unfrozen copy', () => {
    const shared = s.object({ a: s.string() }).toSharedJson();
    const o = objectOf({ data: { z: '1', a: null, m: undefined, list: [1, null, 'a', { y: 2, x: undefined }] }, schema: shared, empty: {}, none: [] });
    const json = objectJson(o);
    same(json, o.toJson());
    expect(Object.keys(json)).toEqual(['apiVersion', 'kind', 'metadata', 'data', 'empty', 'none', 'schema']);
    expect(json.data).toStrictEqual({ list: [1, undefined, 'a', { y: 2 }], z: '1' });
    expect(Object.isFrozen(json.schema) || isSharedJson(json.schema)).toBe(false);
    expect(objectJson(o)).not.toBe(json);
  });

  test('OBJECT-JSON-FALLBACK: a Lazy, a value of a class, an app\'s own resolver, a JSON patch, CDK8S_DISABLE_SORT and a subclass get the object\'s own toJson', () => {
    class Box {
      constructor(public readonly value: number) {}
    }
    class Upper implements IResolver {
      public resolve(context: ResolutionContext): void {
        if (context.value === 'v') context.replaceValue('V');
      }
    }
    const cases: ApiObject[] = [
      objectOf({ data: { n: Lazy.any({ produce: () => ({ b: 1, a: null }) }) } }),
      objectOf({ data: { n: new Box(2) } }),
      objectOf({ data: { k: 'v' } }, new App({ resolvers: [new Upper()] })),
    ];
    const patched = objectOf({ data: { k: 'v' } });
    patched.addJsonPatch(JsonPatch.add('/data/p', 'q'));
    cases.push(patched);
    class Own extends ApiObject {
      public toJson(): any {
        return { own: true };
      }
    }
    cases.push(new Own(new Chart(new App(), 'c'), 'O', { apiVersion: 'v1', kind: 'ConfigMap' }));
    for (const o of cases) same(objectJson(o), o.toJson());
    expect(objectJson(cases[2]).data.k).toBe('V');
    expect(objectJson(patched).data.p).toBe('q');
    expect(objectJson(cases[4])).toEqual({ own: true });
    const before = process.env.CDK8S_DISABLE_SORT;
    process.env.CDK8S_DISABLE_SORT = '1';
    try {
      const o = objectOf({ data: { z: '1', a: '2' } });
      same(objectJson(o), o.toJson());
      expect(Object.keys(objectJson(o).data)).toEqual(['z', 'a']);
    } finally {
      if (before === undefined) delete process.env.CDK8S_DISABLE_SORT;
      else process.env.CDK8S_DISABLE_SORT = before;
    }
  });
});
