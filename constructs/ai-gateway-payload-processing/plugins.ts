import { stringify } from 'yaml';

/** One plugin of the payload processor (the BBR ext-proc framework of llm-d's payload-processor). */
export interface PayloadPlugin {
  /** Plugin type, e.g. body-field-to-header, model-provider-resolver. */
  readonly type: string;
  /** Instance name, unique in one configuration. */
  readonly name: string;
  /** Plugin settings. @default - none */
  readonly parameters?: Record<string, unknown>;
}

/** Header the pre-processing stage copies the requested model into (read by the gateway's routing). */
export const MODEL_HEADER = 'X-Gateway-Model-Name';

/**
 * Plugins of the stage in front of the gateway's authorization filter: copy the requested
 * model from the body into a header, so that auth and routing can use it.
 */
export const DEFAULT_PRE_PROCESSING_PLUGINS: readonly PayloadPlugin[] = [
  { type: 'body-field-to-header', name: 'model-extractor', parameters: { field_name: 'model', header_name: MODEL_HEADER } },
];

/**
 * Plugins of the stage after authorization: resolve the model's external provider, translate
 * the API format and inject the provider credentials.
 */
export const DEFAULT_PROCESSING_PLUGINS: readonly PayloadPlugin[] = [
  { type: 'model-provider-resolver', name: 'model-provider-resolver' },
  { type: 'api-translation', name: 'api-translation' },
  { type: 'apikey-injection', name: 'apikey-injection' },
];

const PLUGIN_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Problems of a plugin list (empty when it is valid). */
export function pluginProblems(plugins: readonly PayloadPlugin[]): string[] {
  const out: string[] = [];
  if (!plugins.length) out.push('has no plugins; give at least one');
  const seen = new Set<string>();
  for (const p of plugins) {
    if (!PLUGIN_NAME.test(p.type)) out.push(`plugin type '${p.type}' must be a lower-case name such as model-provider-resolver`);
    if (!PLUGIN_NAME.test(p.name)) out.push(`plugin name '${p.name}' must be a lower-case name such as model-extractor`);
    if (seen.has(p.name)) out.push(`plugin name '${p.name}' is used twice; names must be unique`);
    seen.add(p.name);
  }
  return out;
}

/** The configuration file of one stage (its `plugins` list), as YAML. */
export function renderPluginConfig(plugins: readonly PayloadPlugin[]): string {
  return stringify({ plugins: plugins.map((p) => ({ type: p.type, name: p.name, ...(p.parameters ? { parameters: p.parameters } : {}) })) }, { lineWidth: 0 });
}
