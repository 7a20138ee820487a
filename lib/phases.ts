import { ApiObject } from 'cdk8s';

/**
 * Apply phases: the first path segment of dist/<platform>/. Each phase is applied (and
 * waited for) before the next, so that a custom resource always follows its CRD and an
 * object that a fail-closed webhook intercepts always follows the webhook's backend.
 */
export enum Phase {
  /** Namespaces and CustomResourceDefinitions. */
  FOUNDATION = '00-foundation',
  /** Service accounts, RBAC, configuration, certificates, Deployments and Services. */
  CONTROLLERS = '10-controllers',
  /** Validating and mutating webhook configurations (their backends are up by now). */
  WEBHOOKS = '20-webhooks',
  /** Custom resources served by the platform's CRDs (default runtimes, queues...). */
  RESOURCES = '30-resources',
}

export const PHASES: Phase[] = [Phase.FOUNDATION, Phase.CONTROLLERS, Phase.WEBHOOKS, Phase.RESOURCES];

const explicit = new WeakMap<ApiObject, Phase>();

/** Puts an object into a phase other than the one its kind implies. */
export function setPhase(obj: ApiObject, phase: Phase): void {
  explicit.set(obj, phase);
}

/** The phase of an object: explicit, else by kind and by whether a platform CRD serves it. */
export function phaseOf(obj: ApiObject, isPlatformCustomResource: boolean): Phase {
  const set = explicit.get(obj);
  if (set) return set;
  switch (obj.kind) {
    case 'Namespace':
    case 'CustomResourceDefinition':
      return Phase.FOUNDATION;
    case 'ValidatingWebhookConfiguration':
    case 'MutatingWebhookConfiguration':
      return Phase.WEBHOOKS;
    default:
      return isPlatformCustomResource ? Phase.RESOURCES : Phase.CONTROLLERS;
  }
}

/**
 * Order of kinds inside one phase of one component: identities and permissions first,
 * then configuration and certificates, then Services, then workloads (so a pod starts
 * with its ServiceAccount, ConfigMaps and certificate Secret already there).
 */
const KIND_ORDER = [
  'Namespace', 'CustomResourceDefinition', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding',
  'ConfigMap', 'Secret', 'ClusterIssuer', 'Issuer', 'Certificate', 'Service', 'Deployment', 'StatefulSet', 'DaemonSet',
];

/** Rank of a kind inside a phase; kinds not listed keep declaration order after the listed ones. */
export function kindRank(kind: string): number {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
}
