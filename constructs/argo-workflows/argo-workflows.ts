import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { ARGO_GROUP, CRDS } from './crds';
import { argoWorkflowsParityDeviations } from './parity';
import { ARGO_WORKFLOWS_IMAGES, ARGO_WORKFLOWS_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { Workload } from '../../lib/workload';

/** A key of a Secret the user provides (never a literal credential). */
export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

/** The default S3-compatible artifact repository of every workflow (workflow-controller-configmap). */
export interface S3ArtifactRepository {
  /** host:port of the S3 endpoint, e.g. seaweedfs.kubeflow:9000 */
  readonly endpoint: string;
  readonly bucket: string;
  /** @default false */
  readonly insecure?: boolean;
  readonly region?: string;
  /** Object key prefix of archived logs and outputs, as KFP sets it. @default - Argo's default */
  readonly keyFormat?: string;
  readonly accessKeySecret: SecretKeyRef;
  readonly secretKeySecret: SecretKeyRef;
}

export interface ArgoWorkflowsProps extends ComponentProps {
  /** @default 1 (leader election keeps one active) */
  readonly replicas?: number;
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
  /** The artifact repository workflows write to by default. @default - none configured */
  readonly artifactRepository?: S3ArtifactRepository;
  /** The argo-aggregate-to-admin/edit/view ClusterRoles (Kubernetes aggregation). @default true */
  readonly userRoles?: boolean;
  /**
   * Settings of the executor container the controller injects into every workflow pod
   * (workflow-controller-configmap key `executor`), e.g. a restricted security context.
   * @default - Argo's defaults
   */
  readonly executor?: ArgoExecutorSettings;
  /**
   * Defaults merged into every Workflow's spec (workflow-controller-configmap key
   * `workflowDefaults`), e.g. a TTL and a retry strategy.
   * @default - none
   */
  readonly workflowDefaults?: ArgoWorkflowDefaults;
  /**
   * A regular expression (Go syntax) of error messages the controller treats as transient,
   * retried by retryPolicy OnTransientError and OnError (env TRANSIENT_ERROR_PATTERN, read
   * by v4.0.5), e.g. Kubeflow Pipelines' node shutdown and preemption messages.
   * @default - Argo's built-in transient errors only
   */
  readonly transientErrorPattern?: string;
}

/** The executor container's settings (a subset of a Container: what Argo reads from the `executor` key). */
export interface ArgoExecutorSettings {
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  readonly securityContext?: k8s.SecurityContext;
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
}

/** What every Workflow gets unless it says otherwise. */
export interface ArgoWorkflowDefaults {
  /** Seconds to keep a finished Workflow (ttlStrategy), after completion, success and failure alike. */
  readonly ttlSecondsAfterFinished?: number;
  /** Retries of a failed step (templateDefaults.retryStrategy). */
  readonly retry?: { readonly limit: number; readonly retryPolicy: 'Always' | 'OnFailure' | 'OnError' | 'OnTransientError' };
}

export const WORKFLOW_CONTROLLER = 'workflow-controller';
export const WORKFLOW_CONTROLLER_CONFIGMAP = 'workflow-controller-configmap';
/** Upstream's PriorityClass of the controller (name and value from manifests/base at v4.0.5). */
export const WORKFLOW_CONTROLLER_PRIORITY_CLASS = 'workflow-controller';
const SERVICE_ACCOUNT = 'argo';

const WORKFLOW_KINDS = ['workflows', 'workflows/finalizers', 'workfloweventbindings', 'workfloweventbindings/finalizers', 'workflowtemplates', 'workflowtemplates/finalizers',
  'cronworkflows', 'cronworkflows/finalizers', 'clusterworkflowtemplates', 'clusterworkflowtemplates/finalizers'];

/**
 * What the workflow controller needs cluster-wide (upstream's argo-cluster-role): it runs
 * workflow pods, their claims and disruption budgets, and reconciles the workflow kinds.
 */
export const ARGO_CONTROLLER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods', 'pods/exec'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.read('', 'configmaps', 'namespaces'),
  Rbac.verbs('', ['persistentvolumeclaims', 'persistentvolumeclaims/finalizers'], ['create', 'delete', 'get', 'update']),
  Rbac.manage(ARGO_GROUP, 'workflows', 'workflows/finalizers', 'workflowtasksets', 'workflowtasksets/finalizers', 'workflowartifactgctasks'),
  Rbac.read(ARGO_GROUP, 'workflowtemplates', 'workflowtemplates/finalizers', 'clusterworkflowtemplates', 'clusterworkflowtemplates/finalizers'),
  Rbac.verbs(ARGO_GROUP, ['workflowtaskresults'], ['deletecollection', 'list', 'watch']),
  Rbac.verbs('', ['serviceaccounts'], ['get', 'list']),
  Rbac.verbs(ARGO_GROUP, ['cronworkflows', 'cronworkflows/finalizers'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.verbs('policy', ['poddisruptionbudgets'], ['create', 'delete', 'get']),
  { apiGroups: [''], resources: ['secrets'], resourceNames: ['argo-workflows-agent-ca-certificates'], verbs: ['get'] },
];

/**
 * The argo-aggregate-to-admin/edit/view ClusterRoles: the workflow kinds for namespace
 * admins, editors and viewers, through Kubernetes' aggregation labels. Shipped by Argo
 * Workflows and, with the same rules, by the Data Science Pipelines Operator.
 */
export function addArgoUserRoles(scope: Construct): void {
  const resources = [...WORKFLOW_KINDS, 'workflowtaskresults', 'workflowtaskresults/finalizers'];
  const write = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  roleObject(scope, 'AggregateToAdmin', {
    name: 'argo-aggregate-to-admin',
    labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    rules: [Rbac.verbs(ARGO_GROUP, [...resources, 'workflowtasksets', 'workflowtasksets/finalizers'], write)],
  });
  roleObject(scope, 'AggregateToEdit', { name: 'argo-aggregate-to-edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }, rules: [Rbac.verbs(ARGO_GROUP, resources, write)] });
  roleObject(scope, 'AggregateToView', { name: 'argo-aggregate-to-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, rules: [Rbac.read(ARGO_GROUP, ...resources)] });
}

/**
 * Argo Workflows v4.0.5 as Kubeflow Pipelines 2.17.0 installs it: the eight minimal
 * argoproj.io CRDs, the workflow controller (cluster-wide, with its configuration map and
 * the executor image it injects), and the aggregated admin/edit/view roles.
 */
export class ArgoWorkflows extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return ARGO_WORKFLOWS_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = ARGO_WORKFLOWS_IMAGES;
  public readonly controller: Workload;
  /** Whether it emits the argo-aggregate-to-admin/edit/view ClusterRoles. */
  public readonly userRoles: boolean;

  constructor(scope: Platform, id: string, props: ArgoWorkflowsProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} is not allowed; set a whole number >= 1 (leader election keeps one controller active)`);
    }
    const repo = props.artifactRepository;
    if (repo && !/^[^/:]+(:\d+)?$/.test(repo.endpoint)) {
      throw new Error(`${this.node.path}: artifactRepository.endpoint '${repo.endpoint}' must be host[:port] without a scheme (use insecure: true for plain HTTP)`);
    }
    if (props.transientErrorPattern !== undefined && !props.transientErrorPattern.trim()) {
      throw new Error(`${this.node.path}: transientErrorPattern is empty, which would match every error message; give a regular expression of transient errors, or leave it out`);
    }
    this.addNamespace();
    for (const def of CRDS) this.addCrd(def);

    const config: Record<string, string> = {};
    if (repo) {
      config.artifactRepository = stringify({
        archiveLogs: true,
        s3: {
          endpoint: repo.endpoint,
          bucket: repo.bucket,
          insecure: repo.insecure ?? false,
          region: repo.region,
          keyFormat: repo.keyFormat,
          accessKeySecret: repo.accessKeySecret,
          secretKeySecret: repo.secretKeySecret,
        },
      });
    }
    if (props.executor) config.executor = stringify(props.executor);
    const defaults = props.workflowDefaults;
    if (defaults) {
      const ttl = defaults.ttlSecondsAfterFinished;
      if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 0)) {
        throw new Error(`${this.node.path}: workflowDefaults.ttlSecondsAfterFinished ${ttl} is not allowed; set a whole number of seconds >= 0`);
      }
      const limit = defaults.retry?.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        throw new Error(`${this.node.path}: workflowDefaults.retry.limit ${limit} is not allowed; set a whole number >= 0`);
      }
      const spec: Record<string, unknown> = {};
      if (ttl !== undefined) spec.ttlStrategy = { secondsAfterCompletion: ttl, secondsAfterSuccess: ttl, secondsAfterFailure: ttl };
      // Argo reads the limit as an int-or-string; KFP writes it as a string.
      if (defaults.retry) spec.templateDefaults = { retryStrategy: { limit: String(defaults.retry.limit), retryPolicy: defaults.retry.retryPolicy } };
      config.workflowDefaults = stringify({ spec });
    }
    // Upstream's PriorityClass: the controller is scheduled (and kept) before workflow pods.
    new k8s.KubePriorityClass(this, 'PriorityClass', {
      metadata: { name: WORKFLOW_CONTROLLER_PRIORITY_CLASS },
      value: 1000000,
    });
    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: WORKFLOW_CONTROLLER_CONFIGMAP, namespace: this.namespaceName },
      data: Object.keys(config).length ? config : undefined,
    });

    this.controller = new Workload(this, 'WorkflowController', {
      name: WORKFLOW_CONTROLLER,
      containerName: WORKFLOW_CONTROLLER,
      serviceAccountName: SERVICE_ACCOUNT,
      image: this.image('workflowController'),
      command: ['workflow-controller'],
      args: ['--configmap', WORKFLOW_CONTROLLER_CONFIGMAP, '--executor-image', this.image('executor')],
      env: [
        ...(props.transientErrorPattern !== undefined ? [{ name: 'TRANSIENT_ERROR_PATTERN', value: props.transientErrorPattern }] : []),
        { name: 'LEADER_ELECTION_IDENTITY', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      ],
      selectorLabels: { app: WORKFLOW_CONTROLLER },
      priorityClassName: WORKFLOW_CONTROLLER_PRIORITY_CLASS,
      // Read-only root as upstream's; the controller writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      ports: [{ name: 'metrics', containerPort: 9090 }, { name: 'healthz', containerPort: 6060 }],
      // Upstream's metrics Service. UNCONFIRMED: whether v4.0.5 serves metrics over TLS by
      // default (metricsConfig.secure); the port and name are upstream's.
      service: { name: 'workflow-controller-metrics', ports: [{ name: 'metrics', port: 9090, targetPort: 'metrics' }] },
      livenessProbe: { httpGet: { path: '/healthz', port: 6060 }, initialDelaySeconds: 90, periodSeconds: 60, timeoutSeconds: 30, failureThreshold: 3 },
      replicas: props.replicas,
      resources: props.resources,
      rules: ARGO_CONTROLLER_RULES,
      namespacedRules: [Rbac.verbs('coordination.k8s.io', ['leases'], ['create', 'get', 'update']), Rbac.verbs('', ['secrets'], ['get'])],
    });

    this.declareParityDeviations(argoWorkflowsParityDeviations(this.image('executor'), { artifactRepository: repo !== undefined, executor: props.executor !== undefined, workflowDefaults: defaults !== undefined, transientErrorPattern: props.transientErrorPattern !== undefined }));

    this.userRoles = props.userRoles ?? true;
    if (this.userRoles) addArgoUserRoles(this);
  }
}
