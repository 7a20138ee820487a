import { ImageSpec } from '../../lib/images';

/**
 * DSPO release modelled. The inventory inspected main (5e01e73f, 2026-08-17); the latest
 * release tag then was v2.18.0, which we pin. UNCONFIRMED: that v2.18.0 matches main
 * (main serves DSPA v1 only; v1alpha1 was removed after the release).
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
  // Images.KubeRBACProxy, a required field of the manager's config.yaml (controllers/config/
  // defaults.go at v2.18.0). Upstream's odh overlay pins this repository by digest only
  // (sha256:eac5ade5fc49b724ef33c05c81bf960f7bec3f52faa2e44db249d05bcc45c280, tag not named);
  // the versions table needs a tag, so we pin the v4.18 minor: set that digest through the
  // platform's image overrides to match upstream byte for byte.
  kubeRbacProxy: { repository: 'registry.redhat.io/openshift4/ose-kube-rbac-proxy-rhel9', tag: 'v4.18' },
});
