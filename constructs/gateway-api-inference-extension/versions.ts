import { ImageSpec } from '../../lib/images';

/**
 * Release lines of the Gateway API Inference Extension and the CRDs each ships.
 * v1.4 is the line KServe's LLMInferenceService and llm-d build on: it still ships the
 * experimental x-k8s.io InferencePool and InferenceObjective/InferenceModelRewrite.
 * v1.5 dropped the v1alpha2 InferencePool; v1.6 moved InferenceObjective and
 * InferenceModelRewrite to llm-d (llm-d.ai group) and ships InferencePool v1 and
 * InferencePoolImport only.
 */
export enum GatewayApiInferenceExtensionVersion {
  V1_4 = 'v1.4.0',
  V1_5 = 'v1.5.0',
  V1_6 = 'v1.6.0',
}

/** CRD names each release line ships. */
export const CRDS_BY_VERSION: Record<GatewayApiInferenceExtensionVersion, string[]> = {
  [GatewayApiInferenceExtensionVersion.V1_4]: [
    'inferencepools.inference.networking.k8s.io',
    'inferencepools.inference.networking.x-k8s.io',
    'inferenceobjectives.inference.networking.x-k8s.io',
    'inferencemodelrewrites.inference.networking.x-k8s.io',
    'inferencepoolimports.inference.networking.x-k8s.io',
  ],
  [GatewayApiInferenceExtensionVersion.V1_5]: [
    'inferencepools.inference.networking.k8s.io',
    'inferenceobjectives.inference.networking.x-k8s.io',
    'inferencemodelrewrites.inference.networking.x-k8s.io',
    'inferencepoolimports.inference.networking.x-k8s.io',
  ],
  [GatewayApiInferenceExtensionVersion.V1_6]: [
    'inferencepools.inference.networking.k8s.io',
    'inferencepoolimports.inference.networking.x-k8s.io',
  ],
};

/** The reference endpoint picker (EPP) image of each line. */
export const EPP_IMAGES: Record<GatewayApiInferenceExtensionVersion, ImageSpec> = {
  [GatewayApiInferenceExtensionVersion.V1_4]: { repository: 'registry.k8s.io/gateway-api-inference-extension/epp', tag: 'v1.4.0' },
  [GatewayApiInferenceExtensionVersion.V1_5]: { repository: 'registry.k8s.io/gateway-api-inference-extension/epp', tag: 'v1.5.0' },
  [GatewayApiInferenceExtensionVersion.V1_6]: { repository: 'registry.k8s.io/gateway-api-inference-extension/epp', tag: 'v1.6.0' },
};
