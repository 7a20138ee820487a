import { inferenceGraphCrd } from '../../../constructs/kserve/crds/inference-graph';
import { inferenceServiceCrd } from '../../../constructs/kserve/crds/inference-service';
import { trainedModelCrd } from '../../../constructs/kserve/crds/trained-model';
import { CrdDefinition, rootSchema, validateDefinition } from '../../../lib/crd';
import { ArraySchema, MapSchema, ObjectSchema, Schema } from '../../../lib/schema/dsl';
import { JSONSchemaProps } from '../../../lib/schema/types';

function schemaOf(def: CrdDefinition, version?: string): JSONSchemaProps {
  const v = version ? def.versions.find((x) => x.name === version)! : def.versions[0];
  return rootSchema(v.schema).toJson();
}

/** Follows a dotted path; `[]` steps into array items, `{}` into map values. */
function at(root: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = root;
  for (const part of path.split('.')) {
    if (part === '[]') node = node.items;
    else if (part === '{}') node = node.additionalProperties;
    else node = node.properties?.[part];
    if (!node) throw new Error(`no schema at ${path} (stopped at ${part})`);
  }
  return node;
}

const isvc = schemaOf(inferenceServiceCrd);
const tm = schemaOf(trainedModelCrd);
const ig = schemaOf(inferenceGraphCrd);

describe('InferenceService CRD', () => {
  test('has the upstream names, scope and a single served storage version', () => {
    expect(inferenceServiceCrd.group).toBe('serving.kserve.io');
    expect(inferenceServiceCrd.plural).toBe('inferenceservices');
    expect(inferenceServiceCrd.shortNames).toEqual(['isvc']);
    expect(inferenceServiceCrd.scope).toBe('Namespaced');
    expect(inferenceServiceCrd.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1beta1', true, true]]);
    expect(inferenceServiceCrd.versions[0].subresources).toEqual({ status: true });
    expect(() => validateDefinition('test', inferenceServiceCrd)).not.toThrow();
  });

  test('prints URL, readiness, traffic split and revisions', () => {
    const cols = inferenceServiceCrd.versions[0].printerColumns!;
    expect(cols.map((c) => c.name)).toEqual(['URL', 'Ready', 'Prev', 'Latest', 'PrevRolledoutRevision', 'LatestReadyRevision', 'Age']);
    expect(cols.find((c) => c.name === 'Latest')).toEqual({
      name: 'Latest',
      type: 'integer',
      jsonPath: '.status.components.predictor.traffic[?(@.latestRevision==true)].percent',
    });
  });

  test('requires a predictor', () => {
    expect(at(isvc, 'spec').required).toEqual(['predictor']);
  });

  test('predictor embeds the pod spec fields plus the KServe extras, none of the pod spec fields required', () => {
    const predictor = at(isvc, 'spec.predictor');
    for (const f of ['containers', 'volumes', 'affinity', 'tolerations', 'serviceAccountName']) expect(predictor.properties).toHaveProperty(f);
    for (const f of ['model', 'sklearn', 'workerSpec', 'autoScaling', 'logger', 'storageUris', 'minReplicas', 'name']) expect(predictor.properties).toHaveProperty(f);
    expect(predictor.required).toBeUndefined();
    expect(at(isvc, 'spec.predictor.name').pattern).toBe('^[a-z]([-a-z0-9]*[a-z0-9])?$');
  });

  test('model containers embed the container fields plus the model fields', () => {
    const model = at(isvc, 'spec.predictor.model');
    for (const f of ['image', 'args', 'env', 'resources', 'modelFormat', 'runtime', 'storageUri', 'storage', 'protocolVersion']) {
      expect(model.properties).toHaveProperty(f);
    }
    // A container needs a name, but a model container does not.
    expect(model.required).toBeUndefined();
    expect(at(isvc, 'spec.predictor.model.modelFormat').required).toEqual(['name']);
  });

  test('modelFormat is optional on the main predictor but required on a canary predictor', () => {
    expect(at(isvc, 'spec.predictor.model').required).toBeUndefined();
    expect(at(isvc, 'spec.canary.[].predictor.model').required).toEqual(['modelFormat']);
    expect(at(isvc, 'spec.canary.[]').required).toEqual(['predictor', 'trafficPercent']);
    expect(at(isvc, 'spec.canary.[].trafficPercent')).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
  });

  test('explainer and transformer share the component extension fields', () => {
    for (const c of ['explainer', 'transformer', 'predictor']) {
      const comp = at(isvc, `spec.${c}`);
      for (const f of ['containers', 'annotations', 'autoScaling', 'batcher', 'canaryTrafficPercent', 'scaleMetric', 'timeout']) {
        expect(comp.properties).toHaveProperty(f);
      }
    }
    expect(at(isvc, 'spec.explainer.art').properties).toHaveProperty('image');
    expect(at(isvc, 'spec.transformer').properties).not.toHaveProperty('model');
  });

  test('scaling enums and the autoscaling metric type', () => {
    expect(at(isvc, 'spec.predictor.scaleMetric').enum).toEqual(['cpu', 'memory', 'concurrency', 'rps']);
    expect(at(isvc, 'spec.transformer.scaleMetricType').enum).toEqual(['Utilization', 'Value', 'AverageValue']);
    const metric = at(isvc, 'spec.predictor.autoScaling.metrics.[]');
    expect(metric.required).toEqual(['type']);
    expect(at(isvc, 'spec.predictor.autoScaling.metrics.[].type').enum).toEqual(['Resource', 'External', 'PodMetric']);
    expect(at(isvc, 'spec.predictor.autoScaling.metrics.[].resource.name').enum).toEqual(['cpu', 'memory']);
  });

  test('HPA scaling tolerance is a quantity and policies are atomic', () => {
    const rules = at(isvc, 'spec.predictor.autoScaling.behavior.scaleUp');
    expect(rules.properties!.tolerance['x-kubernetes-int-or-string']).toBe(true);
    expect(rules.properties!.tolerance.pattern).toBeDefined();
    expect(rules.properties!.policies['x-kubernetes-list-type']).toBe('atomic');
    expect(rules.properties!.policies.items!.required).toEqual(['periodSeconds', 'type', 'value']);
  });

  test('storage URIs default their mount path and need at least one entry', () => {
    const uris = at(isvc, 'spec.predictor.storageUris');
    expect(uris.minItems).toBe(1);
    expect(uris['x-kubernetes-list-type']).toBe('atomic');
    expect(uris.items!.properties!.mountPath).toMatchObject({ default: '/mnt/models', maxLength: 255, pattern: '^/.*' });
    expect(uris.items!.required).toEqual(['uri']);
  });

  test('status keeps unknown fields and reports model states with defaults', () => {
    const status = at(isvc, 'status');
    expect(status['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(at(isvc, 'status.modelStatus').required).toEqual(['transitionStatus']);
    expect(at(isvc, 'status.modelStatus.states.activeModelState')).toMatchObject({ default: 'Pending' });
    expect(at(isvc, 'status.modelStatus.copies.failedCopies')).toMatchObject({ default: 0 });
    expect(at(isvc, 'status.components.{}.traffic.[].percent')).toMatchObject({ type: 'integer', format: 'int64' });
    expect(at(isvc, 'status.conditions.[]').required).toEqual(['status', 'type']);
  });

  test('has no CEL rules, like upstream (validation happens in the webhook)', () => {
    expect(JSON.stringify(isvc)).not.toContain('x-kubernetes-validations');
  });
});

describe('TrainedModel CRD', () => {
  test('names, printer columns and required spec fields', () => {
    expect(trainedModelCrd.shortNames).toEqual(['tm']);
    expect(trainedModelCrd.versions[0].name).toBe('v1alpha1');
    expect(trainedModelCrd.versions[0].printerColumns!.map((c) => c.name)).toEqual(['URL', 'Ready', 'Age']);
    expect(at(tm, 'spec').required).toEqual(['inferenceService', 'model']);
    expect(at(tm, 'spec.model').required).toEqual(['framework', 'memory', 'storageUri']);
    expect(at(tm, 'spec.model.memory')['x-kubernetes-int-or-string']).toBe(true);
    expect(at(tm, 'status').properties).toHaveProperty('address');
  });
});

describe('InferenceGraph CRD', () => {
  test('names and printer columns', () => {
    expect(inferenceGraphCrd.shortNames).toEqual(['ig']);
    expect(inferenceGraphCrd.versions[0].printerColumns!.map((c) => c.jsonPath)).toEqual([
      '.status.url',
      ".status.conditions[?(@.type=='Ready')].status",
      '.metadata.creationTimestamp',
    ]);
  });

  test('requires nodes, each with a router type', () => {
    expect(at(ig, 'spec').required).toEqual(['nodes']);
    expect(at(ig, 'spec.nodes.{}').required).toEqual(['routerType']);
    expect(at(ig, 'spec.nodes.{}.routerType').enum).toEqual(['Sequence', 'Splitter', 'Ensemble', 'Switch']);
    expect(at(ig, 'spec.nodes.{}.steps.[].dependency').enum).toEqual(['Soft', 'Hard']);
  });

  test('resource claims are a map list keyed by name', () => {
    const claims = at(ig, 'spec.resources.claims');
    expect(claims['x-kubernetes-list-type']).toBe('map');
    expect(claims['x-kubernetes-list-map-keys']).toEqual(['name']);
    expect((at(ig, 'spec.resources.limits').additionalProperties as JSONSchemaProps)['x-kubernetes-int-or-string']).toBe(true);
  });
});

describe('named types', () => {
  test('each type name stands for one shape within a CRD', () => {
    for (const def of [inferenceServiceCrd, trainedModelCrd, inferenceGraphCrd]) {
      const seen = new Map<string, string>();
      const walk = (node: Schema): void => {
        if (node instanceof ArraySchema) return walk(node.items);
        if (node instanceof MapSchema) return walk(node.values);
        if (!(node instanceof ObjectSchema)) return;
        if (node.typeName) {
          const json = JSON.stringify(node.optional().toJson());
          const prev = seen.get(node.typeName);
          if (prev !== undefined) {
            expect({ name: node.typeName, same: prev === json }).toEqual({ name: node.typeName, same: true });
            return;
          }
          seen.set(node.typeName, json);
        }
        Object.values(node.properties).forEach(walk);
      };
      for (const v of def.versions) walk(v.schema);
      expect(seen.has(def.kind === 'InferenceService' ? 'PredictorSpec' : `${def.kind}Spec`)).toBe(true);
    }
  });
});
