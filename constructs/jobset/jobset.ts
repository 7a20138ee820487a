import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { CRDS } from './crds';
import { JOBSET_GROUP } from './crds/jobset';
import { JOBSET_PARITY_DEVIATIONS } from './parity';
import { JOBSET_IMAGES, JOBSET_KUBERNETES, JOBSET_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { excludingNamespaces, WebhookServer } from '../../lib/webhook-server';

export interface JobSetProps extends ComponentProps {
  /** Replicas of the controller manager (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** @default requests 500m CPU / 128Mi, limit 4Gi memory (upstream's) */
  readonly resources?: ControllerResources;
  /** The jobset-editor-role and jobset-viewer-role ClusterRoles for users. @default true */
  readonly userRoles?: boolean;
}

const NAME = 'jobset-controller-manager';
/**
 * Upstream's full selector (v0.12.0 config/default: kustomize's labels plus
 * control-plane). `control-plane: controller-manager` alone is on the pods of most
 * kubebuilder operators: in a namespace shared with them (Open Data Hub), a Service selecting
 * by it alone sends webhook and conversion calls to other operators (JOBSET-SEL). Keeping
 * upstream's set also lets this Deployment take over one installed from upstream's
 * manifests (a Deployment's selector is immutable).
 */
const SELECTOR = {
  'app.kubernetes.io/instance': 'jobset',
  'app.kubernetes.io/managed-by': 'kustomize',
  'app.kubernetes.io/name': 'jobset',
  'control-plane': 'controller-manager',
};
const CONFIG_FILE = 'controller_manager_config.yaml';
export const JOBSET_WEBHOOK_SERVICE = 'jobset-webhook-service';
export const JOBSET_WEBHOOK_SECRET = 'jobset-webhook-server-cert';

/**
 * What the JobSet manager needs besides the JobSet CRD it owns (upstream's manager-role).
 * Upstream's cluster-wide get/update on webhook configurations serves the certificate
 * rotator: the WebhookServer grants that scoped to our configurations and CRD instead.
 */
const MANAGER_RULES: PolicyRule[] = [
  Rbac.read('', 'nodes'),
  Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'get', 'list', 'watch']),
  Rbac.verbs('', ['pods'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.manage('', 'services'),
  Rbac.verbs('', ['events'], ['create', 'patch', 'update', 'watch']),
  Rbac.verbs('events.k8s.io', ['events'], ['create', 'patch', 'update', 'watch']),
  ...Rbac.own('batch', 'jobs').slice(0, 2),
];

/**
 * JobSet v0.12.0 (kubernetes-sigs/jobset): the jobsets.jobset.x-k8s.io CRD, the controller
 * manager with its Configuration, its JobSet and pod admission webhooks and the CRD's
 * conversion webhook, all served with a certificate the controller rotates itself (or
 * cert-manager's, when the platform's provider is cert-manager and not self-managed),
 * and the editor and viewer roles. Kubeflow Trainer requires it; Kueue integrates it.
 */
export class JobSet extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return JOBSET_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = JOBSET_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: JobSetProps = {}) {
    super(scope, id, props.namespace ?? 'jobset-system', props);
    this.requireKubernetes(JOBSET_KUBERNETES);
    this.declareParityDeviations(JOBSET_PARITY_DEVIATIONS);
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} is not allowed; set a whole number >= 1 (leader election keeps one manager active)`);
    }
    this.addNamespace({ 'control-plane': 'controller-manager' });
    const crd = this.addCrd(CRDS[0]);

    this.controller = new Controller(this, 'ControllerManager', {
      name: NAME,
      image: this.image('controller'),
      command: ['/manager'],
      args: [`--config=/${CONFIG_FILE}`, '--zap-log-level=2'],
      selectorLabels: SELECTOR,
      // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      ports: { health: 8081, webhook: 9443 },
      // Secure metrics on 8443 (set by the manager's defaults; the Configuration file does not
      // override it). Service name as upstream's prometheus component names it.
      metrics: ControllerMetrics.secure(8443, { serviceName: 'jobset-metrics-service', portName: 'metrics' }),
      replicas: props.replicas,
      leaderElectionId: '6d4f6a47.jobset.x-k8s.io',
      resources: props.resources ?? { requests: { cpu: '500m', memory: '128Mi' }, limits: { memory: '4Gi' } },
      owns: [crd.definition],
      rules: MANAGER_RULES,
      watches: [
        { group: 'batch', resource: 'jobs' },
        { group: '', resource: 'pods' },
        { group: '', resource: 'services' },
        { group: '', resource: 'nodes' },
      ],
      volumes: [{ name: 'manager-config', configMap: { name: 'jobset-manager-config' } }],
      volumeMounts: [{ name: 'manager-config', mountPath: `/${CONFIG_FILE}`, subPath: CONFIG_FILE, readOnly: true }],
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: JOBSET_WEBHOOK_SERVICE,
      secretName: JOBSET_WEBHOOK_SECRET,
      certificateName: 'jobset-serving-cert',
      // Upstream rotates its own certificate by default and also supports cert-manager.
      selfManaged: {},
      // Where the platform isolates the namespace (kubeflow/manifests' jobset-webhook policy).
      isolationPolicy: { name: 'jobset-webhook' },
    });
    // The manager's Configuration: leader election as upstream's, and the certificate
    // rotation the webhook server chose.
    new k8s.KubeConfigMap(this, 'ManagerConfig', {
      metadata: { name: 'jobset-manager-config', namespace: this.namespaceName },
      data: {
        [CONFIG_FILE]: stringify({
          apiVersion: 'config.jobset.x-k8s.io/v1alpha1',
          kind: 'Configuration',
          leaderElection: { leaderElect: true },
          internalCertManagement: { enable: this.webhookServer.selfManaged },
        }),
      },
    });
    const w = this.webhookServer;
    const jobsets = [{ apiGroups: [JOBSET_GROUP], apiVersions: ['v1alpha2'], resources: ['jobsets'] }];
    const pods = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE' as const] }];
    const jobSetPods = { matchExpressions: [{ key: 'jobset.sigs.k8s.io/jobset-name', operator: 'Exists' as const }] };
    w.addMutatingWebhook('jobset-mutating-webhook-configuration', {
      name: 'mjobset.kb.io',
      path: '/mutate-jobset-x-k8s-io-v1alpha2-jobset',
      rules: jobsets.map((r) => ({ ...r, operations: ['CREATE'] })),
    });
    // Upstream selects JobSet pods in every namespace; we leave out kube-system and our own,
    // so that a down webhook never blocks pods there (MLP053).
    const podNamespaces = excludingNamespaces(['kube-system', this.namespaceName]);
    w.addMutatingWebhook('jobset-mutating-webhook-configuration', { name: 'mpod.kb.io', path: '/mutate--v1-pod', rules: pods, namespaceSelector: podNamespaces, objectSelector: jobSetPods });
    w.addValidatingWebhook('jobset-validating-webhook-configuration', {
      name: 'vjobset.kb.io',
      path: '/validate-jobset-x-k8s-io-v1alpha2-jobset',
      rules: jobsets.map((r) => ({ ...r, operations: ['CREATE', 'UPDATE'] })),
    });
    w.addValidatingWebhook('jobset-validating-webhook-configuration', { name: 'vpod.kb.io', path: '/validate--v1-pod', rules: pods, namespaceSelector: podNamespaces, objectSelector: jobSetPods });
    w.serveConversion(crd);

    if (props.userRoles ?? true) {
      const status = Rbac.verbs(JOBSET_GROUP, ['jobsets/status'], ['get']);
      roleObject(this, 'EditorRole', { name: 'jobset-editor-role', rules: [Rbac.manage(JOBSET_GROUP, 'jobsets'), status] });
      roleObject(this, 'ViewerRole', { name: 'jobset-viewer-role', rules: [Rbac.read(JOBSET_GROUP, 'jobsets'), status] });
    }
  }
}
