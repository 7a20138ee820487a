/**
 * Pinned image versions for the KServe component.
 *
 * Release modelled: KServe v0.20.0 (the tag named by the platform inventory,
 * `typical_tag` of kserve-controller-manager / llmisvc-controller-manager).
 *
 * Upstream's kustomize sources reference KServe-built images with `latest`
 * (or a `:replace` placeholder resolved by `config/runtimes/kustomization.yaml`);
 * the release process rewrites those to the release tag. Here every image is
 * pinned explicitly: KServe-built images to the release tag, third-party
 * runtime images to the tag upstream pins in its runtimes kustomization.
 */

export const KSERVE_VERSION = 'v0.20.0';

/** A container image split into repository and tag (never `latest`). */
export interface ImageVersion {
  readonly repository: string;
  readonly tag: string;
}

/** Every image key the KServe component knows about. */
export type KServeImageKey =
  // control plane
  | 'controller'
  | 'llmisvcController'
  | 'localmodelController'
  | 'localmodelNodeAgent'
  | 'kubeRbacProxy'
  // data-plane helpers referenced from inferenceservice-config
  | 'storageInitializer'
  | 'agent'
  | 'router'
  | 'artExplainer'
  // default ClusterServingRuntime images
  | 'sklearnserver'
  | 'xgbserver'
  | 'lgbserver'
  | 'paddleserver'
  | 'pmmlserver'
  | 'huggingfaceserver'
  | 'huggingfaceserverGpu'
  | 'tensorflowServing'
  | 'torchserve'
  | 'tritonserver'
  | 'mlserver'
  | 'autogluonserver'
  | 'predictiveserver'
  | 'vllmOpenai'
  // llm-d images of the LLMInferenceServiceConfig presets
  | 'llmdCuda'
  | 'llmdRoutingSidecar'
  | 'llmdEndpointPicker'
  | 'llmdUdsTokenizer'
  | 'llmdLatencyTraining'
  | 'llmdLatencyPrediction';

const kserve = (repository: string): ImageVersion => ({ repository, tag: KSERVE_VERSION });

export const KSERVE_IMAGES: Readonly<Record<KServeImageKey, ImageVersion>> = Object.freeze({
  controller: kserve('kserve/kserve-controller'),
  // Note: the LLMInferenceService controller image is not prefixed with "kserve-".
  llmisvcController: kserve('kserve/llmisvc-controller'),
  localmodelController: kserve('kserve/kserve-localmodel-controller'),
  localmodelNodeAgent: kserve('kserve/kserve-localmodelnode-agent'),
  // Sidecar of kserve-controller-manager in upstream's default overlay (removed in ODH).
  kubeRbacProxy: { repository: 'quay.io/brancz/kube-rbac-proxy', tag: 'v0.18.0' },

  storageInitializer: kserve('kserve/storage-initializer'),
  // The agent image serves the logger, batcher and agent sidecars.
  agent: kserve('kserve/agent'),
  router: kserve('kserve/router'),
  artExplainer: kserve('kserve/art-explainer'),

  sklearnserver: kserve('kserve/sklearnserver'),
  xgbserver: kserve('kserve/xgbserver'),
  lgbserver: kserve('kserve/lgbserver'),
  paddleserver: kserve('kserve/paddleserver'),
  pmmlserver: kserve('kserve/pmmlserver'),
  huggingfaceserver: kserve('kserve/huggingfaceserver'),
  // GPU flavour used by the multi-node runtime. Upstream's install references the floating
  // `latest-gpu` tag; we pin the release's `-gpu` tag instead.
  huggingfaceserverGpu: { repository: 'kserve/huggingfaceserver', tag: `${KSERVE_VERSION}-gpu` },
  autogluonserver: kserve('kserve/autogluonserver'),
  predictiveserver: kserve('kserve/predictiveserver'),

  // Third-party runtime images, at the tags KServe v0.20.0's install renders.
  tensorflowServing: { repository: 'tensorflow/serving', tag: '2.6.2' },
  torchserve: { repository: 'pytorch/torchserve-kfs', tag: '0.9.0' },
  tritonserver: { repository: 'nvcr.io/nvidia/tritonserver', tag: '23.05-py3' },
  mlserver: { repository: 'docker.io/seldonio/mlserver', tag: '1.7.1' },
  // v0.20.0's release rewrite gives vLLM's image the KServe release tag, as rendered upstream.
  vllmOpenai: kserve('vllm/vllm-openai'),

  // llm-d images of the LLMInferenceServiceConfig presets (v0.20.0's install).
  llmdCuda: { repository: 'ghcr.io/llm-d/llm-d-cuda', tag: 'v0.8.0' },
  llmdRoutingSidecar: { repository: 'ghcr.io/llm-d/llm-d-router-disagg-sidecar', tag: 'v0.9.0' },
  llmdEndpointPicker: { repository: 'ghcr.io/llm-d/llm-d-router-endpoint-picker', tag: 'v0.9.0' },
  llmdUdsTokenizer: { repository: 'ghcr.io/llm-d/llm-d-uds-tokenizer', tag: 'vllm-v0.19.1' },
  llmdLatencyTraining: { repository: 'ghcr.io/llm-d/llm-d-latency-predictor-training-server', tag: 'v0.8.0' },
  llmdLatencyPrediction: { repository: 'ghcr.io/llm-d/llm-d-latency-predictor-prediction-server', tag: 'v0.8.0' },
});

/** All image keys, in declaration order. */
export const KSERVE_IMAGE_KEYS = Object.keys(KSERVE_IMAGES) as KServeImageKey[];

/** `repository:tag` for a key of {@link KSERVE_IMAGES}. */
export function kserveImage(key: KServeImageKey): string {
  const img = KSERVE_IMAGES[key];
  if (!img) {
    throw new Error(`kserve image "${String(key)}" is not in KSERVE_IMAGES; use one of ${KSERVE_IMAGE_KEYS.join(', ')}`);
  }
  return `${img.repository}:${img.tag}`;
}
