import { embeddedObjectMeta } from '../../../lib/schema/common';
import { core, coreInline, coreTypeEntry, coreTypeNames, plainCore } from '../../../lib/schema/core';
import { ArraySchema, ObjectSchema, QUANTITY_PATTERN, s } from '../../../lib/schema/dsl';
import { JSONSchemaProps } from '../../../lib/schema/types';

/** The rendered schema of a property path below a node (`a.b[].c`). */
function at(node: JSONSchemaProps, path: string): JSONSchemaProps {
  let cur: JSONSchemaProps = node;
  for (const part of path.split('.')) {
    const name = part.replace(/\[\]$/, '');
    const next = cur.properties?.[name];
    if (!next) throw new Error(`no property ${name} in ${path} (has ${Object.keys(cur.properties ?? {}).join(', ')})`);
    cur = part.endsWith('[]') ? next.items as JSONSchemaProps : next;
  }
  return cur;
}

function expectQuantity(node: JSONSchemaProps | undefined): void {
  expect(node).toEqual({ 'anyOf': [{ type: 'integer' }, { type: 'string' }], 'pattern': QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true });
}

describe('core()', () => {
  const container = core('V1Container').toJson();

  test('container ports are a list map keyed by containerPort and protocol, protocol defaults to TCP', () => {
    const ports = at(container, 'ports');
    expect(ports['x-kubernetes-list-type']).toBe('map');
    expect(ports['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    const port = ports.items as JSONSchemaProps;
    expect(port.required).toEqual(['containerPort']);
    expect(port.properties!.protocol).toEqual({ type: 'string', default: 'TCP' });
  });

  test('resource limits and requests are maps of quantities', () => {
    expectQuantity(at(container, 'resources.limits').additionalProperties as JSONSchemaProps);
    expectQuantity(at(container, 'resources.requests').additionalProperties as JSONSchemaProps);
  });

  test('resource claims are a list map keyed by name', () => {
    const claims = at(container, 'resources.claims');
    expect(claims['x-kubernetes-list-type']).toBe('map');
    expect(claims['x-kubernetes-list-map-keys']).toEqual(['name']);
    expect((claims.items as JSONSchemaProps).required).toEqual(['name']);
  });

  test('HPA scaling rules: tolerance is a quantity, policies are atomic', () => {
    const rules = core('V2HPAScalingRules').toJson();
    expectQuantity(rules.properties!.tolerance);
    expect(rules.properties!.policies['x-kubernetes-list-type']).toBe('atomic');
  });

  test('LocalObjectReference is atomic and its name defaults to ""', () => {
    expect(core('V1LocalObjectReference').toJson()).toEqual({
      'type': 'object',
      'properties': { name: { type: 'string', default: '' } },
      'x-kubernetes-map-type': 'atomic',
    });
    const pullSecrets = core('V1PodSpec').toJson().properties!.imagePullSecrets;
    expect((pullSecrets.items as JSONSchemaProps)['x-kubernetes-map-type']).toBe('atomic');
  });

  test('key selectors and typed references are atomic', () => {
    for (const name of ['V1ConfigMapKeySelector', 'V1SecretKeySelector', 'V1TypedLocalObjectReference', 'V1ObjectReference', 'V1LabelSelector']) {
      expect(core(name).toJson()['x-kubernetes-map-type']).toBe('atomic');
    }
    expect(at(container, 'env[].valueFrom.secretKeyRef.name').default).toBe('');
    expect(at(container, 'envFrom[].configMapRef')['x-kubernetes-map-type']).toBe('atomic');
  });

  test('core() marks the object with its core type', () => {
    expect(core('V1PodSpec').options.coreType).toBe('V1PodSpec');
    expect(core('V1PodSpec').typeName).toBe('V1PodSpec');
  });

  test('an unknown name fails with the exact message', () => {
    expect(() => core('V1Bogus')).toThrow(
      new Error("unknown core Kubernetes type 'V1Bogus'; names follow @kubernetes/client-node, e.g. V1PodSpec"),
    );
    expect(() => core('PodSpec')).toThrow(
      new Error("unknown core Kubernetes type 'PodSpec' (did you mean V1PodSpec?); names follow @kubernetes/client-node, e.g. V1PodSpec"),
    );
  });
});

describe('coreInline()', () => {
  test('drops the required fields of the core type and records the added fields', () => {
    expect(core('V1Container').toJson().required).toEqual(['name']);
    const inlined = coreInline('V1Container', { storageUri: s.string() });
    const json = inlined.toJson();
    expect(json.required).toBeUndefined();
    expect(json.properties!.storageUri).toEqual({ type: 'string' });
    expect(inlined.options.coreType).toBe('V1Container');
    expect(inlined.options.coreExtra).toEqual(['storageUri']);
  });

  test('keepRequired keeps them', () => {
    expect(coreInline('V1Container', {}, { keepRequired: true }).toJson().required).toEqual(['name']);
  });
});

describe('plainCore()', () => {
  test('renders like core() without the core marker at any level', () => {
    const plain = plainCore('V2HorizontalPodAutoscalerBehavior');
    expect(plain.toJson()).toEqual(core('V2HorizontalPodAutoscalerBehavior').toJson());
    expect(plain.options.coreType).toBeUndefined();
    const policies = (plain.properties.scaleUp as ObjectSchema).properties.policies as ArraySchema;
    expect((plain.properties.scaleUp as ObjectSchema).options.coreType).toBeUndefined();
    expect((policies.items as ObjectSchema).options.coreType).toBeUndefined();
  });

  test('keeps the map type of atomic structs', () => {
    expect(plainCore('V1LocalObjectReference').toJson()['x-kubernetes-map-type']).toBe('atomic');
  });

  test('replaces fields, and rejects fields the type does not have', () => {
    const strategy = plainCore('V1DeploymentStrategy', { type: s.enum('Recreate', 'RollingUpdate') });
    expect(strategy.toJson().properties!.type.enum).toEqual(['Recreate', 'RollingUpdate']);
    expect(() => plainCore('V1DeploymentStrategy', { typo: s.string() })).toThrow(
      "plainCore('V1DeploymentStrategy'): no field typo to override (has rollingUpdate, type)",
    );
  });
});

describe('the type table', () => {
  test('defines every type it refers to', () => {
    const names = new Set(coreTypeNames());
    const missing: string[] = [];
    for (const name of names) {
      for (const [field, type] of Object.entries(coreTypeEntry(name).properties)) {
        const ref = type.replace(/^(\[\]|map\[)+/, '').replace(/\]+$/, '');
        if (/^[A-Z]/.test(ref) && !names.has(ref)) missing.push(`${name}.${field}: ${ref}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('MicroTime is a date-time string and APIService refers to its service reference', () => {
    expect(core('V1LeaseSpec').toJson().properties!.renewTime).toEqual({ type: 'string', format: 'date-time' });
    expect(core('V1APIServiceSpec').toJson().properties!.service.properties!.port).toEqual({ type: 'integer', format: 'int32' });
  });
});

describe('embeddedObjectMeta', () => {
  test('has the five fields controller-gen renders for metadata inside a template, and nothing required', () => {
    const j = embeddedObjectMeta().toJson();
    expect(Object.keys(j.properties!)).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
    expect(j.required).toBeUndefined();
    expect(j.properties!.labels).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  });
});
