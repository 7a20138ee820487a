import { issuerRef, localObjectReference, secretKeySelector, serviceAccountRef, strings } from './refs';
import { acmeChallengeSolver } from './solvers';
import { s } from '../../../lib/schema/dsl';

/**
 * Field schemas of cert-manager v1.19.2's v1 kinds, written for this project from the
 * cert-manager API (field names, types, enums, required fields and list types are
 * upstream's; descriptions are ours). Every kind is typed in full, ACME solvers included
 * (solvers.ts); the one open value is a DNS-01 webhook solver's `config`, as upstream.
 */
export { issuerRef, secretKeySelector };

/** A condition of a cert-manager resource (Ready, Issuing, Approved, Denied, InvalidRequest...). */
const condition = () => s.object({
  type: s.string().required().describe('Kind of condition, e.g. Ready.'),
  status: s.enum('True', 'False', 'Unknown').required().describe('True, False or Unknown.'),
  reason: s.string().describe('Why it last changed, in one CamelCase word.'),
  message: s.string().describe('Why it last changed, for people.'),
  lastTransitionTime: s.dateTime().describe('When its status last changed.'),
  observedGeneration: s.int64().describe('The generation of the object the condition was set for.'),
}).named('CertManagerCondition');

const conditions = () => s.array(condition(), { listType: 'map', listMapKeys: ['type'] }).describe('The resource\'s state as conditions.');

const nameConstraintItem = () => s.object({
  dnsDomains: strings().describe('DNS domains.'),
  ipRanges: strings().describe('IP ranges in CIDR notation.'),
  emailAddresses: strings().describe('E-mail addresses.'),
  uriDomains: strings().describe('URI domains.'),
}).named('NameConstraintItem');

const keystorePassword = {
  create: s.boolean().required().describe('Whether to write the keystore into the Secret.'),
  passwordSecretRef: secretKeySelector().describe('Secret key holding the keystore password (or give password).'),
  password: s.string().describe('The keystore password, literally (or give passwordSecretRef).'),
};

export const certificateSpec = s.object({
  secretName: s.string().required().describe('Secret the key pair and certificate are written to.'),
  issuerRef: issuerRef().required().describe('Who signs the certificate.'),
  commonName: s.string().describe('Subject common name (64 characters at most; not with literalSubject).'),
  dnsNames: strings().describe('DNS subject alternative names.'),
  ipAddresses: strings().describe('IP address subject alternative names.'),
  uris: strings().describe('URI subject alternative names.'),
  emailAddresses: strings().describe('E-mail subject alternative names.'),
  otherNames: s.array(s.object({
    oid: s.string().describe('Object identifier of the name type, in dotted form.'),
    utf8Value: s.string().describe('The name, as a UTF-8 string.'),
  }).named('OtherName'), { listType: 'atomic' }).describe('otherName subject alternative names.'),
  subject: s.object({
    organizations: strings(),
    countries: strings(),
    organizationalUnits: strings(),
    localities: strings(),
    provinces: strings(),
    streetAddresses: strings(),
    postalCodes: strings(),
    serialNumber: s.string(),
  }).named('X509Subject').describe('Subject attributes other than the common name.'),
  literalSubject: s.string().describe('The whole subject as an RFC 4514 string (not with subject or commonName).'),
  duration: s.string().describe('Requested lifetime as a Go duration, e.g. 2160h (default 90 days, at least 1h).'),
  renewBefore: s.string().describe('Renew this long before expiry (Go duration).'),
  renewBeforePercentage: s.int32().describe('Renew when this percentage of the lifetime is left (not with renewBefore).'),
  isCA: s.boolean().describe('Request a CA certificate (adds the cert sign usage).'),
  usages: strings().describe('Key usages and extended key usages, e.g. digital signature, key encipherment, server auth.'),
  privateKey: s.object({
    rotationPolicy: s.enum('Never', 'Always').describe('Whether a new key is generated at each issuance (default Always).'),
    encoding: s.enum('PKCS1', 'PKCS8').describe('Encoding of the private key in the Secret.'),
    algorithm: s.enum('RSA', 'ECDSA', 'Ed25519').describe('Key algorithm.'),
    size: s.int32().describe('Key size in bits (RSA) or curve size (ECDSA).'),
  }).named('CertificatePrivateKey').describe('How the private key is generated and stored.'),
  signatureAlgorithm: s.string().describe('Signature algorithm to request, e.g. SHA256WithRSA.'),
  encodeUsagesInRequest: s.boolean().describe('Put the usages into the CSR (default true).'),
  revisionHistoryLimit: s.int32().describe('How many CertificateRequests of past issuances to keep.'),
  secretTemplate: s.object({
    annotations: s.stringMap(),
    labels: s.stringMap(),
  }).named('CertificateSecretTemplate').describe('Labels and annotations copied onto the Secret.'),
  keystores: s.object({
    jks: s.object({ ...keystorePassword, alias: s.string().describe('Alias of the key in the keystore (default certificate).') }).named('JKSKeystore').describe('A JKS keystore in the Secret.'),
    pkcs12: s.object({ ...keystorePassword, profile: s.enum('LegacyRC2', 'LegacyDES', 'Modern2023').describe('Encryption profile of the keystore.') }).named('PKCS12Keystore').describe('A PKCS#12 keystore in the Secret.'),
  }).named('CertificateKeystores').describe('Keystores written next to the PEM files.'),
  additionalOutputFormats: s.array(s.object({
    type: s.enum('DER', 'CombinedPEM').required().describe('Extra format of the key and chain in the Secret.'),
  }).named('CertificateAdditionalOutputFormat'), { listType: 'atomic' }).describe('Extra formats written to the Secret.'),
  nameConstraints: s.object({
    critical: s.boolean().describe('Mark the extension critical.'),
    permitted: nameConstraintItem().describe('Names the CA may sign for.'),
    excluded: nameConstraintItem().describe('Names the CA may not sign for.'),
  }).named('NameConstraints').describe('Name constraints of a CA certificate.'),
}).named('CertificateSpec');

export const certificateStatus = s.object({
  conditions: conditions(),
  lastFailureTime: s.dateTime().describe('When the last issuance failed.'),
  failedIssuanceAttempts: s.int32().describe('Failed issuances in a row (for back-off).'),
  notBefore: s.dateTime().describe('Start of the issued certificate\'s validity.'),
  notAfter: s.dateTime().describe('End of the issued certificate\'s validity.'),
  renewalTime: s.dateTime().describe('When the certificate will be renewed.'),
  revision: s.int32().describe('Number of the current issuance.'),
  nextPrivateKeySecretName: s.string().describe('Secret holding the key of the issuance in progress.'),
}).named('CertificateStatus');

/** A PEM CA bundle in a Secret key (Vault and Venafi TPP connections). */
const caBundleSecretRef = (what: string) => secretKeySelector().describe(`Secret key holding a PEM CA bundle to trust ${what} with (not with caBundle).`);

/** Issuer and ClusterIssuer share one configuration: exactly one kind of CA. */
export const issuerSpec = s.object({
  selfSigned: s.object({
    crlDistributionPoints: strings().describe('CRL distribution points put into issued certificates.'),
  }).named('SelfSignedIssuer').describe('Each certificate signs itself.'),
  ca: s.object({
    secretName: s.string().required().describe('Secret with the CA key pair (tls.crt, tls.key).'),
    crlDistributionPoints: strings().describe('CRL distribution points put into issued certificates.'),
    ocspServers: strings().describe('OCSP servers put into issued certificates.'),
    issuingCertificateURLs: strings().describe('Where the CA certificate can be fetched, put into issued certificates.'),
  }).named('CAIssuer').describe('Sign with a CA key pair from a Secret.'),
  acme: s.object({
    server: s.string().required().describe('ACME directory URL.'),
    email: s.string().describe('Account e-mail.'),
    privateKeySecretRef: secretKeySelector().required().describe('Secret holding the ACME account key.'),
    preferredChain: s.string({ maxLength: 64 }).describe('Common name of the root to prefer among offered chains.'),
    caBundle: s.string({ format: 'byte' }).describe('PEM CA bundle to trust the ACME server with.'),
    skipTLSVerify: s.boolean().describe('Do not verify the ACME server\'s certificate (insecure).'),
    externalAccountBinding: s.object({
      keyID: s.string().required().describe('Key id at the CA.'),
      keySecretRef: secretKeySelector().required().describe('Secret holding the MAC key.'),
      keyAlgorithm: s.enum('HS256', 'HS384', 'HS512').describe('Deprecated MAC algorithm.'),
    }).named('ACMEExternalAccountBinding').describe('Binds the ACME account to an account at the CA.'),
    solvers: s.array(acmeChallengeSolver(), { listType: 'atomic' }).describe('How challenges are solved, chosen per name by their selectors.'),
    disableAccountKeyGeneration: s.boolean().describe('Use an existing account key only.'),
    enableDurationFeature: s.boolean().describe('Send the requested duration to the ACME server.'),
    profile: s.string().describe('ACME certificate profile to request.'),
  }).named('ACMEIssuer').describe('Obtain certificates from an ACME server (e.g. Let\'s Encrypt).'),
  vault: s.object({
    server: s.string().required().describe('Vault address.'),
    path: s.string().required().describe('Path of the PKI signing endpoint.'),
    namespace: s.string().describe('Vault namespace.'),
    caBundle: s.string({ format: 'byte' }).describe('PEM CA bundle to trust Vault with.'),
    caBundleSecretRef: caBundleSecretRef('Vault'),
    clientCertSecretRef: secretKeySelector().describe('Client certificate for mutual TLS.'),
    clientKeySecretRef: secretKeySelector().describe('Client key for mutual TLS.'),
    serverName: s.string().describe('TLS server name to verify.'),
    auth: s.object({
      tokenSecretRef: secretKeySelector().describe('Secret key holding a Vault token.'),
      appRole: s.object({
        path: s.string().required().describe('Mount path of the AppRole auth method, e.g. approle.'),
        roleId: s.string().required().describe('The AppRole role id.'),
        secretRef: secretKeySelector().required().describe('Secret key holding the AppRole secret id (key is needed).'),
      }).named('VaultAppRole').describe('Log in with AppRole.'),
      clientCertificate: s.object({
        mountPath: s.string().describe('Mount path of the cert auth method (default /v1/auth/cert).'),
        name: s.string().describe('Certificate role to log in as (default: any matching).'),
        secretName: s.string().describe('kubernetes.io/tls Secret with the client certificate and key.'),
      }).named('VaultClientCertificateAuth').describe('Log in with a TLS client certificate (HTTPS only).'),
      kubernetes: s.object({
        mountPath: s.string().describe('Mount path of the Kubernetes auth method (default /v1/auth/kubernetes).'),
        secretRef: secretKeySelector().describe('Secret key holding a ServiceAccount token (or give serviceAccountRef).'),
        serviceAccountRef: serviceAccountRef().describe('ServiceAccount for a short-lived bound token (or give secretRef).'),
        role: s.string().required().describe('Vault role to log in as.'),
      }).named('VaultKubernetesAuth').describe('Log in with a Kubernetes ServiceAccount token.'),
    }).named('VaultAuth').required().describe('How cert-manager logs in to Vault (one method).'),
  }).named('VaultIssuer').describe('Sign with HashiCorp Vault\'s PKI engine.'),
  venafi: s.object({
    zone: s.string().required().describe('Venafi policy zone.'),
    tpp: s.object({
      url: s.string().required().describe('Base URL of the TPP vedsdk endpoint.'),
      credentialsRef: localObjectReference().required().describe('Secret with access-token, or username and password.'),
      caBundle: s.string({ format: 'byte' }).describe('PEM CA bundle to trust TPP with.'),
      caBundleSecretRef: caBundleSecretRef('TPP'),
    }).named('VenafiTPP').describe('Trust Protection Platform (self-hosted) connection (not with cloud).'),
    cloud: s.object({
      url: s.string().describe('Base URL of Venafi Cloud (default: the public service).'),
      apiTokenSecretRef: secretKeySelector().required().describe('Secret key holding the API token.'),
    }).named('VenafiCloud').describe('Venafi Cloud (SaaS) connection (not with tpp).'),
  }).named('VenafiIssuer').describe('Sign with Venafi TPP or Venafi Cloud.'),
}).named('IssuerSpec');

export const issuerStatus = s.object({
  conditions: conditions(),
  acme: s.object({
    uri: s.string().describe('The ACME account URI.'),
    lastRegisteredEmail: s.string().describe('E-mail of the last registration.'),
    lastPrivateKeyHash: s.string().describe('Hash of the account key last registered.'),
  }).named('ACMEIssuerStatus').describe('The ACME account, for ACME issuers.'),
}).named('IssuerStatus');

export const certificateRequestSpec = s.object({
  request: s.string({ format: 'byte' }).required().describe('The PEM-encoded CSR.'),
  issuerRef: issuerRef().required().describe('Who signs it.'),
  duration: s.string().describe('Requested lifetime (Go duration).'),
  isCA: s.boolean().describe('Request a CA certificate.'),
  usages: s.array(s.string(), { listType: 'set' }).describe('Requested key usages.'),
  username: s.string().describe('Who created the request (set by cert-manager\'s webhook).'),
  uid: s.string().describe('UID of the requester (set by the webhook).'),
  groups: strings().describe('Groups of the requester (set by the webhook).'),
  extra: s.map(s.array(s.string())).describe('Extra attributes of the requester (set by the webhook).'),
}).named('CertificateRequestSpec');

export const certificateRequestStatus = s.object({
  conditions: conditions(),
  certificate: s.string({ format: 'byte' }).describe('The signed certificate, PEM.'),
  ca: s.string({ format: 'byte' }).describe('The signing CA\'s certificate, PEM, when known.'),
  failureTime: s.dateTime().describe('When signing failed.'),
}).named('CertificateRequestStatus');

const acmeState = () => s.enum('valid', 'ready', 'pending', 'processing', 'invalid', 'expired', 'errored');

export const orderSpec = s.object({
  request: s.string({ format: 'byte' }).required().describe('The PEM-encoded CSR to finalize the order with.'),
  issuerRef: issuerRef().required().describe('The ACME issuer.'),
  commonName: s.string().describe('Common name of the CSR.'),
  dnsNames: strings().describe('DNS names of the CSR.'),
  ipAddresses: strings().describe('IP addresses of the CSR.'),
  duration: s.string().describe('Requested lifetime.'),
  profile: s.string().describe('ACME profile requested.'),
}).named('OrderSpec');

export const orderStatus = s.object({
  url: s.string().describe('URL of the order at the ACME server.'),
  finalizeURL: s.string().describe('Where the order is finalized.'),
  certificate: s.string({ format: 'byte' }).describe('The issued certificate chain, PEM.'),
  state: acmeState().describe('State of the order at the ACME server.'),
  reason: s.string().describe('Why the order is in this state.'),
  failureTime: s.dateTime().describe('When the order failed.'),
  authorizations: s.array(s.object({
    url: s.string().required().describe('URL of the authorization.'),
    identifier: s.string().describe('The name to validate (without a wildcard\'s *.).'),
    wildcard: s.boolean().describe('Whether the name is a wildcard.'),
    initialState: acmeState().describe('State of the authorization when it was first fetched.'),
    challenges: s.array(s.object({
      url: s.string().required().describe('URL of the challenge.'),
      token: s.string().required().describe('The challenge token.'),
      type: s.string().required().describe('Challenge type as the server names it, e.g. http-01, dns-01.'),
    }).named('ACMEChallenge'), { listType: 'atomic' }).describe('Challenges the server offers for it.'),
  }).named('ACMEAuthorization'), { listType: 'atomic' }).describe('The authorizations the server asks for.'),
}).named('OrderStatus');

export const challengeSpec = s.object({
  url: s.string().required().describe('URL of the challenge at the ACME server.'),
  authorizationURL: s.string().required().describe('URL of its authorization.'),
  dnsName: s.string().required().describe('The name being validated.'),
  wildcard: s.boolean().describe('Whether it is for a wildcard name.'),
  type: s.enum('HTTP-01', 'DNS-01').required().describe('Challenge type.'),
  token: s.string().required().describe('The challenge token.'),
  key: s.string().required().describe('The key authorization to present.'),
  solver: acmeChallengeSolver().required().describe('The solver chosen from the issuer for this name.'),
  issuerRef: issuerRef().required().describe('The ACME issuer.'),
}).named('ChallengeSpec');

export const challengeStatus = s.object({
  processing: s.boolean().describe('Whether cert-manager is working on it.'),
  presented: s.boolean().describe('Whether the solver has presented the key.'),
  reason: s.string().describe('Why it is in this state.'),
  state: acmeState().describe('State of the challenge at the ACME server.'),
}).named('ChallengeStatus');
