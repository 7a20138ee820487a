import type { PlatformBuild } from '../synth';
import { toYamlDocument, toYamlDocuments } from '../yaml-writer';
import { SYNC_WAVE, toIgnoreDifference } from './argocd';
import { ignoredFields } from './ignore';
import { ARGOCD_PROTECT_OPTIONS, ARGOCD_SYNC_OPTIONS, phasePlan, PROTECTED_KINDS } from './plan';
import { ResolvedGitOpsSettings } from './settings';

/** The plugin's name (what an Application's `source.plugin.name` says). */
export const CMP_NAME = 'cdk8s-mlplatform';

/**
 * The command the plugin runs to generate manifests, in the repository checkout:
 * synthesizes one platform (ARGOCD_ENV_PLATFORM, from the Application's plugin env
 * PLATFORM) and prints its objects (see `cmpStream`).
 */
export const CMP_GENERATE = 'npx --no-install ts-node --transpile-only scripts/cmp-generate.ts "$ARGOCD_ENV_PLATFORM"';

/**
 * A ConfigMap holding the ConfigManagementPlugin definition for Argo CD's repo-server
 * sidecar (mount it at /home/argocd/cmp-server/config/plugin.yaml of a sidecar running
 * argocd-cmp-server in a Node.js 20 image). With it Argo CD runs the synth itself, so no
 * synthesized YAML needs to be committed. `init` installs the repository's locked
 * dependencies (that needs the npm registry or a mirror from the sidecar).
 */
export function configManagementPlugin(namespace: string = 'argocd'): any {
  const plugin = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ConfigManagementPlugin',
    metadata: { name: CMP_NAME },
    spec: {
      init: { command: ['sh', '-c', 'npm ci --ignore-scripts --no-audit --no-fund >&2'] },
      generate: { command: ['sh', '-c', CMP_GENERATE] },
      // The generate command runs this file: the plugin applies only where it exists.
      discover: { fileName: './scripts/cmp-generate.ts' },
    },
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cmp-cdk8s-mlplatform', namespace },
    data: { 'plugin.yaml': toYamlDocument(plugin) },
  };
}

/**
 * What the plugin prints: every object of the platform in apply order, each annotated with
 * its phase's sync wave (one Application holds them all, so waves carry the phase order),
 * `ServerSideApply=true` for CRDs too large for client-side apply, and `Prune=false,Delete=false`
 * on CRDs and Namespaces (see PROTECTED_KINDS).
 */
export function cmpStream(build: PlatformBuild): string {
  const large = new Set(build.largeCrds);
  const docs: unknown[] = [];
  for (const step of phasePlan(build)) {
    for (const o of step.objects) {
      const annotations: Record<string, string> = { ...(o.json.metadata?.annotations ?? {}), [SYNC_WAVE]: String(step.wave) };
      const options = [
        ...(o.json.kind === 'CustomResourceDefinition' && large.has(o.json.metadata.name) ? ['ServerSideApply=true'] : []),
        ...(PROTECTED_KINDS.includes(o.json.kind) ? ARGOCD_PROTECT_OPTIONS : []),
      ];
      if (options.length) annotations[ARGOCD_SYNC_OPTIONS] = options.join(',');
      docs.push({ ...o.json, metadata: { ...o.json.metadata, annotations } });
    }
  }
  return toYamlDocuments(docs);
}

/**
 * An Application that deploys the platform through the plugin: one Application, phase
 * order by sync waves, and the platform's run-time fields ignored. Named `<platform>-cmp`:
 * the app of apps' root Application is `<platform>`, in the same namespace.
 */
export function cmpApplication(build: PlatformBuild, settings: ResolvedGitOpsSettings): any {
  const platform = build.model.platform.name;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: `${platform}-cmp`, namespace: settings.argocd.namespace, labels: { 'app.kubernetes.io/part-of': platform } },
    spec: {
      project: settings.argocd.project,
      source: { repoURL: settings.repoURL, targetRevision: settings.targetRevision, path: '.', plugin: { name: CMP_NAME, env: [{ name: 'PLATFORM', value: platform }] } },
      destination: { server: settings.argocd.server },
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['RespectIgnoreDifferences=true'] },
      ignoreDifferences: ignoredFields(build.model).map(toIgnoreDifference),
    },
  };
}
