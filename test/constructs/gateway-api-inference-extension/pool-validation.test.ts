import { App, Chart } from 'cdk8s';
import { inferencePoolAlphaCrd, inferencePoolCrd } from '../../../constructs/gateway-api-inference-extension/crds';
import { CrdDefinition, CustomResourceDefinition } from '../../../lib/crd';
import { validateCustomResource } from '../../../lib/validation/custom-resource';
import { formatIssue } from '../../../lib/validation/issues';

const rendered = new Map<CrdDefinition, unknown>();
function issues(def: CrdDefinition, obj: unknown): string[] {
  if (!rendered.has(def)) {
    const chart = new Chart(new App({ outdir: '/nonexistent' }), 'c');
    rendered.set(def, new CustomResourceDefinition(chart, 'crd', { definition: def }).apiObject.toJson());
  }
  return validateCustomResource(obj, rendered.get(def)).map(formatIssue);
}

const pool = (spec: Record<string, unknown>) => ({ apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', metadata: { name: 'p', namespace: 'n' }, spec });
const picker = { name: 'p-epp', port: { number: 9002 } };
const alpha = (spec: Record<string, unknown>) => ({ apiVersion: 'inference.networking.x-k8s.io/v1alpha2', kind: 'InferencePool', metadata: { name: 'p', namespace: 'n' }, spec });

// GIE-POOL-VALIDATION: upstream's InferencePool requires the endpoint picker and at least one
// selector label, with label values of at most 63 characters of the label syntax; ours accepted
// a pool with no picker, one that selects every pod of the namespace, and bad label values.
describe('GIE-POOL-VALIDATION: InferencePool validation is upstream\'s', () => {
  test('a valid v1 pool is accepted', () => {
    expect(issues(inferencePoolCrd, pool({ selector: { matchLabels: { app: 'vllm' } }, targetPorts: [{ number: 8000 }], endpointPickerRef: picker }))).toEqual([]);
  });

  test('a v1 pool without endpointPickerRef is rejected', () => {
    expect(issues(inferencePoolCrd, pool({ selector: { matchLabels: { app: 'vllm' } }, targetPorts: [{ number: 8000 }] })).join('\n')).toMatch(/endpointPickerRef/);
  });

  test('a v1 pool with no selector labels (every pod of the namespace) is rejected', () => {
    expect(issues(inferencePoolCrd, pool({ selector: { matchLabels: {} }, targetPorts: [{ number: 8000 }], endpointPickerRef: picker })).join('\n')).toMatch(/matchLabels/);
  });

  test('label values that are not label syntax or too long are rejected, in v1 and v1alpha2', () => {
    for (const value of ['-bad', 'x'.repeat(64)]) {
      expect(issues(inferencePoolCrd, pool({ selector: { matchLabels: { app: value } }, targetPorts: [{ number: 8000 }], endpointPickerRef: picker })).join('\n')).toMatch(/matchLabels/);
      expect(issues(inferencePoolAlphaCrd, alpha({ selector: { app: value }, targetPortNumber: 8000, extensionRef: { name: 'epp' } })).join('\n')).toMatch(/selector/);
    }
    expect(issues(inferencePoolAlphaCrd, alpha({ selector: { app: 'vllm' }, targetPortNumber: 8000, extensionRef: { name: 'epp' } }))).toEqual([]);
  });
});
