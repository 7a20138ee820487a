import { run } from '@bufbuild/cel';
import {
  CRDS, inferenceModelRewriteCrd, inferenceObjectiveCrd, inferencePoolAlphaCrd, inferencePoolCrd, inferencePoolImportCrd,
} from '../../../constructs/gateway-api-inference-extension/crds';
import { CrdDefinition, CrdScope, crdName, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';

function schemaOf(def: CrdDefinition): JSONSchemaProps {
  return rootSchema(def.versions[0].schema).toJson();
}

function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = schema;
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : node.properties?.[part];
    if (!node) throw new Error(`no ${path}`);
  }
  return node;
}

const pending = (type: string) => ({
  lastTransitionTime: '1970-01-01T00:00:00Z', message: 'Waiting for controller', reason: 'Pending', status: 'Unknown', type,
});

describe('gateway api inference extension CRDs', () => {
  test('five namespaced CRDs with status subresources', () => {
    expect(CRDS.map(crdName).sort()).toEqual([
      'inferencemodelrewrites.inference.networking.x-k8s.io',
      'inferenceobjectives.inference.networking.x-k8s.io',
      'inferencepoolimports.inference.networking.x-k8s.io',
      'inferencepools.inference.networking.k8s.io',
      'inferencepools.inference.networking.x-k8s.io',
    ]);
    for (const def of CRDS) {
      expect(def.scope).toBe(CrdScope.NAMESPACED);
      expect(def.versions).toHaveLength(1);
      expect(def.versions[0].subresources?.status).toBe(true);
    }
  });

  test('versions and short names', () => {
    expect(inferencePoolCrd.versions[0].name).toBe('v1');
    expect(inferencePoolAlphaCrd.versions[0].name).toBe('v1alpha2');
    expect(inferenceObjectiveCrd.versions[0].name).toBe('v1alpha2');
    expect(inferenceModelRewriteCrd.versions[0].name).toBe('v1alpha2');
    expect(inferencePoolImportCrd.versions[0].name).toBe('v1alpha1');
    expect(inferencePoolCrd.shortNames).toEqual(['infpool']);
    expect(inferencePoolAlphaCrd.shortNames).toEqual(['xinfpool']);
    expect(inferencePoolImportCrd.shortNames).toEqual(['infpimp']);
  });

  test('all carry the v1.4.0 bundle version and the pools carry api approval', () => {
    for (const def of CRDS) expect(def.annotations?.['inference.networking.k8s.io/bundle-version']).toBe('v1.4.0');
    expect(inferencePoolCrd.annotations?.['api-approved.kubernetes.io']).toBe('https://github.com/kubernetes-sigs/gateway-api-inference-extension/pull/1173');
    expect(inferencePoolAlphaCrd.annotations?.['api-approved.kubernetes.io']).toBe('unapproved, experimental-only');
    expect(inferenceObjectiveCrd.annotations?.['api-approved.kubernetes.io']).toBeUndefined();
  });

  test('v1 pool requires spec, selector labels and target ports', () => {
    const root = schemaOf(inferencePoolCrd);
    expect(root.required).toEqual(['spec']);
    expect(at(root, 'spec').required).toEqual(['endpointPickerRef', 'selector', 'targetPorts']);
    expect(at(root, 'spec.selector').required).toEqual(['matchLabels']);
    expect(at(root, 'spec.targetPorts')).toMatchObject({ 'minItems': 1, 'maxItems': 8, 'x-kubernetes-list-type': 'atomic' });
    expect(at(root, 'spec.targetPorts.[].number')).toMatchObject({ format: 'int32', minimum: 1, maximum: 65535 });
  });

  test('v1 pool defaults app protocol, endpoint picker kind and failure mode', () => {
    const spec = at(schemaOf(inferencePoolCrd), 'spec');
    expect(spec.properties!.appProtocol).toMatchObject({ enum: ['http', 'kubernetes.io/h2c'], default: 'http' });
    const epp = spec.properties!.endpointPickerRef;
    expect(epp.required).toEqual(['name']);
    expect(epp.properties!.kind.default).toBe('Service');
    expect(epp.properties!.group).toMatchObject({ default: '', minLength: 0, maxLength: 253 });
    expect(epp.properties!.failureMode).toMatchObject({ enum: ['FailOpen', 'FailClose'], default: 'FailClose' });
  });

  test('endpoint picker port is required when the kind is a service or unset', () => {
    const rules = at(schemaOf(inferencePoolCrd), 'spec.endpointPickerRef')['x-kubernetes-validations']!;
    expect(rules).toHaveLength(1);
    const rule = rules[0].rule;
    expect(run(rule, { self: { kind: 'Service', name: 'epp' } })).toBe(false);
    expect(run(rule, { self: { name: 'epp' } })).toBe(false);
    expect(run(rule, { self: { kind: 'Service', name: 'epp', port: { number: 9002 } } })).toBe(true);
    expect(run(rule, { self: { kind: 'Backend', group: 'example.com', name: 'epp' } })).toBe(true);
  });

  test('target port numbers must be unique', () => {
    const rules = at(schemaOf(inferencePoolCrd), 'spec.targetPorts')['x-kubernetes-validations']!;
    expect(rules).toHaveLength(1);
    const rule = rules[0].rule;
    expect(run(rule, { self: [{ number: 8000 }, { number: 8001 }] })).toBe(true);
    expect(run(rule, { self: [{ number: 8000 }, { number: 8000 }] })).toBe(false);
  });

  test('v1 pool status parents are atomic and keyed conditions', () => {
    const parents = at(schemaOf(inferencePoolCrd), 'status.parents');
    expect(parents).toMatchObject({ 'maxItems': 32, 'x-kubernetes-list-type': 'atomic' });
    expect(parents.items!.required).toEqual(['parentRef']);
    expect(at(parents, '[].conditions')).toMatchObject({ 'maxItems': 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    expect(at(parents, '[].parentRef.group')).toMatchObject({ default: 'gateway.networking.k8s.io', minLength: 0 });
    expect(at(parents, '[].parentRef.kind').default).toBe('Gateway');
  });

  test('alpha pool defaults its status to a pending accepted condition', () => {
    const root = schemaOf(inferencePoolAlphaCrd);
    expect(at(root, 'spec').required).toEqual(['extensionRef', 'selector', 'targetPortNumber']);
    expect(at(root, 'status').default).toEqual({ parent: [{ conditions: [pending('Accepted')], parentRef: { kind: 'Status', name: 'default' } }] });
    expect(at(root, 'status.parent.[].conditions').default).toEqual([pending('Accepted')]);
    expect(at(root, 'status.parent.[].parentRef.group').minLength).toBeUndefined();
  });

  test('objectives and rewrites reference a pool and default their conditions', () => {
    for (const [def, type] of [[inferenceObjectiveCrd, 'Ready'], [inferenceModelRewriteCrd, 'Accepted']] as const) {
      const root = schemaOf(def);
      const ref = at(root, 'spec.poolRef');
      expect(ref.required).toEqual(['name']);
      expect(ref.properties!.group.default).toBe('inference.networking.k8s.io');
      expect(ref.properties!.kind.default).toBe('InferencePool');
      expect(at(root, 'status.conditions').default).toEqual([pending(type)]);
    }
    expect(inferenceObjectiveCrd.versions[0].printerColumns?.map((c) => c.jsonPath)).toEqual(['.spec.poolRef.name', '.spec.priority', '.metadata.creationTimestamp']);
  });

  test('rewrite rules match exact model names and weight their targets', () => {
    const root = schemaOf(inferenceModelRewriteCrd);
    expect(at(root, 'spec').required).toEqual(['poolRef', 'rules']);
    expect(at(root, 'spec.rules.[].matches.[].model.type')).toMatchObject({ enum: ['Exact'], default: 'Exact' });
    expect(at(root, 'spec.rules.[].targets').minItems).toBe(1);
    expect(at(root, 'spec.rules.[].targets.[].weight')).toMatchObject({ minimum: 1, maximum: 1000000 });
  });

  test('pool imports have only a status with controllers keyed by name', () => {
    const root = schemaOf(inferencePoolImportCrd);
    expect(root.properties!.spec).toBeUndefined();
    const controllers = at(root, 'status.controllers');
    expect(at(root, 'status').required).toEqual(['controllers']);
    expect(controllers).toMatchObject({ 'maxItems': 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(controllers.items!.required).toEqual(['name']);
    expect(at(controllers, '[].parents')['x-kubernetes-list-type']).toBe('atomic');
  });
});
