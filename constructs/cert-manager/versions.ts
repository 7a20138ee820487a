import { ImageSpec } from '../../lib/images';

/** cert-manager v1.19.2 (released January 2026; quay.io/jetstack images tagged as the release). */
export const CERT_MANAGER_VERSION = 'v1.19.2';

export type CertManagerImageKey = 'controller' | 'cainjector' | 'webhook' | 'acmesolver';

const jetstack = (name: string): ImageSpec => ({ repository: `quay.io/jetstack/cert-manager-${name}`, tag: CERT_MANAGER_VERSION });

export const CERT_MANAGER_IMAGES: Readonly<Record<CertManagerImageKey, ImageSpec>> = Object.freeze({
  controller: jetstack('controller'),
  cainjector: jetstack('cainjector'),
  webhook: jetstack('webhook'),
  /** Started by the controller at run time for ACME HTTP-01 challenges (--acme-http01-solver-image). */
  acmesolver: jetstack('acmesolver'),
});
