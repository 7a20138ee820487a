import { toYamlDocuments } from '../yaml-writer';
import type { GitOpsLayout } from './argocd';
import { ignoredFields } from './ignore';
import { phasePlan, stepName } from './plan';
import { repositoryPath, ResolvedGitOpsSettings } from './settings';
import type { PlatformBuild } from '../synth';

/** Flux output of one platform. */
export interface FluxOutput {
  /** One Kustomization (kustomize.toolkit.fluxcd.io/v1) per phase, in apply order. */
  readonly kustomizations: any[];
  /** The root Kustomization: it syncs the flux/ folder (the phase Kustomizations and itself). */
  readonly root: any;
  /** flux/kustomizations.yaml and flux/root.yaml, relative to dist/<platform>/. */
  readonly files: Map<string, string>;
}

/**
 * One Flux Kustomization per phase folder. Each depends on the one before (phases are
 * applied in order; dependsOn makes Flux wait until that one is Ready), the CRD phase waits
 * for everything it applies (`wait: true`: CRDs Established), and other phases report Ready
 * only once their Deployments, StatefulSets, DaemonSets and Certificates are (healthChecks), so webhooks and custom resources
 * never reach an API server whose backends are still starting. Flux applies server-side, so
 * large CRDs need nothing special, and fields our manifests leave out (injected caBundles)
 * are not Flux's to revert; aggregated ClusterRoles' `rules: []` is patched out so the
 * API server's aggregation owns the rules. In a fleet, names carry the cluster prefix
 * (`layout.namePrefix`), so one Flux may reconcile several clusters' Kustomizations.
 */
export function fluxKustomizations(build: PlatformBuild, settings: ResolvedGitOpsSettings, layout: GitOpsLayout = {}): FluxOutput {
  const platform = build.model.platform.name;
  const base = layout.base ?? settings.path;
  // The settings' prefix (two environments in one Argo CD or Flux), then the layout's (a fleet's cluster).
  const prefix = `${settings.namePrefix ? `${settings.namePrefix}-` : ''}${layout.namePrefix ?? ''}`;
  const aggregated = ignoredFields(build.model).filter((f) => f.kind === 'ClusterRole' && f.jsonPointers.includes('/rules'));
  const kustomizations = phasePlan(build).map((step) => {
    const roles = aggregated.filter((f) => f.phase === step.phase);
    return {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: prefix + stepName(platform, step.phase), namespace: settings.flux.namespace, labels: { 'app.kubernetes.io/part-of': platform } },
      spec: {
        interval: settings.flux.interval,
        timeout: settings.flux.timeout,
        retryInterval: '1m',
        path: `./${repositoryPath(base, platform, step.phase)}`,
        prune: true,
        sourceRef: { kind: 'GitRepository', name: settings.flux.sourceName },
        ...(step.after ? { dependsOn: [{ name: prefix + stepName(platform, step.after) }] } : {}),
        ...(step.hasCrds
          ? { wait: true }
          : step.healthChecks.length
            ? { healthChecks: step.healthChecks }
            : {}),
        ...(roles.length
          ? { patches: roles.map((r) => ({ patch: toYamlDocuments([[{ op: 'remove', path: '/rules' }]]), target: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', name: r.name } })) }
          : {}),
      },
    };
  });
  // The one object to apply by hand (`kubectl apply -f <platform>/flux/root.yaml`): it syncs
  // this folder (root.yaml itself and the phase Kustomizations) from the GitRepository, as the
  // app of apps' root Application does for Argo CD.
  const root = {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: prefix + platform, namespace: settings.flux.namespace, labels: { 'app.kubernetes.io/part-of': platform } },
    spec: {
      interval: settings.flux.interval,
      path: `./${repositoryPath(base, platform, 'flux')}`,
      prune: true,
      sourceRef: { kind: 'GitRepository', name: settings.flux.sourceName },
    },
  };
  return {
    kustomizations,
    root,
    files: new Map([['flux/kustomizations.yaml', toYamlDocuments(kustomizations)], ['flux/root.yaml', toYamlDocuments([root])]]),
  };
}
