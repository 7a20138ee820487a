import type { PlatformBuild } from '../synth';
import { toYamlDocument } from '../yaml-writer';
import { applicationHealthConfig, argoCdApps, GitOpsLayout } from './argocd';
import { cmpApplication, configManagementPlugin } from './cmp';
import { fluxKustomizations } from './flux';
import { helmChart } from './helm';
import { phaseKustomization, phasePlan } from './plan';
import { ResolvedGitOpsSettings } from './settings';

/**
 * Every GitOps file of a built platform, relative to dist/<platform>/, all from the one
 * phase plan the platform resolves:
 * - `<phase>/kustomization.yaml`: each phase folder as a kustomize root (what Argo CD and Flux sync);
 * - `argocd/`: the app of apps (root.yaml, apps/<phase>.yaml); outside fleets also the config
 *   management plugin (cmp-plugin.yaml), an Application that uses it (cmp-application.yaml)
 *   and the argocd-cm health check for Applications that makes sync waves wait (argocd-cm-health.yaml);
 * - `flux/kustomizations.yaml`;
 * - `helm/`: a chart.
 * The platform's own kustomization.yaml lists the phase files, so `kubectl kustomize
 * dist/<platform>` still renders exactly the platform's objects.
 */
export function gitopsFiles(build: PlatformBuild, settings: ResolvedGitOpsSettings, layout: GitOpsLayout = {}): Map<string, string> {
  const files = new Map<string, string>();
  for (const step of phasePlan(build)) files.set(`${step.phase}/kustomization.yaml`, toYamlDocument(phaseKustomization(step)));
  for (const [f, t] of argoCdApps(build, settings, layout).files) files.set(f, t);
  if (!layout.namePrefix) {
    files.set('argocd/cmp-application.yaml', toYamlDocument(cmpApplication(build, settings)));
    files.set('argocd/cmp-plugin.yaml', toYamlDocument(configManagementPlugin(settings.argocd.namespace)));
    files.set('argocd/argocd-cm-health.yaml', toYamlDocument(applicationHealthConfig(settings.argocd.namespace)));
  }
  for (const [f, t] of fluxKustomizations(build, settings, layout.base).files) files.set(f, t);
  for (const [f, t] of helmChart(build, settings)) files.set(f, t);
  return files;
}
