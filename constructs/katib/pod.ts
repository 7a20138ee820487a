/** Pod and container settings shared by Katib's workloads (Pod Security "restricted"). */
export const RESTRICTED_POD = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };

/** Labels of every Katib object (upstream's katib.kubeflow.org/component selects pods). */
export function katibLabels(component: string): Record<string, string> {
  return { 'katib.kubeflow.org/component': component };
}
