/**
 * One test certificate authority per test cluster: it issues what cert-manager, OpenShift's
 * service CA and self-managing webhook servers would issue on a real cluster (serving
 * certificates for `<service>.<namespace>.svc` names). Keys come from node:crypto; node-forge
 * writes the X.509 certificates (node:crypto can read certificates but not issue them).
 * Nothing is written to disk or committed.
 */
import { generateKeyPairSync, randomBytes } from 'crypto';
import * as forge from 'node-forge';

export interface IssuedCertificate {
  /** PEM */
  readonly cert: string;
  /** PEM (PKCS#1) */
  readonly key: string;
  /** The CA certificate (PEM) that signed it. */
  readonly ca: string;
}

function rsaKeyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  // Native key generation (milliseconds), then handed to forge for signing.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

const serial = () => `01${randomBytes(15).toString('hex')}`;

export class TestCa {
  public readonly certPem: string;
  private readonly key: forge.pki.rsa.PrivateKey;
  private readonly cert: forge.pki.Certificate;

  constructor(public readonly name = 'mlplatform test CA') {
    const { privateKey, publicKey } = rsaKeyPair();
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
    cert.sign(privateKey, forge.md.sha256.create());
    this.key = privateKey;
    this.cert = cert;
    this.certPem = forge.pki.certificateToPem(cert);
  }

  /** A serving certificate for these DNS names (the first is also the common name). */
  public issue(dnsNames: readonly string[], commonName?: string): IssuedCertificate {
    if (!dnsNames.length && !commonName) throw new Error('a certificate needs a DNS name or a common name');
    const { privateKey, publicKey } = rsaKeyPair();
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
    cert.sign(this.key, forge.md.sha256.create());
    return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(privateKey), ca: this.certPem };
  }
}
