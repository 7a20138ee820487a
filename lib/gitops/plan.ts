import { Phase, PHASES } from '../phases';
import { PlatformObject } from '../platform';
import type { PlatformBuild } from '../synth';

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
  /** The phase holds CustomResourceDefinitions (the next step needs them established). */
  readonly hasCrds: boolean;
  /** CRDs of the phase too large for client-side apply. */
  readonly largeCrds: string[];
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
      hasCrds: crds.length > 0,
      largeCrds: crds.map((o) => o.json.metadata.name as string).filter((n) => large.has(n)),
    });
  }
  return steps;
}

/**
 * A kustomization.yaml for one phase folder, listing its files in apply order: Argo CD and
 * Flux point at phase folders and render them with kustomize. The platform's own
 * kustomization.yaml lists files, not folders, so it renders every phase unchanged.
 */
export function phaseKustomization(step: PhaseStep): unknown {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    sortOptions: { order: 'fifo' },
    resources: step.files.map((f) => f.slice(step.phase.length + 1)),
  };
}

/** A DNS-1123 label from a prefix and a phase ('serving' + '10-controllers' -> 'serving-10-controllers'). */
export function stepName(platform: string, phase: Phase): string {
  return `${platform}-${phase}`;
}
