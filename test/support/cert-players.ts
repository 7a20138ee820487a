/**
 * Plays cert-manager (and its CA injector) and OpenShift's service CA on a test cluster,
 * from one test CA (test/support/certs.ts):
 *
 * - a cert-manager Certificate whose issuer (Issuer in its namespace, or ClusterIssuer)
 *   exists gets its Secret (type kubernetes.io/tls: tls.crt, tls.key, ca.crt) for exactly its
 *   dnsNames, and becomes Ready; it is issued again when its names change;
 * - a webhook configuration, CRD or APIService annotated `cert-manager.io/inject-ca-from:
 *   NS/CERT` gets the ca.crt of that Certificate's Secret as caBundle (none while the
 *   Certificate or its Secret is missing); one annotated `cert-manager.io/inject-ca-from-secret:
 *   NS/SECRET` gets that Secret's ca.crt (cert-manager's own webhook writes it);
 * - a Service annotated `service.beta.openshift.io/serving-cert-secret-name: NAME` gets that
 *   Secret for `<svc>.<ns>.svc` (and `.cluster.local`); an object annotated
 *   `service.beta.openshift.io/inject-cabundle: "true"` gets the CA (a ConfigMap as
 *   data["service-ca.crt"]).
 */
import * as k8s from '@kubernetes/client-node';
import { TestCa } from './certs';
import { caBundleOps, transient } from './node-agent';
import { Json, keyOf, ObjectWatch } from './watch';
import { ApiError, KubeClient, ObjectRef } from '../../lib/cluster/client';

export const CERT_MANAGER = 'test-cert-manager';
export const SERVICE_CA = 'test-service-ca';

const CERT_NAME = 'cert-manager.io/certificate-name';
const ALT_NAMES = 'cert-manager.io/alt-names';
const INJECT_FROM = 'cert-manager.io/inject-ca-from';
const INJECT_FROM_SECRET = 'cert-manager.io/inject-ca-from-secret';
const SERVING_SECRET = 'service.beta.openshift.io/serving-cert-secret-name';
const INJECT_CABUNDLE = 'service.beta.openshift.io/inject-cabundle';

export interface CertEvent {
  readonly what: 'issued' | 'injected' | 'service-ca-issued' | 'service-ca-injected';
  /** The Certificate, Service or injected object. */
  readonly object: string;
}

type Ref = ObjectRef & Json;

export class CertPlayers {
  public readonly events: CertEvent[] = [];
  public readonly errors: string[] = [];
  private readonly client: KubeClient;
  private readonly watches: ObjectWatch[] = [];
  private readonly certificates: ObjectWatch;
  private readonly issuers: ObjectWatch;
  private readonly clusterIssuers: ObjectWatch;
  private readonly services: ObjectWatch;
  private readonly injectable: ObjectWatch[];
  private readonly secrets: ObjectWatch;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(kubeConfig: k8s.KubeConfig, private readonly ca: TestCa) {
    this.client = new KubeClient(kubeConfig);
    const watch = (path: string) => {
      const w = new ObjectWatch(kubeConfig, path, () => this.soon());
      this.watches.push(w);
      return w;
    };
    this.certificates = watch('/apis/cert-manager.io/v1/certificates');
    this.issuers = watch('/apis/cert-manager.io/v1/issuers');
    this.clusterIssuers = watch('/apis/cert-manager.io/v1/clusterissuers');
    this.services = watch('/api/v1/services');
    this.injectable = [
      watch('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations'),
      watch('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations'),
      watch('/apis/apiextensions.k8s.io/v1/customresourcedefinitions'),
      watch('/apis/apiregistration.k8s.io/v1/apiservices'),
      watch('/api/v1/configmaps'),
    ];
    // A CA Secret written by a backend that bootstraps its own (inject-ca-from-secret).
    // Also the Secrets the rounds read (secret()).
    this.secrets = new ObjectWatch(kubeConfig, '/api/v1/secrets', (_t, s) => { if (s.data?.['ca.crt']) this.soon(); });
    this.watches.push(this.secrets);
  }

  /**
   * A Secret as the watch last saw it; read from the server only when the watch has not seen it
   * (not there, or not yet listed). A round read each Secret again before, for every
   * Certificate, Service and injectable object on every change of any of them.
   */
  private async secret(namespace: string, name: string): Promise<Json | undefined> {
    return this.secrets.items.get(`${namespace}/${name}`) ?? this.client.get('v1', 'Secret', namespace, name);
  }

  /** Applies a Secret and keeps the server's answer for the next round. */
  private async applySecret(secret: Ref, fieldManager: string): Promise<void> {
    this.secrets.remember(await this.client.apply(secret, { fieldManager }));
  }

  public start(): void {
    for (const w of this.watches) w.start();
  }

  private soon(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running) { this.again = true; return; }
      this.running = this.round()
        .catch((e) => {
          if (this.stopped) return;
          if (transient(e)) this.again = true;
          else if (!(e instanceof ApiError && [404, 409].includes(e.status))) this.errors.push((e as Error).message);
        })
        .finally(() => {
          this.running = undefined;
          if (this.again) { this.again = false; this.soon(); }
        });
    }, 100);
  }

  private async round(): Promise<void> {
    for (const c of this.certificates.items.values()) await this.issue(c);
    for (const s of this.services.items.values()) await this.serviceCa(s);
    for (const w of this.injectable) for (const o of w.items.values()) await this.inject(o);
  }

  private async issue(c: Json): Promise<void> {
    const ns = c.metadata.namespace;
    const ref = c.spec?.issuerRef ?? {};
    const issuer = ref.kind === 'ClusterIssuer' ? this.clusterIssuers.items.get(`/${ref.name}`) : this.issuers.items.get(`${ns}/${ref.name}`);
    if (!issuer) return; // cert-manager waits for its issuer too.
    const names: string[] = c.spec?.dnsNames ?? [];
    const secret = await this.secret(ns, c.spec.secretName);
    const ready = (c.status?.conditions ?? []).some((x: Json) => x.type === 'Ready' && x.status === 'True');
    if (secret?.metadata?.annotations?.[ALT_NAMES] === names.join(',') && secret.data?.['tls.crt'] && ready) return;
    if (secret?.metadata?.annotations?.[ALT_NAMES] !== names.join(',') || !secret?.data?.['tls.crt']) {
      const cert = this.ca.issue(names, c.spec?.commonName);
      await this.applySecret({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: c.spec.secretName, namespace: ns, annotations: { [CERT_NAME]: c.metadata.name, [ALT_NAMES]: names.join(',') } },
        type: 'kubernetes.io/tls',
        stringData: { 'tls.crt': cert.cert, 'tls.key': cert.key, 'ca.crt': cert.ca },
      } as Ref, CERT_MANAGER);
      this.events.push({ what: 'issued', object: keyOf(c) });
    }
    const now = new Date().toISOString();
    const status = { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired (test CA)', lastTransitionTime: now }] };
    try {
      await this.client.writeStatus({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: c.metadata.name, namespace: ns }, status }, CERT_MANAGER);
    } catch (e) {
      // A stand-in CRD without a status subresource: status is part of the object.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
      await this.client.apply({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: c.metadata.name, namespace: ns }, status } as Ref, { fieldManager: CERT_MANAGER });
    }
  }

  private async serviceCa(s: Json): Promise<void> {
    const secretName = s.metadata?.annotations?.[SERVING_SECRET];
    if (!secretName) return;
    const ns = s.metadata.namespace;
    const names = [`${s.metadata.name}.${ns}.svc`, `${s.metadata.name}.${ns}.svc.cluster.local`];
    const secret = await this.secret(ns, secretName);
    if (secret?.metadata?.annotations?.[ALT_NAMES] === names.join(',') && secret.data?.['tls.crt']) return;
    const cert = this.ca.issue(names);
    await this.applySecret({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace: ns, annotations: { [ALT_NAMES]: names.join(','), 'service.beta.openshift.io/originating-service-name': s.metadata.name } },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': cert.cert, 'tls.key': cert.key },
    } as Ref, SERVICE_CA);
    this.events.push({ what: 'service-ca-issued', object: keyOf(s) });
  }

  private async inject(o: Json): Promise<void> {
    const annotations = o.metadata?.annotations ?? {};
    let ca: string | undefined;
    let what: CertEvent['what'] = 'injected';
    if (annotations[INJECT_FROM]) {
      const cert = this.certificates.items.get(annotations[INJECT_FROM]);
      if (!cert) return;
      const secret = await this.secret(cert.metadata.namespace, cert.spec?.secretName);
      if (!secret?.data?.['ca.crt']) return;
      ca = secret.data['ca.crt'];
    } else if (annotations[INJECT_FROM_SECRET]) {
      const [namespace, name] = String(annotations[INJECT_FROM_SECRET]).split('/');
      const secret = await this.secret(namespace, name);
      if (!secret?.data?.['ca.crt']) return;
      ca = secret.data['ca.crt'];
    } else if (annotations[INJECT_CABUNDLE] === 'true') {
      ca = Buffer.from(this.ca.certPem).toString('base64');
      what = 'service-ca-injected';
    }
    if (!ca) return;
    const manager = what === 'injected' ? CERT_MANAGER : SERVICE_CA;
    if (o.kind === 'ConfigMap') {
      const pem = Buffer.from(ca, 'base64').toString('utf8');
      if (o.data?.['service-ca.crt'] === pem) return;
      await this.client.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: o.metadata.name, namespace: o.metadata.namespace }, data: { 'service-ca.crt': pem } } as Ref, { fieldManager: manager });
    } else {
      const ops = caBundleOps(o, () => true, ca);
      if (!ops.length) return;
      const path = await this.client.pathOf(o.apiVersion, o.kind, undefined, o.metadata.name);
      await this.client.request('PATCH', path, ops, 'application/json-patch+json');
    }
    this.events.push({ what, object: `${o.kind} ${o.metadata.name}` });
  }

  public async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watches) w.stop();
    await this.running;
  }
}
