import { toYamlDocuments } from '../yaml-writer';
import { IgnoredField, ignoredFields } from './ignore';
import { phasePlan, stepName } from './plan';
import { ArgoCdFlavor, repositoryPath, ResolvedGitOpsSettings } from './settings';
import type { PlatformBuild } from '../synth';

export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

/** Where a platform's folder sits in the repository, and how its Applications are named. */
export interface GitOpsLayout {
  /** Repository folder that holds the platform's folder. @default settings.path */
  readonly base?: string;
  /** Prefix of Application names (a fleet's cluster name and '-': Applications of every cluster share Argo CD's namespace). @default '' */
  readonly namePrefix?: string;
}

/** Argo CD output of one platform. */
export interface ArgoCdOutput {
  /** The root Application (app of apps): syncs `apps/`. */
  readonly root: any;
  /** One Application per phase, in apply order; sync wave = position of the phase. */
  readonly apps: any[];
  /** Files relative to dist/<platform>/: argocd/root.yaml and argocd/apps/<phase>.yaml. */
  readonly files: Map<string, string>;
}

/**
 * An app of apps for a built platform: a root Application that syncs one Application per
 * phase folder, each with the phase's position as its sync wave, so Argo CD applies a phase
 * only once the one before is synced and healthy. Per phase Application:
 * - `ServerSideApply=true` when the phase holds CRDs too large for client-side apply;
 * - `ignoreDifferences` for every field controllers change at run time (injected and
 *   self-rotated caBundles, Secrets that rotators fill, aggregated ClusterRoles' rules),
 *   with `RespectIgnoreDifferences=true` so syncs leave those fields alone too.
 *
 * `base` is the repository folder that holds this platform's folder (settings.path for a
 * platform, the cluster's folder in a fleet).
 */
export function argoCdApps(build: PlatformBuild, settings: ResolvedGitOpsSettings, options: GitOpsLayout = {}): ArgoCdOutput {
  const platform = build.model.platform.name;
  const base = options.base ?? settings.path;
  // The settings' prefix (two environments in one Argo CD or Flux), then the layout's (a fleet's cluster).
  const prefix = `${settings.namePrefix ? `${settings.namePrefix}-` : ''}${options.namePrefix ?? ''}`;
  const ignores = ignoredFields(build.model);
  const source = (path: string) => ({ repoURL: settings.repoURL, targetRevision: settings.targetRevision, path });
  const apps = phasePlan(build).map((step) => {
    const ignore = ignores.filter((f) => f.phase === step.phase);
    const syncOptions = ['RespectIgnoreDifferences=true', ...(step.largeCrds.length ? ['ServerSideApply=true'] : [])];
    return {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name: prefix + stepName(platform, step.phase),
        namespace: settings.argocd.namespace,
        labels: { 'app.kubernetes.io/part-of': platform },
        annotations: { [SYNC_WAVE]: String(step.wave) },
      },
      spec: {
        project: settings.argocd.project,
        source: source(repositoryPath(base, platform, step.phase)),
        destination: { server: settings.argocd.server },
        syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions, retry: { limit: 5, backoff: { duration: '10s', factor: 2, maxDuration: '3m' } } },
        ...(ignore.length ? { ignoreDifferences: ignore.map(toIgnoreDifference) } : {}),
      },
    };
  });
  const root = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: prefix + platform, namespace: settings.argocd.namespace, labels: { 'app.kubernetes.io/part-of': platform } },
    spec: {
      project: settings.argocd.project,
      source: source(repositoryPath(base, platform, 'argocd', 'apps')),
      // The phase Applications live where Argo CD runs, whatever cluster they deploy to.
      destination: { server: 'https://kubernetes.default.svc', namespace: settings.argocd.namespace },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
  };
  const files = new Map<string, string>();
  files.set('argocd/root.yaml', toYamlDocuments([root]));
  for (const app of apps) files.set(`argocd/apps/${app.metadata.name.slice(prefix.length + platform.length + 1)}.yaml`, toYamlDocuments([app]));
  return { root, apps, files };
}

export function toIgnoreDifference(f: IgnoredField): Record<string, unknown> {
  return {
    group: f.group,
    kind: f.kind,
    name: f.name,
    ...(f.namespace ? { namespace: f.namespace } : {}),
    ...(f.jsonPointers.length ? { jsonPointers: f.jsonPointers } : {}),
    ...(f.jqPathExpressions.length ? { jqPathExpressions: f.jqPathExpressions } : {}),
  };
}

/**
 * Argo CD's health check for Applications (argocd-cm `resource.customizations.health.
 * argoproj.io_Application`): since Argo CD 1.8 an Application has no health of its own, so
 * the root Application would not wait for one phase Application to be healthy before the next
 * sync wave. The check reports the health Argo CD computed for the child Application
 * (Progressing until it has one).
 */
export const APPLICATION_HEALTH_LUA = [
  'local hs = { status = "Progressing", message = "" }',
  'if obj.status ~= nil and obj.status.health ~= nil then',
  '  hs.status = obj.status.health.status',
  '  if obj.status.health.message ~= nil then hs.message = obj.status.health.message end',
  'end',
  'return hs',
  '',
].join('\n');

/**
 * The argocd-cm entry that makes the app of apps wait phase by phase: a ConfigMap with only
 * that key, to merge into Argo CD's own (`kubectl apply --server-side` keeps its other keys).
 */
export function applicationHealthConfig(namespace: string): any {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'argocd-cm', namespace, labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' } },
    data: { 'resource.customizations.health.argoproj.io_Application': APPLICATION_HEALTH_LUA },
  };
}

/**
 * The same health check for OpenShift GitOps, where the operator owns argocd-cm (a key patched
 * into it is reverted): the ArgoCD custom resource's `spec.resourceHealthChecks` entry, which the
 * operator writes into argocd-cm. Only the field is given, to apply server-side onto the
 * existing instance (`kubectl apply --server-side`).
 */
export function applicationHealthCheckResource(namespace: string, instance: string): any {
  return {
    apiVersion: 'argoproj.io/v1beta1',
    kind: 'ArgoCD',
    metadata: { name: instance, namespace },
    spec: { resourceHealthChecks: [{ group: 'argoproj.io', kind: 'Application', check: APPLICATION_HEALTH_LUA }] },
  };
}

/** The health check file of the settings' Argo CD flavor: path and object. */
export function applicationHealthFile(settings: ResolvedGitOpsSettings): [string, any] {
  return settings.argocd.flavor === ArgoCdFlavor.OPENSHIFT_GITOPS
    ? ['argocd/argocd-health-check.yaml', applicationHealthCheckResource(settings.argocd.namespace, settings.argocd.instance)]
    : ['argocd/argocd-cm-health.yaml', applicationHealthConfig(settings.argocd.namespace)];
}
