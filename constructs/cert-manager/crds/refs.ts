import { s } from '../../../lib/schema/dsl';

/**
 * References shared by cert-manager's kinds (cert-manager's `meta/v1` package): Secret keys,
 * named objects, issuers and service accounts. Written for this project; field names,
 * types and required fields are cert-manager v1.19's.
 */

/** A list of strings replaced as a whole on merge (cert-manager's lists carry no merge key). */
export const strings = () => s.array(s.string(), { listType: 'atomic' });

/** A key of a Secret in the object's namespace (or cert-manager's, for cluster-scoped issuers). */
export const secretKeySelector = () => s.object({
  name: s.string().required().describe('Name of the Secret.'),
  key: s.string().describe('Key in the Secret\'s data; some fields have a default.'),
}).named('SecretKeySelector');

/** A reference to an object by name only, e.g. a Secret holding credentials. */
export const localObjectReference = () => s.object({
  name: s.string().required().describe('Name of the object.'),
}).named('LocalObjectReference');

/** A reference to an Issuer, ClusterIssuer or external issuer. */
export const issuerRef = () => s.object({
  name: s.string().required().describe('Name of the issuer.'),
  kind: s.string().describe('Issuer (default) or ClusterIssuer, or an external issuer\'s kind.'),
  group: s.string().describe('API group of the issuer (default cert-manager.io).'),
}).named('IssuerReference');

/** A ServiceAccount cert-manager requests a short-lived bound token for. */
export const serviceAccountRef = () => s.object({
  name: s.string().required().describe('Name of the ServiceAccount, in the issuer\'s namespace.'),
  audiences: strings().describe('Audiences added to the token besides the default ones.'),
}).named('ServiceAccountRef');
