/** Kinds each KServe controller reconciles (owns), by CRD kind. */
export const KSERVE_MANAGER_CRDS_OWNED = ['ClusterServingRuntime', 'InferenceGraph', 'InferenceService', 'ServingRuntime', 'TrainedModel'];
export const KSERVE_LLMISVC_CRDS_OWNED = ['LLMInferenceService', 'LLMInferenceServiceConfig'];
