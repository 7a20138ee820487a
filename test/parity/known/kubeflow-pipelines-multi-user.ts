import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's kubeflow-pipelines-multi-user install (see ../known-defects.ts). */
export const KNOWN_KUBEFLOW_PIPELINES_MULTI_USER: readonly KnownDefect[] = [];
