import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { KueueManagerConfigProps, renderManagerConfig, validateManagerConfig } from './config';
import { clusterQueueCrd, cohortCrd, CRDS, localQueueCrd, multiKueueClusterCrd, workloadCrd } from './crds';
import { BUILTIN_INTEGRATIONS, INTEGRATIONS, IntegrationInfo, KueueIntegration, webhookPath } from './integrations';
import { kueueParityDeviations } from './parity';
import { integrationUserRoles, KUEUE_USER_ROLES, MANAGER_NAMESPACED_RULES, MANAGER_RULES } from './rbac';
import { KueueUserRoles } from './user-roles';
import { KUEUE_IMAGES, KUEUE_KUBERNETES, KUEUE_VERSION } from './versions';
import { KueueVisibilityServer } from './visibility';
import {
  ClusterQueue, ClusterQueueSpec, LocalQueue, LocalQueueSpec, ResourceFlavor, ResourceFlavorSpec,
} from '../../imports/kueue.x-k8s.io';
import { selectorMatches } from '../../lib/checks';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { ResourceRef } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { LabelSelector, WebhookProps, WebhookServer } from '../../lib/webhook-server';

export interface KueueProps extends ComponentProps {
  /**
   * The job integrations to enable (Configuration.integrations.frameworks). Each one gets
   * its mutating and validating webhooks, the manager's RBAC on its kind, editor/viewer
   * roles, and a requirement on the component that provides its kind (an integration
   * whose kind no component of the platform provides fails the build).
   * See UPSTREAM_DEFAULT_INTEGRATIONS for the list upstream's default configuration enables.
   * @default BUILTIN_INTEGRATIONS: batch/job, pod, deployment, statefulset
   */
  readonly integrations?: KueueIntegration[];
  /** The rest of the manager configuration. @default - upstream's defaults */
  readonly config?: KueueManagerConfigProps;
  /** Manager replicas (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** @default requests 500m/512Mi, limits 2 CPUs/512Mi (upstream's) */
  readonly resources?: ControllerResources;
  /** Feature gates, rendered as --feature-gates. @default - none (upstream's defaults) */
  readonly featureGates?: Record<string, boolean>;
  /** The visibility API (APIServices, Service, auth-reader RoleBinding). @default true */
  readonly visibility?: boolean;
}

export interface AddResourceFlavorProps {
  /** @default the id */
  readonly name?: string;
  /** @default {} (a flavor matching every node) */
  readonly spec?: ResourceFlavorSpec;
}

export interface AddClusterQueueProps {
  /** @default the id */
  readonly name?: string;
  readonly spec: ClusterQueueSpec;
}

export interface AddLocalQueueProps {
  readonly namespace: string;
  /** @default the id */
  readonly name?: string;
  /** The ClusterQueue it submits to: a name, or one added with addClusterQueue. */
  readonly clusterQueue: string | ClusterQueue;
  /** Other LocalQueue fields (stopPolicy, fairSharing). */
  readonly spec?: Omit<LocalQueueSpec, 'clusterQueue'>;
}

/** Upstream's names (kustomize prefix kueue-), kept so that docs and tooling apply. */
export const KUEUE_NAMES = {
  controller: 'kueue-controller-manager',
  webhookService: 'kueue-webhook-service',
  webhookSecret: 'kueue-webhook-server-cert',
  certificate: 'kueue-serving-cert',
  configMap: 'kueue-manager-config',
  configKey: 'controller_manager_config.yaml',
  mutatingConfiguration: 'kueue-mutating-webhook-configuration',
  validatingConfiguration: 'kueue-validating-webhook-configuration',
  leaderElectionId: 'c1f6bfd2.kueue.x-k8s.io',
} as const;

const PORTS = { health: 8081, metrics: 8443, webhook: 9443, visibility: 8082 } as const;
const GROUP = 'kueue.x-k8s.io';

/**
 * Kueue v0.19.2: the kueue.x-k8s.io CRDs, the manager (controllers, admission and conversion
 * webhooks, the visibility API server), its configuration, RBAC, and user-facing roles.
 * Which job kinds it manages is a typed prop; its default queues are added with
 * addResourceFlavor / addClusterQueue / addLocalQueue.
 *
 * Deliberate differences from upstream's install: upstream registers the webhooks (21
 * mutating, 22 validating) and grants the RBAC of every integration whether or not it is
 * enabled; here the job webhooks, the manager's rules on job kinds and the per-kind
 * editor/viewer roles follow the enabled integrations (all of them gives upstream's set).
 * With cert-manager, only the webhook certificate is issued: upstream's cert-manager overlay
 * also issues metrics and visibility certificates, which the manager otherwise generates
 * itself (whether v0.19.2 needs them mounted when internalCertManagement is off is not
 * confirmed).
 */
export class Kueue extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return KUEUE_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = KUEUE_IMAGES;
  public readonly integrations: readonly KueueIntegration[];
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  public readonly configMap: ApiObject;
  public readonly visibilityServer?: KueueVisibilityServer;
  private readonly flavors: ResourceFlavor[] = [];
  private readonly clusterQueues: ClusterQueue[] = [];
  private readonly localQueues: LocalQueue[] = [];

  constructor(scope: Platform, id: string, props: KueueProps = {}) {
    super(scope, id, props.namespace ?? 'kueue-system', props);
    this.requireKubernetes(KUEUE_KUBERNETES);
    const ns = this.namespaceName;
    const integrations = props.integrations ?? [...BUILTIN_INTEGRATIONS];
    const problems = validateManagerConfig(integrations, props.config ?? {});
    problems.push(...validateFeatureGates(props.featureGates ?? {}));
    if (integrations.includes('pod') && props.config?.managedJobsNamespaceSelector) {
      for (const system of ['kube-system', ns]) {
        if (selectorMatches(props.config.managedJobsNamespaceSelector, { 'kubernetes.io/metadata.name': system })) {
          problems.push(`config.managedJobsNamespaceSelector selects namespace '${system}' while the pod integration is on: Kueue would gate its own and the system's pods; exclude it (kubernetes.io/metadata.name NotIn [kube-system, ${ns}])`);
        }
      }
    }
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);
    this.integrations = integrations;
    this.declareParityDeviations(kueueParityDeviations(integrations));
    const enabled = integrations.map((n) => INTEGRATIONS[n]);

    this.addNamespace({ 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'kueue' });
    const crds = new Map(CRDS.map((d) => [d.kind, this.addCrd(d)]));

    // --- requirements: the kinds of the enabled integrations ---------------------------
    for (const i of enabled.filter((x) => !x.builtin)) {
      this.require({ group: i.group, kind: i.kind, version: i.version, reason: `the '${i.name}' integration is enabled: Kueue's webhooks and controller manage ${i.group}/${i.version} ${i.kind}s (provided by ${i.providedBy})` });
    }

    // --- manager ---------------------------------------------------------------------------
    const selectorLabels = { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'kueue' };
    this.controller = new Controller(this, 'ControllerManager', {
      name: KUEUE_NAMES.controller,
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--config=/controller_manager_config.yaml', '--zap-log-level=2', ...featureGateArgs(props.featureGates ?? {})],
      selectorLabels,
      // Read-only root as upstream's; the visibility server writes its self-signed serving
      // certificate under /visibility at start (KUEUE-VIS: without it the manager exits and the
      // fail-closed job webhooks reject every Job).
      rootFilesystem: RootFilesystem.readOnly([{ name: 'visibility', mountPath: '/visibility' }]),
      ports: { health: PORTS.health, webhook: PORTS.webhook, extra: props.visibility ?? true ? [{ name: 'visibility', containerPort: PORTS.visibility }] : [] },
      // controller-runtime secure metrics; the bind address is set in the configuration file.
      metrics: ControllerMetrics.secure(PORTS.metrics, { serviceName: 'kueue-controller-manager-metrics-service', portName: 'https' }),
      replicas: props.replicas,
      leaderElectionId: KUEUE_NAMES.leaderElectionId,
      resources: props.resources ?? { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '2', memory: '512Mi' } },
      owns: [workloadCrd],
      rules: [...MANAGER_RULES, ...enabled.flatMap((i) => i.managerRules)],
      namespacedRules: MANAGER_NAMESPACED_RULES,
      watches: watchesOf(enabled),
      volumes: [{ name: 'manager-config', configMap: { name: KUEUE_NAMES.configMap } }],
      volumeMounts: [{ name: 'manager-config', mountPath: '/controller_manager_config.yaml', subPath: KUEUE_NAMES.configKey }],
    });

    // --- webhooks ----------------------------------------------------------------------------
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: KUEUE_NAMES.webhookService,
      secretName: KUEUE_NAMES.webhookSecret,
      certificateName: KUEUE_NAMES.certificate,
      // Kueue rotates its own certificate (internalCertManagement) and also supports cert-manager.
      selfManaged: {},
    });
    const { mutating, validating } = kueueWebhooks(enabled, ns);
    for (const w of mutating) this.webhookServer.addMutatingWebhook(KUEUE_NAMES.mutatingConfiguration, w);
    for (const w of validating) this.webhookServer.addValidatingWebhook(KUEUE_NAMES.validatingConfiguration, w);
    for (const def of [clusterQueueCrd, cohortCrd, localQueueCrd, multiKueueClusterCrd, workloadCrd]) {
      this.webhookServer.serveConversion(crds.get(def.kind)!);
    }

    // --- configuration -------------------------------------------------------------------------
    this.configMap = new k8s.KubeConfigMap(this, 'ManagerConfig', {
      metadata: { name: KUEUE_NAMES.configMap, namespace: ns, labels: selectorLabels },
      data: {
        [KUEUE_NAMES.configKey]: renderManagerConfig({
          namespace: ns,
          integrations,
          internalCertManagement: this.webhookServer.selfManaged,
          webhookServiceName: KUEUE_NAMES.webhookService,
          webhookSecretName: KUEUE_NAMES.webhookSecret,
          leaderElectionId: KUEUE_NAMES.leaderElectionId,
          healthPort: PORTS.health,
          metricsPort: PORTS.metrics,
          webhookPort: PORTS.webhook,
          props: props.config ?? {},
        }),
      },
    });

    // --- visibility API and user-facing roles -----------------------------------------------
    if (props.visibility ?? true) {
      this.visibilityServer = new KueueVisibilityServer(this, 'VisibilityServer', { controller: this.controller, port: PORTS.visibility });
    }
    new KueueUserRoles(this, 'UserRoles', { roles: [...KUEUE_USER_ROLES, ...enabled.flatMap(integrationUserRoles)] });

    this.node.addValidation({ validate: () => this.checkQueueReferences() });
  }

  /** A ResourceFlavor (kueue.x-k8s.io/v1beta2), applied after the CRDs and the webhooks' backend. */
  public addResourceFlavor(id: string, props: AddResourceFlavorProps = {}): ResourceFlavor {
    const rf = new ResourceFlavor(this, `ResourceFlavor-${id}`, { metadata: { name: props.name ?? id }, spec: props.spec ?? {} });
    this.flavors.push(rf);
    return rf;
  }

  /** A ClusterQueue; every flavor it gives quota for must be a ResourceFlavor of the platform. */
  public addClusterQueue(id: string, props: AddClusterQueueProps): ClusterQueue {
    const cq = new ClusterQueue(this, `ClusterQueue-${id}`, { metadata: { name: props.name ?? id }, spec: props.spec });
    this.clusterQueues.push(cq);
    return cq;
  }

  /** A LocalQueue in a namespace; its ClusterQueue must be one of the platform. */
  public addLocalQueue(id: string, props: AddLocalQueueProps): LocalQueue {
    const cqName = typeof props.clusterQueue === 'string' ? props.clusterQueue : props.clusterQueue.metadata.name!;
    const lq = new LocalQueue(this, `LocalQueue-${id}`, {
      metadata: { name: props.name ?? id, namespace: props.namespace },
      spec: { ...(props.spec ?? {}), clusterQueue: cqName },
    });
    this.localQueues.push(lq);
    return lq;
  }

  /** Queues must reference flavors and ClusterQueues that the platform emits. */
  private checkQueueReferences(): string[] {
    const all = this.platform.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && c.apiVersion.startsWith(`${GROUP}/`));
    const names = (kind: string) => new Set(all.filter((o) => o.kind === kind).map((o) => o.metadata.name));
    const flavors = names('ResourceFlavor');
    const queues = names('ClusterQueue');
    const out: string[] = [];
    for (const cq of this.clusterQueues) {
      for (const rg of cq.spec.resourceGroups ?? []) {
        for (const f of rg.flavors) {
          if (!flavors.has(f.name)) {
            out.push(`${cq.node.path}: ClusterQueue '${cq.metadata.name}' gives quota for ResourceFlavor '${f.name}', which is not in the platform; add it with addResourceFlavor('${f.name}') or fix the name (flavors: ${[...flavors].sort().join(', ') || 'none'})`);
          }
        }
      }
    }
    for (const lq of this.localQueues) {
      const cq = (lq.spec as LocalQueueSpec).clusterQueue!;
      if (!queues.has(cq)) {
        out.push(`${lq.node.path}: LocalQueue '${lq.metadata.namespace}/${lq.metadata.name}' submits to ClusterQueue '${cq}', which is not in the platform; add it with addClusterQueue('${cq}', ...) or fix the name (cluster queues: ${[...queues].sort().join(', ') || 'none'})`);
      }
    }
    return out;
  }
}

/** The admission webhooks of Kueue's own kinds and of the enabled integrations, sorted by name as upstream's manifests. */
export function kueueWebhooks(enabled: readonly IntegrationInfo[], namespace: string): { mutating: WebhookProps[]; validating: WebhookProps[] } {
  const own = (kind: string, plural: string, ops: WebhookProps['rules'][number]['operations'], extra: string[] = []): WebhookProps => ({
    name: `${ops.length === 1 ? 'm' : 'v'}${kind}.kb.io`,
    path: webhookPath(ops.length === 1 ? 'mutate' : 'validate', { group: GROUP, version: 'v1beta2', kind }),
    rules: [{ apiGroups: [GROUP], apiVersions: ['v1beta2'], operations: ops, resources: [plural, ...extra] }],
  });
  // Jobs in kube-system and in Kueue's own namespace are never sent to Kueue (its own pods included).
  const namespaceSelector: LabelSelector = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', namespace] }] };
  const job = (i: IntegrationInfo, type: 'mutate' | 'validate'): WebhookProps => ({
    name: `${type[0]}${i.kind.toLowerCase()}.kb.io`,
    path: webhookPath(type, i),
    rules: [{ apiGroups: [i.group], apiVersions: [i.version], operations: type === 'mutate' ? i.mutateOn : ['CREATE', 'UPDATE'], resources: [i.resource] }],
    namespaceSelector,
  });
  const byName = (a: WebhookProps, b: WebhookProps) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return {
    mutating: [
      own('clusterqueue', 'clusterqueues', ['CREATE']),
      own('resourceflavor', 'resourceflavors', ['CREATE']),
      own('workload', 'workloads', ['CREATE']),
      ...enabled.map((i) => job(i, 'mutate')),
    ].sort(byName),
    validating: [
      own('clusterqueue', 'clusterqueues', ['CREATE', 'UPDATE']),
      own('cohort', 'cohorts', ['CREATE', 'UPDATE']),
      own('resourceflavor', 'resourceflavors', ['CREATE', 'UPDATE']),
      own('workload', 'workloads', ['CREATE', 'UPDATE'], ['workloads/status']),
      ...enabled.map((i) => job(i, 'validate')),
    ].sort(byName),
  };
}

/** What the manager watches: Kueue's kinds, the nodes and pods it schedules onto, and each enabled job kind. */
function watchesOf(enabled: readonly IntegrationInfo[]): ResourceRef[] {
  const kueue = ['admissionchecks', 'clusterqueues', 'cohorts', 'localqueues', 'multikueueclusters', 'multikueueconfigs', 'provisioningrequestconfigs', 'resourceflavors', 'topologies', 'workloadpriorityclasses'];
  const refs: ResourceRef[] = [
    ...kueue.map((resource) => ({ group: GROUP, resource })),
    ...['pods', 'namespaces', 'nodes', 'limitranges'].map((resource) => ({ group: '', resource })),
    { group: 'scheduling.k8s.io', resource: 'priorityclasses' },
    { group: 'node.k8s.io', resource: 'runtimeclasses' },
  ];
  for (const i of enabled) {
    if (i.group === '' && i.resource === 'pods') continue;
    refs.push({ group: i.group, resource: i.resource });
    if (i.name === 'trainer.kubeflow.org/trainjob') refs.push({ group: i.group, resource: 'trainingruntimes' }, { group: i.group, resource: 'clustertrainingruntimes' });
  }
  return refs;
}

const FEATURE_GATE = /^[A-Z][A-Za-z0-9]*$/;

function validateFeatureGates(gates: Record<string, boolean>): string[] {
  return Object.keys(gates).filter((k) => !FEATURE_GATE.test(k))
    .map((k) => `featureGates: '${k}' is not a feature gate name (UpperCamelCase, e.g. TopologyAwareScheduling)`);
}

function featureGateArgs(gates: Record<string, boolean>): string[] {
  const keys = Object.keys(gates).sort();
  return keys.length ? [`--feature-gates=${keys.map((k) => `${k}=${gates[k]}`).join(',')}`] : [];
}

