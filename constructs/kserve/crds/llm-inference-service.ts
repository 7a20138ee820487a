import {
  GatewayFlavor,
  LENIENT,
  LlmVersion,
  llmInferenceServiceConfigStatus,
  llmInferenceServiceSpec,
  llmInferenceServiceStatus,
  STRICT,
} from './llm-shared';
import { CrdDefinition, CrdScope, CrdVersion, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const GROUP = 'serving.kserve.io';
const VERSIONS: LlmVersion[] = ['v1alpha1', 'v1alpha2'];
const STORAGE: LlmVersion = 'v1alpha2';

/** Both CRDs convert between v1alpha1 and v1alpha2 in the llmisvc controller's webhook. */
const conversion = { strategy: 'Webhook' as const, path: '/convert', conversionReviewVersions: ['v1', 'v1beta1'] };

const READY = ".status.conditions[?(@.type=='Ready')]";
const readyColumns: PrinterColumn[] = [
  { name: 'Ready', type: 'string', jsonPath: `${READY}.status` },
  { name: 'Reason', type: 'string', jsonPath: `${READY}.reason` },
];
const age: PrinterColumn = PrinterColumns.age();

function versions(
  schemaOf: (v: LlmVersion) => CrdVersion['schema'],
  printerColumns: PrinterColumn[],
): CrdVersion[] {
  return VERSIONS.map((v) => ({
    name: v,
    storage: v === STORAGE,
    schema: schemaOf(v),
    subresources: { status: true },
    printerColumns,
  }));
}

const spec = (v: LlmVersion, g: GatewayFlavor) => llmInferenceServiceSpec(v, g);

/** serving.kserve.io LLMInferenceService: one LLM deployment with its routing and scheduler. */
export const llmInferenceServiceCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LLMInferenceService',
  plural: 'llminferenceservices',
  shortNames: ['llmisvc'],
  scope: CrdScope.NAMESPACED,
  conversion,
  versions: versions(
    (v) => s.object({ spec: spec(v, STRICT), status: llmInferenceServiceStatus(v) }),
    [
      PrinterColumns.url(),
      ...readyColumns,
      age,
      { name: 'URLs', type: 'string', jsonPath: '.status.addresses[*].url', priority: 1 },
    ],
  ),
};

/**
 * serving.kserve.io LLMInferenceServiceConfig: a preset that LLMInferenceServices inherit
 * through spec.baseRefs. Its embedded Gateway API specs are partial, so they keep only
 * structural validation.
 */
export const llmInferenceServiceConfigCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LLMInferenceServiceConfig',
  plural: 'llminferenceserviceconfigs',
  scope: CrdScope.NAMESPACED,
  conversion,
  versions: versions(
    (v) => s.object({ spec: spec(v, LENIENT), status: llmInferenceServiceConfigStatus(v) }),
    [...readyColumns, age],
  ),
};
