/** The llm-d router release whose CRDs these schemas model. */
export const LLM_D_ROUTER_VERSION = 'v0.10.0';
/**
 * Upstream stamps its CRDs with this annotation. At the inspected commit it reads
 * `main-dev`; we stamp the release we model (unconfirmed: that the v0.10.0 tag carries it).
 */
export const BUNDLE_VERSION_ANNOTATION = 'llm-d.ai/bundle-version';
export const GROUP = 'llm-d.ai';
