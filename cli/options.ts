/**
 * The options of synth, report, graph, mirror and list, apart from the commands
 * (cli/platform-commands.ts), so that the dispatcher reports a bad option before it loads
 * any platform code.
 */
import type { OptionSpec } from './args';

/** The output formats of `mlplatform mirror` (lib/architecture.ts's MIRROR_FORMATS: test/cli/main.test.ts checks they agree). */
export const MIRROR_FORMAT_CHOICES = ['skopeo', 'imageset', 'tsv'] as const;

export const FORMATS = { report: ['md', 'json', 'svg'], graph: ['mermaid', 'dot', 'svg'], mirror: MIRROR_FORMAT_CHOICES } as const;

export const SYNTH_OPTIONS: Record<string, OptionSpec> = {
  'platform': { multiple: true }, 'app': {}, 'out': {}, 'repo-url': {}, 'revision': {}, 'repository-root': {}, 'gitops-path': {}, 'formats': {}, 'dsc': {}, 'dsci': {}, 'skip-unsupported': {},
};

export const REPORT_OPTIONS: Record<string, OptionSpec> = { 'platform': {}, 'app': {}, 'format': { choices: FORMATS.report }, 'out': {}, 'compare-architecture': {} };

export const GRAPH_OPTIONS: Record<string, OptionSpec> = { platform: {}, app: {}, format: { choices: FORMATS.graph }, out: {} };

export const MIRROR_OPTIONS: Record<string, OptionSpec> = { platform: {}, app: {}, format: { choices: FORMATS.mirror }, mirror: {}, out: {} };

export const LIST_OPTIONS: Record<string, OptionSpec> = { app: {} };

export const LIST_WHAT = ['platforms', 'components', 'versions'];
