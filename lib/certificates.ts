/**
 * Where webhook serving certificates and their CA come from: chosen once per platform.
 */
export enum CertificateProviderKind {
  /** cert-manager issues the certificate; its CA injector fills caBundle. */
  CERT_MANAGER = 'cert-manager',
  /** OpenShift's service CA signs a Service certificate and injects caBundle. */
  OPENSHIFT_SERVICE_CA = 'openshift-service-ca',
  /**
   * Each controller that can rotate its own webhook certificate does so in-process (writes
   * the Secret, patches caBundle at run time); the others use the fallback provider.
   */
  SELF_MANAGED = 'self-managed',
}

export interface SelfManagedOptions {
  /**
   * For webhook servers that cannot rotate their own certificate.
   * @default CertificateProvider.certManager()
   */
  readonly fallback?: CertificateProvider;
}

export interface CertManagerOptions {
  /**
   * An existing ClusterIssuer to use. When unset, each component namespace gets a
   * self-signed Issuer, as upstream installs do.
   * @default - a self-signed Issuer per namespace
   */
  readonly clusterIssuer?: string;
}

export class CertificateProvider {
  /** cert-manager (a prerequisite that must be present on the cluster or in the platform). */
  public static certManager(options: CertManagerOptions = {}): CertificateProvider {
    const issuer = options.clusterIssuer;
    if (issuer !== undefined && (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(issuer) || issuer.length > 253)) {
      throw new Error(`CertificateProvider.certManager: clusterIssuer '${issuer}' is not a ClusterIssuer name (a lower-case DNS subdomain); name an existing ClusterIssuer, or leave clusterIssuer out for a self-signed Issuer per namespace`);
    }
    return new CertificateProvider(CertificateProviderKind.CERT_MANAGER, options.clusterIssuer);
  }

  /** OpenShift service-ca (service.beta.openshift.io annotations). */
  public static openShiftServiceCa(): CertificateProvider {
    return new CertificateProvider(CertificateProviderKind.OPENSHIFT_SERVICE_CA);
  }

  /** Controllers rotate their own certificates where they can; the fallback serves the rest. */
  public static selfManaged(options: SelfManagedOptions = {}): CertificateProvider {
    const fallback = options.fallback ?? CertificateProvider.certManager();
    if (fallback.kind === CertificateProviderKind.SELF_MANAGED) throw new Error('CertificateProvider.selfManaged: the fallback must be certManager() or openShiftServiceCa()');
    return new CertificateProvider(CertificateProviderKind.SELF_MANAGED, undefined, fallback);
  }

  private constructor(
    public readonly kind: CertificateProviderKind,
    public readonly clusterIssuer?: string,
    /** SELF_MANAGED only: the provider for servers that cannot rotate their own certificate. */
    public readonly fallback?: CertificateProvider,
  ) {}
}

export const CERT_MANAGER_INJECT_ANNOTATION = 'cert-manager.io/inject-ca-from';
export const OPENSHIFT_INJECT_CABUNDLE_ANNOTATION = 'service.beta.openshift.io/inject-cabundle';
export const OPENSHIFT_SERVING_CERT_ANNOTATION = 'service.beta.openshift.io/serving-cert-secret-name';
