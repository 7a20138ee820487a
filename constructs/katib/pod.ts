import { RootFilesystem } from '../../lib/security';

/** Pod and container settings shared by Katib's workloads (Pod Security "restricted"). */
export const RESTRICTED_POD = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };

/**
 * A container security context that passes Pod Security "restricted". The root filesystem
 * is left as upstream leaves it (writable) unless `rootFilesystem` says where the program writes.
 */
export function restrictedContainer(opts: { runAsUser?: number; rootFilesystem?: RootFilesystem } = {}): Record<string, unknown> {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    privileged: false,
    readOnlyRootFilesystem: (opts.rootFilesystem ?? RootFilesystem.asUpstream()).readOnlyRootFilesystem,
    runAsNonRoot: true,
    runAsUser: opts.runAsUser,
  };
}

/** Labels of every Katib object (upstream's katib.kubeflow.org/component selects pods). */
export function katibLabels(component: string): Record<string, string> {
  return { 'katib.kubeflow.org/component': component };
}
