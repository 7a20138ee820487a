import { run } from '@bufbuild/cel';
import { localModelCacheCrd, localModelNamespaceCacheCrd, localModelNodeCrd, localModelNodeGroupCrd } from '../../../constructs/kserve/crds/local-model';
import { clusterServingRuntimeCrd, servingRuntimeCrd } from '../../../constructs/kserve/crds/serving-runtime';
import { clusterStorageContainerCrd } from '../../../constructs/kserve/crds/storage-container';
import { CrdDefinition, CrdScope, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';

const ALL = [servingRuntimeCrd, clusterServingRuntimeCrd, clusterStorageContainerCrd, localModelCacheCrd, localModelNamespaceCacheCrd, localModelNodeGroupCrd, localModelNodeCrd];

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

describe('kserve runtime, storage and local model CRDs', () => {
  test('all are serving.kserve.io v1alpha1 with one served storage version', () => {
    for (const def of ALL) {
      expect(def.group).toBe('serving.kserve.io');
      expect(def.versions.map((v) => [v.name, v.storage])).toEqual([['v1alpha1', true]]);
      expect(def.shortNames ?? []).toEqual([]);
    }
  });

  test('scopes follow upstream', () => {
    expect(servingRuntimeCrd.scope).toBe(CrdScope.NAMESPACED);
    expect(localModelNamespaceCacheCrd.scope).toBe(CrdScope.NAMESPACED);
    for (const def of [clusterServingRuntimeCrd, clusterStorageContainerCrd, localModelCacheCrd, localModelNodeGroupCrd, localModelNodeCrd]) {
      expect(def.scope).toBe(CrdScope.CLUSTER);
    }
  });

  test('only the cache and node CRDs have a status subresource', () => {
    const withStatus = ALL.filter((d) => d.versions[0].subresources?.status).map((d) => d.kind);
    expect(withStatus.sort()).toEqual(['LocalModelCache', 'LocalModelNamespaceCache', 'LocalModelNode']);
  });

  test('both serving runtimes render the same schema and printer columns', () => {
    expect(schemaOf(clusterServingRuntimeCrd)).toEqual(schemaOf(servingRuntimeCrd));
    expect(servingRuntimeCrd.versions[0].printerColumns?.map((c) => `${c.name}:${c.type}:${c.jsonPath}`)).toEqual([
      'Disabled:boolean:.spec.disabled',
      'ModelType:string:.spec.supportedModelFormats[*].name',
      'Containers:string:.spec.containers[*].name',
      'Age:date:.metadata.creationTimestamp',
    ]);
  });

  test('runtime containers are required and the worker spec reuses the pod fields', () => {
    const spec = at(schemaOf(servingRuntimeCrd), 'spec');
    expect(spec.required).toEqual(['containers']);
    const worker = at(spec, 'workerSpec');
    expect(worker.required).toEqual(['containers']);
    expect(Object.keys(worker.properties!)).toEqual(expect.arrayContaining(['pipelineParallelSize', 'tensorParallelSize', 'tolerations', 'resourceClaims', 'hostIPC']));
    expect(worker.properties!.supportedModelFormats).toBeUndefined();
  });

  test('runtime resource claims are a list map keyed by name and pull secret names default to empty', () => {
    const spec = at(schemaOf(servingRuntimeCrd), 'spec');
    for (const base of [spec, at(spec, 'workerSpec')]) {
      expect(base.properties!.resourceClaims['x-kubernetes-list-type']).toBe('map');
      expect(base.properties!.resourceClaims['x-kubernetes-list-map-keys']).toEqual(['name']);
      expect(at(base, 'imagePullSecrets.[].name').default).toBe('');
    }
  });

  test('supported model format priority is an int32 of at least one', () => {
    const fmt = at(schemaOf(servingRuntimeCrd), 'spec.supportedModelFormats.[]');
    expect(fmt.required).toEqual(['name']);
    expect(fmt.properties!.priority).toMatchObject({ type: 'integer', format: 'int32', minimum: 1 });
  });

  test('cluster storage container has a top-level disabled flag and defaults', () => {
    const root = schemaOf(clusterStorageContainerCrd);
    expect(root.properties!.disabled).toEqual({ type: 'boolean' });
    const spec = at(root, 'spec');
    expect(spec.required).toEqual(['container', 'supportedUriFormats']);
    expect(spec.properties!.workloadType.default).toBe('initContainer');
    expect(spec.properties!.supportsMultiModelDownload.default).toBe(false);
  });

  test('local model caches require source, size and at least one node group', () => {
    for (const def of [localModelCacheCrd, localModelNamespaceCacheCrd]) {
      const spec = at(schemaOf(def), 'spec');
      expect(spec.required).toEqual(['modelSize', 'nodeGroups', 'sourceModelUri']);
      expect(spec.properties!.nodeGroups.minItems).toBe(1);
      expect(spec.properties!.modelSize['x-kubernetes-int-or-string']).toBe(true);
    }
  });

  test('the source model uri cannot change once set', () => {
    const rules = at(schemaOf(localModelCacheCrd), 'spec.sourceModelUri')['x-kubernetes-validations']!;
    expect(rules).toHaveLength(1);
    expect(rules[0].rule).toBe('self == oldSelf');
    expect(run(rules[0].rule, { self: 's3://a', oldSelf: 's3://a' })).toBe(true);
    expect(run(rules[0].rule, { self: 's3://b', oldSelf: 's3://a' })).toBe(false);
  });

  test('node groups require volume specs and a storage limit', () => {
    const root = schemaOf(localModelNodeGroupCrd);
    expect(at(root, 'spec').required).toEqual(['persistentVolumeClaimSpec', 'persistentVolumeSpec', 'storageLimit']);
    expect(Object.keys(at(root, 'status').properties!).sort()).toEqual(['available', 'used']);
  });

  test('local model nodes list models with name and source required', () => {
    const root = schemaOf(localModelNodeCrd);
    expect(at(root, 'spec').required).toEqual(['localModels']);
    expect(at(root, 'spec.localModels.[]').required).toEqual(['modelName', 'sourceModelUri']);
    // Upstream's status values (ModelStatus at v0.20.0), the empty string included.
    expect(at(root, 'status.modelStatus').additionalProperties).toEqual({ type: 'string', enum: ['', 'ModelDownloadPending', 'ModelDownloading', 'ModelDownloaded', 'ModelDownloadError'] });
  });
});
