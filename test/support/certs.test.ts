import { X509Certificate, createPrivateKey, createPublicKey, createSign, createVerify } from 'crypto';
import { TestCa } from './certs';

// test/support/certs.ts: node:crypto signs forge's certificates; what the test clusters rely on.
describe('the test CA', () => {
  const ca = new TestCa('ca one');
  const other = new TestCa('ca two');

  test('a serving certificate is for its names, signed by its CA, with a key that matches it', () => {
    const issued = ca.issue(['svc.ns.svc', 'svc.ns.svc.cluster.local']);
    const cert = new X509Certificate(issued.cert);
    const root = new X509Certificate(issued.ca);
    expect(issued.ca).toBe(ca.certPem);
    expect(cert.subject).toBe('CN=svc.ns.svc');
    expect(cert.subjectAltName).toBe('DNS:svc.ns.svc, DNS:svc.ns.svc.cluster.local');
    expect(cert.checkIssued(root)).toBe(true);
    expect(cert.verify(root.publicKey)).toBe(true);
    expect(root.verify(root.publicKey)).toBe(true);
    expect(root.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.checkPrivateKey(createPrivateKey(issued.key))).toBe(true);
    // The key signs what the certificate's public key verifies.
    const sig = createSign('sha256').update('x').sign(issued.key);
    expect(createVerify('sha256').update('x').verify(createPublicKey(issued.cert), sig)).toBe(true);
  });

  test("a certificate of one CA does not verify against another's", () => {
    const cert = new X509Certificate(ca.issue(['a.b.svc']).cert);
    const root = new X509Certificate(other.certPem);
    expect(cert.checkIssued(root)).toBe(false);
    expect(cert.verify(root.publicKey)).toBe(false);
    expect(new X509Certificate(other.certPem).verify(new X509Certificate(ca.certPem).publicKey)).toBe(false);
  });

  test('each certificate its own serial; a common name without DNS names', () => {
    const a = new X509Certificate(ca.issue(['x.y.svc']).cert);
    const b = new X509Certificate(ca.issue(['x.y.svc']).cert);
    expect(a.serialNumber).not.toBe(b.serialNumber);
    const c = new X509Certificate(ca.issue([], 'client').cert);
    expect(c.subject).toBe('CN=client');
    expect(() => ca.issue([])).toThrow(/DNS name or a common name/);
  });
});
