/** Pod and container settings shared by Katib's workloads (Pod Security "restricted"). */
export const RESTRICTED_POD = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };

/** A container security context that passes Pod Security "restricted". */
export function restrictedContainer(opts: { runAsUser?: number; readOnlyRootFilesystem?: boolean } = {}): Record<string, unknown> {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    privileged: false,
    readOnlyRootFilesystem: opts.readOnlyRootFilesystem ?? true,
    runAsNonRoot: true,
    runAsUser: opts.runAsUser,
  };
}

/** Labels of every Katib object (upstream's katib.kubeflow.org/component selects pods). */
export function katibLabels(component: string): Record<string, string> {
  return { 'katib.kubeflow.org/component': component };
}
