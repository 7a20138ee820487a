import { ImageSpec } from '../../lib/images';

/** The AppWrapper release modelled here (CRD, webhooks, RBAC and configuration). */
export const APPWRAPPER_VERSION = 'v1.2.1';

/** Image keys of the AppWrapper component. */
export type AppWrapperImageKey = 'controller';

/** Every image AppWrapper runs, pinned to the release (override through the platform's images). */
export const APPWRAPPER_IMAGES: Readonly<Record<AppWrapperImageKey, ImageSpec>> = Object.freeze({
  controller: { repository: 'quay.io/ibm/appwrapper', tag: APPWRAPPER_VERSION },
});
