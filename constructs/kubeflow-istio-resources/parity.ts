import { ParityDeviation } from '../../lib/parity';

/** Differences from kubeflow/manifests v1.11.0's common/istio/kubeflow-istio-resources, and why. */
export function kubeflowIstioResourcesParityDeviations(): ParityDeviation[] {
  return [];
}
