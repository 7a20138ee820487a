import { ParityDeviation } from '../../lib/parity';

/** The models web app's differences from kubeflow/manifests v1.11.0's applications/kserve/models-web-app (overlays/kubeflow), and why. */
export function modelsWebAppParityDeviations(): ParityDeviation[] {
  return [];
}
