import { ImageSpec } from '../../lib/images';

export const LLAMA_STACK_OPERATOR_VERSION = 'v0.9.0';

/** The Llama Stack operator v0.9.0 (upstream's manifests say `latest`, replaced at release). */
export const LLAMA_STACK_OPERATOR_IMAGES: Readonly<Record<'controller', ImageSpec>> = {
  controller: { repository: 'quay.io/llamastack/llama-stack-k8s-operator', tag: LLAMA_STACK_OPERATOR_VERSION },
};
