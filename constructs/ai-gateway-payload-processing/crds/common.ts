import { metav1Condition } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

export const GROUP = 'inference.opendatahub.io';

/** A DNS-1123 subdomain-like name of an object in the same namespace. */
const NAME_PATTERN = '^[a-z0-9]([a-z0-9\\-]*[a-z0-9])?$';

export const localName = () => s.string({ minLength: 1, maxLength: 253, pattern: NAME_PATTERN });

/** How the gateway authenticates to an external provider. */
export const providerAuth = s.object({
  type: s.enum('apikey', 'sigv4', 'oauth2').required().describe('Authentication scheme the provider expects.'),
  secretRef: s.object({
    name: localName().required(),
  }).named('ProviderSecretRef').required().describe('Secret (same namespace) holding the credentials.'),
}).named('ProviderAuth');

/** Lifecycle phase both kinds report. */
export const phase = () => s.enum('Pending', 'Ready', 'Failed');

/** Conditions as a plain list (upstream does not key them by type). */
export const conditions = () => s.array(metav1Condition());
