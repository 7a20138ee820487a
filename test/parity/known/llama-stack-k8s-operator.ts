import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's llama-stack-k8s-operator install (see ../known-defects.ts): none. */
export const KNOWN_LLAMA_STACK_K8S_OPERATOR: readonly KnownDefect[] = [];
