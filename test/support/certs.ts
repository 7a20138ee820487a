/**
 * One test certificate authority per test cluster: it issues what cert-manager, OpenShift's
 * service CA and self-managing webhook servers would issue on a real cluster (serving
 * certificates for `<service>.<namespace>.svc` names). node-forge writes the X.509
 * certificates (node:crypto can read certificates but not issue them); node:crypto makes the
 * keys and the signatures (forge's RSA in JavaScript took some 30 ms of CPU per signature).
 * Nothing is written to disk or committed.
 *
 * Each CA has a key pair of its own (so a leaf of one CA does not verify against another);
 * the serving certificates all share one key pair per process: what the tests check is which
 * names a certificate is for and which CA signed it. A key pair per certificate cost some
 * 50-100 ms of CPU each.
 */
import { constants, createPublicKey, generateKeyPairSync, KeyObject, privateEncrypt, randomBytes } from 'crypto';
import * as forge from 'node-forge';

export interface IssuedCertificate {
  /** PEM */
  readonly cert: string;
  /** PEM (PKCS#1) */
  readonly key: string;
  /** The CA certificate (PEM) that signed it. */
  readonly ca: string;
}

interface KeyPair {
  readonly privateKey: KeyObject;
  /** PEM (PKCS#1) */
  readonly pem: string;
  readonly publicKey: forge.pki.rsa.PublicKey;
}

function newKeyPair(): KeyPair {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = forge.pki.publicKeyFromPem(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString());
  return { privateKey, pem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), publicKey };
}

let leafKey: KeyPair | undefined;
/** The serving certificates' key pair, made at first use. */
const leafKeyPair = (): KeyPair => (leafKey ??= newKeyPair());

/** DER of SHA-256's DigestInfo header (RFC 8017, 9.2): what RSASSA-PKCS1-v1_5 signs, followed by the digest. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * forge's signer interface over a node:crypto key: forge hashes the TBSCertificate (SHA-256)
 * and asks the key to sign the digest; node pads and signs it (RSASSA-PKCS1-v1_5, the same bytes
 * forge's own key would give).
 */
function nodeSigner(privateKey: KeyObject): forge.pki.rsa.PrivateKey {
  const signer = {
    sign: (md: forge.md.MessageDigest) => privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')])).toString('binary'),
  };
  return signer as unknown as forge.pki.rsa.PrivateKey;
}

const serial = () => `01${randomBytes(15).toString('hex')}`;

export class TestCa {
  public readonly certPem: string;
  private readonly cert: forge.pki.Certificate;
  private readonly signer: forge.pki.rsa.PrivateKey;

  constructor(public readonly name = 'mlplatform test CA') {
    const { privateKey, publicKey } = newKeyPair();
    this.signer = nodeSigner(privateKey);
    const cert = forge.pki.createCertificate();
    cert.publicKey = publicKey;
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
    const subject = [{ name: 'commonName', value: name }];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(this.signer, forge.md.sha256.create());
    this.cert = cert;
    this.certPem = forge.pki.certificateToPem(cert);
  }

  /** A serving certificate for these DNS names (the first is also the common name). */
  public issue(dnsNames: readonly string[], commonName?: string): IssuedCertificate {
    if (!dnsNames.length && !commonName) throw new Error('a certificate needs a DNS name or a common name');
    const { publicKey, pem } = leafKeyPair();
    const cert = forge.pki.createCertificate();
    cert.publicKey = publicKey;
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
    cert.setSubject([{ name: 'commonName', value: commonName ?? dnsNames[0] }]);
    cert.setIssuer(this.cert.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: dnsNames.map((value) => ({ type: 2, value })) },
    ]);
    cert.sign(this.signer, forge.md.sha256.create());
    return { cert: forge.pki.certificateToPem(cert), key: pem, ca: this.certPem };
  }
}
