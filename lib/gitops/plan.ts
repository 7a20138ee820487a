import { Phase, PHASES } from '../phases';
import { PlatformObject } from '../platform';
import type { PlatformBuild } from '../synth';
import { toYamlDocument } from '../yaml-writer';

/**
 * One step of a GitOps rollout: a phase folder of dist/<platform>/ that is applied, and
 * waited for, after the step before it. GitOps output is one unit per phase (not per
 * component and phase): the platform's checks prove order at phase granularity (every
 * custom resource follows its CRD, every fail-closed webhook follows its backend, whatever
 * component the object belongs to), and a phase is exactly the set of objects that may be
 * applied together. Splitting a phase by component would add units without adding order.
 */
export interface PhaseStep {
  readonly phase: Phase;
  /** Position among the platform's non-empty phases (0 for the first): the sync wave. */
  readonly wave: number;
  /** Files of the phase, relative to dist/<platform>/, in apply order. */
  readonly files: string[];
  /** Objects of the phase, in apply order. */
  readonly objects: PlatformObject[];
  /** The step this one waits for (undefined for the first). */
  readonly after?: Phase;
  /** Deployments of the phase (controllers whose readiness the next step waits for). */
  readonly deployments: Array<{ name: string; namespace: string }>;
  /**
   * What the next step waits for, beyond CRDs: the phase's Deployments, StatefulSets and
   * DaemonSets (node agents, metacontroller) and cert-manager Certificates (Ready once issued).
   */
  readonly healthChecks: Array<{ apiVersion: string; kind: string; name: string; namespace: string }>;
  /** The phase holds CRDs or Namespaces, which GitOps engines must not prune (PROTECTED_KINDS). */
  readonly hasProtected: boolean;
  /** The phase holds CustomResourceDefinitions (the next step needs them established). */
  readonly hasCrds: boolean;
  /** CRDs of the phase too large for client-side apply. */
  readonly largeCrds: string[];
}

/** Kinds whose readiness a GitOps engine waits for before the next phase (apiVersion kind). */
const HEALTH_CHECKED = ['apps/v1 Deployment', 'apps/v1 StatefulSet', 'apps/v1 DaemonSet', 'cert-manager.io/v1 Certificate'];

/**
 * Kinds no GitOps engine may delete on its own: removing a CRD deletes every custom resource
 * of it in the cluster, removing a Namespace everything in it. Deleting or renaming a phase's
 * Application or Kustomization, or dropping one from git, would otherwise do exactly that.
 */
export const PROTECTED_KINDS = ['CustomResourceDefinition', 'Namespace'];
/** Argo CD's per-resource sync options annotation. */
export const ARGOCD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
/** Argo CD: not pruned when gone from git, not deleted with its Application. */
export const ARGOCD_PROTECT_OPTIONS = ['Prune=false', 'Delete=false'];
/** Flux: never garbage-collected (prune and deletion of the Kustomization leave it). */
export const FLUX_PRUNE = 'kustomize.toolkit.fluxcd.io/prune';

/** The annotations that protect PROTECTED_KINDS, for the engines written. */
export function protectAnnotations(engines: { argocd: boolean; flux: boolean }): Record<string, string> {
  return {
    ...(engines.argocd ? { [ARGOCD_SYNC_OPTIONS]: ARGOCD_PROTECT_OPTIONS.join(',') } : {}),
    ...(engines.flux ? { [FLUX_PRUNE]: 'disabled' } : {}),
  };
}

/** The phase steps of a built platform, in apply order; empty phases are left out. */
export function phasePlan(build: PlatformBuild): PhaseStep[] {
  const large = new Set(build.largeCrds);
  const steps: PhaseStep[] = [];
  for (const phase of PHASES) {
    const objects = build.model.objects.filter((o) => o.phase === phase);
    if (!objects.length) continue;
    const files = [...build.files.keys()].filter((f) => f.startsWith(`${phase}/`) && f.endsWith('.yaml'));
    const crds = objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
    steps.push({
      phase,
      wave: steps.length,
      files,
      objects,
      after: steps.length ? steps[steps.length - 1].phase : undefined,
      deployments: objects.filter((o) => o.json.kind === 'Deployment').map((o) => ({ name: o.json.metadata.name, namespace: o.json.metadata.namespace ?? 'default' })),
      healthChecks: objects.filter((o) => HEALTH_CHECKED.includes(`${o.json.apiVersion} ${o.json.kind}`))
        .map((o) => ({ apiVersion: o.json.apiVersion, kind: o.json.kind, name: o.json.metadata.name, namespace: o.json.metadata.namespace ?? 'default' })),
      hasProtected: objects.some((o) => PROTECTED_KINDS.includes(o.json.kind)),
      hasCrds: crds.length > 0,
      largeCrds: crds.map((o) => o.json.metadata.name as string).filter((n) => large.has(n)),
    });
  }
  return steps;
}

/**
 * A kustomization.yaml for one phase folder, listing its files in apply order: Argo CD and
 * Flux point at phase folders and render them with kustomize, as does the platform's own
 * kustomization.yaml, which lists the phase folders.
 * With `protect` (the annotations of `protectAnnotations`), the phase's CRDs and Namespaces
 * get them through kustomize patches, so whatever engine syncs the folder never prunes them.
 */
export function phaseKustomization(step: PhaseStep, protect: Record<string, string> = {}): unknown {
  const kinds = Object.keys(protect).length && step.hasProtected ? PROTECTED_KINDS.filter((k) => step.objects.some((o) => o.json.kind === k)) : [];
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    sortOptions: { order: 'fifo' },
    resources: step.files.map((f) => f.slice(step.phase.length + 1)),
    ...(kinds.length ? {
      patches: kinds.map((kind) => ({
        target: { kind },
        patch: protectPatch(kind, protect),
      })),
    } : {}),
  };
}

/** A strategic merge patch adding the annotations (the target selects the objects; the name is a placeholder). */
function protectPatch(kind: string, annotations: Record<string, string>): string {
  const apiVersion = kind === 'Namespace' ? 'v1' : 'apiextensions.k8s.io/v1';
  return toYamlDocument({ apiVersion, kind, metadata: { name: 'protected', annotations } });
}

/** A DNS-1123 label from a prefix and a phase ('serving' + '10-controllers' -> 'serving-10-controllers'). */
export function stepName(platform: string, phase: Phase): string {
  return `${platform}-${phase}`;
}
