import { parseAllDocuments } from 'yaml';
import { Phase } from '../phases';
import type { PlatformBuild } from '../synth';
import { toYamlDocument, toYamlDocuments } from '../yaml-writer';
import { phasePlan } from './plan';
import { ResolvedGitOpsSettings } from './settings';

/**
 * Phases Helm installs as post-install/post-upgrade hooks, with their hook weight. Helm
 * creates a release's templates in one go (ordered by kind, with no wait between kinds) and,
 * with `--wait`, runs post-install hooks only once those templates are ready. That is the
 * one readiness wait Helm offers, so it goes where order matters most: webhook
 * configurations (fail-closed webhooks must not be registered before their backends run)
 * and the custom resources those webhooks intercept come after every controller is up.
 */
export const HELM_HOOK_PHASES: ReadonlyMap<Phase, number> = new Map([
  [Phase.INFRASTRUCTURE_WEBHOOKS, 5],
  [Phase.WEBHOOKS, 20],
  [Phase.RESOURCES, 30],
]);

export const HELM_HOOK_ANNOTATIONS = ['helm.sh/hook', 'helm.sh/hook-weight', 'helm.sh/hook-delete-policy'];

/**
 * A Helm chart of a built platform, files relative to dist/<platform>/ (under helm/):
 * - `crds/`: the CRDs (Helm installs crds/ before anything else, and never upgrades or deletes them);
 * - `templates/<phase>/`: Namespaces and the infrastructure and controller phases, as the release;
 * - `templates/<phase>/` of HELM_HOOK_PHASES: post-install/post-upgrade hooks by phase weight,
 *   recreated at every upgrade (hook-delete-policy before-hook-creation).
 * Template text escapes `{{` (Go templates in ConfigMaps are data, not chart templates).
 */
export function helmChart(build: PlatformBuild, settings: ResolvedGitOpsSettings): Map<string, string> {
  const platform = build.model.platform.name;
  const files = new Map<string, string>();
  files.set('helm/Chart.yaml', toYamlDocument({
    apiVersion: 'v2',
    name: platform,
    description: `The ${platform} platform, synthesized by cdk8s-mlplatform (do not edit; re-run the synth)`,
    type: 'application',
    version: settings.helm.chartVersion,
  }));
  files.set('helm/values.yaml', [
    '# The chart has no values: the platform is configured in TypeScript (cdk8s-mlplatform) and synthesized.',
    '# Install with `helm install --wait`: hooks (webhook configurations, custom resources) must follow ready controllers.',
    '{}',
    '',
  ].join('\n'));
  for (const step of phasePlan(build)) {
    const weight = HELM_HOOK_PHASES.get(step.phase);
    for (const file of step.files) {
      const text = build.files.get(file)!;
      const name = file.slice(step.phase.length + 1);
      if (step.phase === Phase.FOUNDATION && !name.startsWith('00-namespaces')) {
        files.set(`helm/crds/${name}`, text); // crds/ is not templated
      } else if (step.phase === Phase.FOUNDATION) {
        // Namespaces stay on uninstall and when dropped from the chart (as CRDs in crds/ do):
        // deleting one deletes everything in it.
        const docs = build.documents?.get(file) ?? parseAllDocuments(text).map((d) => d.toJSON());
        const kept = docs.map((o) => ({ ...o, metadata: { ...o.metadata, annotations: { ...(o.metadata?.annotations ?? {}), 'helm.sh/resource-policy': 'keep' } } }));
        files.set(`helm/templates/${file}`, escapeTemplate(toYamlDocuments(kept)));
      } else if (weight === undefined) {
        files.set(`helm/templates/${file}`, escapeTemplate(text));
      } else {
        // The objects as written (the same data the YAML text reads back as), without parsing it again.
        const docs = build.documents?.get(file) ?? parseAllDocuments(text).map((d) => d.toJSON());
        const hooks = docs.map((o) => ({
          ...o,
          metadata: {
            ...o.metadata,
            annotations: {
              ...(o.metadata?.annotations ?? {}),
              'helm.sh/hook': 'post-install,post-upgrade',
              'helm.sh/hook-weight': String(weight),
              'helm.sh/hook-delete-policy': 'before-hook-creation',
            },
          },
        }));
        files.set(`helm/templates/${file}`, escapeTemplate(toYamlDocuments(hooks)));
      }
    }
  }
  return files;
}

/** Makes YAML text literal under Helm's template engine: every `{{` becomes an action printing `{{`. */
export function escapeTemplate(text: string): string {
  return text.replace(/\{\{/g, '{{ "{{" }}');
}

/** Inverse of escapeTemplate (what Helm renders). */
export function unescapeTemplate(text: string): string {
  return text.replace(/\{\{ "\{\{" \}\}/g, '{{');
}
