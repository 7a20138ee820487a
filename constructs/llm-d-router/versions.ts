import { LLM_D_ROUTER_VERSION } from './crds/common';
import { ImageSpec } from '../../lib/images';

/** Images of the llm-d router v0.10.0 (formerly llm-d-inference-scheduler). */
export const LLM_D_ROUTER_IMAGES: Readonly<Record<'endpointPicker', ImageSpec>> = {
  // Before the rename: ghcr.io/llm-d/llm-d-inference-scheduler.
  endpointPicker: { repository: 'ghcr.io/llm-d/llm-d-router-endpoint-picker', tag: LLM_D_ROUTER_VERSION },
};
