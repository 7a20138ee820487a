import type { PlatformBuild } from '../synth';
import { toYamlDocument } from '../yaml-writer';
import { applicationHealthFile, argoCdApps, GitOpsLayout } from './argocd';
import { cmpApplication, configManagementPlugin } from './cmp';
import { fluxKustomizations } from './flux';
import { helmChart } from './helm';
import { phaseKustomization, phasePlan, protectAnnotations } from './plan';
import { ResolvedGitOpsSettings } from './settings';

/**
 * Every GitOps file of a built platform, relative to dist/<platform>/, all from the one
 * phase plan the platform resolves, in the formats `settings.formats` chooses:
 * - `<phase>/kustomization.yaml` (always): each phase folder as a kustomize root (what Argo CD
 *   and Flux sync), whose patches keep the engines from pruning CRDs and Namespaces;
 * - `argocd/`: the app of apps (root.yaml, apps/<phase>.yaml); outside fleets also the
 *   health check for Applications that makes sync waves wait (argocd-cm-health.yaml, or
 *   argocd-health-check.yaml for OpenShift GitOps) and, when chosen, the config management
 *   plugin (cmp-plugin.yaml) with an Application that uses it (cmp-application.yaml);
 * - `flux/kustomizations.yaml`;
 * - `helm/`: a chart (off by default: it repeats every object).
 * The platform's own kustomization.yaml then lists the phase folders (platformOutput), so
 * `kubectl kustomize dist/<platform>` renders the platform's objects with the phases' patches.
 */
export function gitopsFiles(build: PlatformBuild, settings: ResolvedGitOpsSettings, layout: GitOpsLayout = {}): Map<string, string> {
  const files = new Map<string, string>();
  const formats = settings.formats;
  const protect = protectAnnotations(formats);
  for (const step of phasePlan(build)) files.set(`${step.phase}/kustomization.yaml`, toYamlDocument(phaseKustomization(step, protect)));
  if (formats.argocd) {
    for (const [f, t] of argoCdApps(build, settings, layout).files) files.set(f, t);
    if (!layout.namePrefix) {
      if (formats.configManagementPlugin) {
        files.set('argocd/cmp-application.yaml', toYamlDocument(cmpApplication(build, settings)));
        files.set('argocd/cmp-plugin.yaml', toYamlDocument(configManagementPlugin(settings.argocd.namespace)));
      }
      const [file, health] = applicationHealthFile(settings);
      files.set(file, toYamlDocument(health));
    }
  }
  if (formats.flux) for (const [f, t] of fluxKustomizations(build, settings, layout).files) files.set(f, t);
  if (formats.helm) for (const [f, t] of helmChart(build, settings)) files.set(f, t);
  return files;
}
