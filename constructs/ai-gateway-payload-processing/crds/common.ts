import { metav1Condition } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

export const GROUP = 'inference.opendatahub.io';

/** A DNS-1123 subdomain-like name of an object in the same namespace. */
const NAME_PATTERN = '^[a-z0-9]([a-z0-9\\-]*[a-z0-9])?$';

export const localName = () => s.string({ minLength: 1, maxLength: 253, pattern: NAME_PATTERN });

/**
 * How the gateway authenticates to an external provider (upstream's AuthConfig at a369c3b):
 * `type` is optional, one of simple (a header), sigv4 or oauth2; `secretRef` is required.
 */
export const providerAuth = s.object({
  type: s.enum('simple', 'sigv4', 'oauth2').describe('Authentication scheme the provider expects: simple (a header carrying the key), sigv4 or oauth2.'),
  secretRef: s.object({
    name: localName().required(),
  }).named('ProviderSecretRef').required().describe('Secret (same namespace) holding the credentials, under the data key api-key.'),
}).named('ProviderAuth');

/** Lifecycle phase both kinds report. */
export const phase = () => s.enum('Pending', 'Ready', 'Failed');

/** Conditions as a plain list (upstream does not key them by type). */
export const conditions = () => s.array(metav1Condition());
