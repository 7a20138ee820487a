import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/dashboard v2.0.0 (components/centraldashboard). */
export const CENTRAL_DASHBOARD_VERSION = 'v2.0.0';

export const CENTRAL_DASHBOARD_IMAGES: Readonly<Record<'dashboard', ImageSpec>> = Object.freeze({
  dashboard: { repository: 'ghcr.io/kubeflow/dashboard/dashboard', tag: CENTRAL_DASHBOARD_VERSION },
});
