import { ApiObject } from 'cdk8s';

/**
 * Apply phases: the first path segment of dist/<platform>/. Each phase is applied (and
 * waited for) before the next, so that a custom resource always follows its CRD and an
 * object that a fail-closed webhook intercepts always follows the webhook's backend.
 */
export enum Phase {
  /** Namespaces and CustomResourceDefinitions. */
  FOUNDATION = '00-foundation',
  /**
   * Workloads, RBAC and configuration of infrastructure components (a component that
   * satisfies an infrastructure need, e.g. cert-manager): up before anything uses them.
   */
  INFRASTRUCTURE = '03-infrastructure',
  /** Webhook configurations of infrastructure components (their backends are up by now). */
  INFRASTRUCTURE_WEBHOOKS = '05-infrastructure-webhooks',
  /** Custom resources infrastructure components emit of their own kinds (e.g. a ClusterIssuer). */
  INFRASTRUCTURE_RESOURCES = '07-infrastructure-resources',
  /** Service accounts, RBAC, configuration, certificates, Deployments and Services. */
  CONTROLLERS = '10-controllers',
  /** Validating and mutating webhook configurations (their backends are up by now). */
  WEBHOOKS = '20-webhooks',
  /** Custom resources served by the platform's CRDs (default runtimes, queues...). */
  RESOURCES = '30-resources',
}

export const PHASES: Phase[] = [
  Phase.FOUNDATION, Phase.INFRASTRUCTURE, Phase.INFRASTRUCTURE_WEBHOOKS, Phase.INFRASTRUCTURE_RESOURCES,
  Phase.CONTROLLERS, Phase.WEBHOOKS, Phase.RESOURCES,
];

/** What decides an object's phase besides its kind. */
export interface PhaseContext {
  /** A platform CRD serves the object's kind. */
  readonly isPlatformCustomResource: boolean;
  /** The object belongs to an infrastructure component. @default false */
  readonly infrastructure?: boolean;
  /**
   * The object's kind is served by an infrastructure component (e.g. another component's
   * Certificate when cert-manager is in the platform): it is applied with the controllers,
   * after the infrastructure phases, since the workloads that follow need what it yields.
   * @default false
   */
  readonly servedByInfrastructure?: boolean;
}

const explicit = new WeakMap<ApiObject, Phase>();

/** Puts an object into a phase other than the one its kind implies. */
export function setPhase(obj: ApiObject, phase: Phase): void {
  explicit.set(obj, phase);
}

/**
 * The phase of an object: explicit, else by kind, by whether a platform CRD serves it, and
 * by whether it belongs to (or its kind is served by) an infrastructure component.
 */
export function phaseOf(obj: ApiObject, context: boolean | PhaseContext): Phase {
  const set = explicit.get(obj);
  if (set) return set;
  const ctx: PhaseContext = typeof context === 'boolean' ? { isPlatformCustomResource: context } : context;
  const webhook = obj.kind === 'ValidatingWebhookConfiguration' || obj.kind === 'MutatingWebhookConfiguration';
  if (obj.kind === 'Namespace' || obj.kind === 'CustomResourceDefinition') return Phase.FOUNDATION;
  if (ctx.infrastructure) {
    if (webhook) return Phase.INFRASTRUCTURE_WEBHOOKS;
    return ctx.isPlatformCustomResource && ctx.servedByInfrastructure ? Phase.INFRASTRUCTURE_RESOURCES : Phase.INFRASTRUCTURE;
  }
  if (webhook) return Phase.WEBHOOKS;
  if (!ctx.isPlatformCustomResource) return Phase.CONTROLLERS;
  return ctx.servedByInfrastructure ? Phase.CONTROLLERS : Phase.RESOURCES;
}

/**
 * Order of kinds inside one phase of one component: priority classes, identities and permissions first,
 * then configuration and certificates, then Services, then workloads (so a pod starts
 * with its ServiceAccount, ConfigMaps and certificate Secret already there).
 */
const KIND_ORDER = [
  // A PriorityClass before the workloads whose pods name it (admission rejects pods of a missing class).
  'Namespace', 'CustomResourceDefinition', 'PriorityClass', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding',
  'ConfigMap', 'Secret', 'ClusterIssuer', 'Issuer', 'Certificate', 'Service', 'Deployment', 'StatefulSet', 'DaemonSet',
];

/** Rank of a kind inside a phase; kinds not listed keep declaration order after the listed ones. */
export function kindRank(kind: string): number {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
}
