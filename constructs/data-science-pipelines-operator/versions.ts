import { ImageSpec } from '../../lib/images';

/**
 * DSPO release modelled: v2.18.0. Checked at that tag: its DSPA CRD serves v1 only, its
 * config.yaml keys and env (controllers/config/defaults.go, main.go), and the roles it
 * creates per DSPA (config/internal).
 */
export const DSPO_VERSION = 'v2.18.0';

export type DspoImageKey = 'operator' | 'apiServer' | 'persistenceAgent' | 'scheduledWorkflow' | 'launcher' | 'driver' | 'argoWorkflowController' | 'argoExec' | 'mlmdGrpc' | 'mlmdEnvoy' | 'mariadb' | 'kubeRbacProxy';

const dsp = (name: string): ImageSpec => ({ repository: `quay.io/opendatahub/${name}`, tag: DSPO_VERSION });

/**
 * The operator, and the operand images it deploys per DSPA (its IMAGES_* parameters).
 * Upstream's params.env uses moving tags (master, latest); we pin. UNCONFIRMED: the
 * operand tags of a DSPO v2.18.0 release (we pin the ds-pipelines images to v2.18.0, the
 * MLMD and MariaDB images to the tags named below).
 */
export const DSPO_IMAGES: Readonly<Record<DspoImageKey, ImageSpec>> = Object.freeze({
  operator: dsp('data-science-pipelines-operator'),
  apiServer: dsp('ds-pipelines-api-server'),
  persistenceAgent: dsp('ds-pipelines-persistenceagent'),
  scheduledWorkflow: dsp('ds-pipelines-scheduledworkflow'),
  launcher: dsp('ds-pipelines-launcher'),
  driver: dsp('ds-pipelines-driver'),
  argoWorkflowController: { repository: 'quay.io/opendatahub/ds-pipelines-argo-workflowcontroller', tag: '3.6.12' },
  argoExec: { repository: 'quay.io/opendatahub/ds-pipelines-argo-argoexec', tag: '3.6.12' },
  mlmdGrpc: { repository: 'quay.io/opendatahub/mlmd-grpc-server', tag: DSPO_VERSION },
  mlmdEnvoy: { repository: 'registry.redhat.io/openshift-service-mesh/proxyv2-rhel9', tag: '2.6' },
  mariadb: { repository: 'registry.redhat.io/rhel9/mariadb-105', tag: '1' },
  /**
   * The auth proxy it puts in front of each DSPA's API server (config.yaml Images.KubeRBACProxy,
   * required at start). Upstream's params.env pins Red Hat's build by digest only
   * (registry.redhat.io/openshift4/ose-kube-rbac-proxy-rhel9, a registry that needs a login);
   * we pin the public OKD build of the same proxy at a release tag, as the model registry
   * operator's table does.
   */
  kubeRbacProxy: { repository: 'quay.io/openshift/origin-kube-rbac-proxy', tag: '4.19' },
});
