import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/dashboard v2.0.0 (components/poddefaults-webhooks). */
export const POD_DEFAULTS_VERSION = 'v2.0.0';

/** Images of the PodDefault admission webhook, by key. */
export const POD_DEFAULTS_IMAGES: Readonly<Record<'webhook', ImageSpec>> = Object.freeze({
  webhook: { repository: 'ghcr.io/kubeflow/dashboard/poddefaults-webhook', tag: POD_DEFAULTS_VERSION },
});
