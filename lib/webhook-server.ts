import { ApiObject, Lazy } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import {
  CERT_MANAGER_INJECT_ANNOTATION,
  CertificateProviderKind,
  OPENSHIFT_INJECT_CABUNDLE_ANNOTATION,
  OPENSHIFT_SERVING_CERT_ANNOTATION,
} from './certificates';
import { Component } from './component';
import { ConversionWebhookTarget, CustomResourceDefinition } from './crd';
import { NetworkPolicy, selectorOn } from './network-policy';
import { bindingObject, PolicyRule, roleObject } from './rbac';
import { IRuntimeChanges, RuntimeChange } from './runtime-changes';
import { declareSecurityExceptions, onlyChecks, SecurityException } from './security';
import type { LabelSelector, WebhookRule } from './webhook-rules';

export type { LabelSelector, WebhookOperation, WebhookRule } from './webhook-rules';

export interface WebhookProps {
  /** Webhook name (a fully qualified name, unique in its configuration). */
  readonly name: string;
  /** Path on the webhook server, e.g. /validate-serving-kserve-io-v1beta1-inferenceservice */
  readonly path: string;
  readonly rules: WebhookRule[];
  /** @default Fail */
  readonly failurePolicy?: 'Fail' | 'Ignore';
  /**
   * Upstream supports either failure policy for this webhook, so a platform's customization
   * may set it (`webhooks['<component>/<configuration>/<webhook>']`). Leave it off where the
   * controller relies on the webhook (defaulting, validation it does not repeat).
   * @default false
   */
  readonly failurePolicyOverridable?: boolean;
  /** @default None */
  readonly sideEffects?: 'None' | 'NoneOnDryRun';
  /** @default ['v1'] */
  readonly admissionReviewVersions?: string[];
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly matchPolicy?: 'Exact' | 'Equivalent';
  readonly timeoutSeconds?: number;
  /** Mutating webhooks only. */
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
  /**
   * CEL conditions a request must meet to be sent to the webhook (admissionregistration/v1,
   * Kubernetes 1.30+), e.g. to exclude the webhook's own service account.
   * @default - none
   */
  readonly matchConditions?: Array<{ readonly name: string; readonly expression: string }>;
  /**
   * Only `webhookNamespaces`: a fail-closed webhook on built-in namespaced resources that
   * must see kube-system or its backend's namespace (MLP053), with upstream's reason.
   * @default - none
   */
  readonly securityExceptions?: SecurityException[];
}

/**
 * `selector` plus an expression that leaves out `namespaces` by their immutable
 * kubernetes.io/metadata.name label: what a fail-closed webhook on pods (or other built-in
 * kinds) needs so that kube-system and its own namespace keep working while it is down.
 */
export function excludingNamespaces(namespaces: string[], selector: LabelSelector = {}): LabelSelector {
  return {
    ...selector,
    matchExpressions: [...(selector.matchExpressions ?? []), { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...new Set(namespaces)].sort() }],
  };
}

/**
 * What serves webhooks: a `Controller`, or a `Workload` for servers that are not
 * controller-runtime managers (e.g. Kubeflow Pipelines' cache server).
 */
export interface WebhookBackend {
  readonly name: string;
  readonly serviceAccountName: string;
  readonly selectorLabels: Record<string, string>;
  /** The container port it serves webhooks on. */
  readonly webhookPort?: number;
  /** That port's name, which the webhook Service targets. */
  readonly webhookPortName: string;
  mountSecret(volumeName: string, secretName: string, mountPath: string): void;
  mountEmptyDir(volumeName: string, mountPath: string): void;
}

export interface WebhookServerProps {
  /** The controller (or other workload) that serves the webhooks (its pods are the backend). */
  readonly controller: WebhookBackend;
  /** Service name, e.g. kserve-webhook-server-service. */
  readonly serviceName: string;
  /** Secret holding the serving certificate, mounted into the controller. */
  readonly secretName: string;
  /** cert-manager Certificate name (cert-manager provider only). @default `${serviceName}-cert` */
  readonly certificateName?: string;
  /** Service port. @default 443 */
  readonly port?: number;
  /** Where controller-runtime reads the certificate. @default /tmp/k8s-webhook-server/serving-certs */
  readonly certDir?: string;
  /**
   * The controller can rotate its own serving certificate in-process: it fills `secretName`
   * and patches caBundle into this server's webhook configurations and conversion CRDs at
   * run time. Used when the platform's provider is CertificateProvider.selfManaged(), or
   * always with `required` (upstream supports nothing else).
   * @default - the controller reads a certificate the platform's provider issues
   */
  readonly selfManaged?: SelfManagedCertificate;
  /**
   * The backend's own Service already exposes the webhook port (Kubeflow Pipelines' API
   * server serves its webhooks on the ml-pipeline Service, port 8443): no Service is
   * created; the webhooks point at this one, and a provider that annotates Services
   * (OpenShift service-ca) annotates it. Its name must be `serviceName`, and it must have
   * a port `port` that targets the backend's webhook port.
   * @default - the server creates its own Service
   */
  readonly sharedService?: ApiObject;
  /**
   * The NetworkPolicy that lets the API server reach the webhook port where the platform
   * isolates the namespace (NetworkPolicyProps.namespaceIsolation; MLP064 fails a webhook
   * nothing opens there): its name (upstream's, where kubeflow/manifests ships one) and the
   * selector labels it selects by (upstream's, where fewer than the controller's). `false`
   * where another policy of the component admits the port from every source already.
   * @default `<controller name>-webhook`, over all of the controller's selector labels
   */
  readonly isolationPolicy?: WebhookIsolationPolicy | false;
}

/** The NetworkPolicy of a webhook server in an isolated namespace (WebhookServerProps.isolationPolicy). */
export interface WebhookIsolationPolicy {
  /** @default `<controller name>-webhook` */
  readonly name?: string;
  /** Some of the controller's selector labels, by key (see selectorOn). @default all of them */
  readonly selectorKeys?: readonly string[];
}

export interface SelfManagedCertificate {
  /** Upstream supports only its own rotator: the platform's provider is not used. @default false */
  readonly required?: boolean;
  /**
   * The process writes its serving key pair into `certDir` itself (Spark's webhook), so
   * `certDir` is a writable emptyDir rather than the Secret mounted read-only. Applies when
   * the server is self-managed; with another provider the Secret is mounted as usual.
   * @default false
   */
  readonly writesCertDir?: boolean;
}

/**
 * A webhook server: the Service in front of a controller's webhook port, its serving
 * certificate from the platform's certificate provider, and the validating and mutating
 * webhook configurations (and CRD conversion targets) that point at it.
 */
export class WebhookServer extends Construct implements IRuntimeChanges {
  public readonly controller: WebhookBackend;
  /** Whether the controller rotates its own certificate (set flags/config accordingly). */
  public readonly selfManaged: boolean;
  /** CRDs whose conversion webhook this server serves. */
  private readonly conversions: CustomResourceDefinition[] = [];
  public readonly serviceName: string;
  public readonly namespace: string;
  public readonly port: number;
  public readonly service: ApiObject;
  public readonly secretName: string;
  private readonly caAnnotations: Record<string, string>;
  private readonly configs = new Map<string, { type: 'validating' | 'mutating'; webhooks: WebhookProps[]; object: ApiObject }>();

  constructor(scope: Component, id: string, props: WebhookServerProps) {
    super(scope, id);
    const c = props.controller;
    if (!c.webhookPort) {
      throw new Error(`${this.node.path}: controller '${c.name}' has no webhook port; set ports.webhook on the Controller (e.g. 9443)`);
    }
    if (props.isolationPolicy !== false) {
      const isolation = props.isolationPolicy ?? {};
      new NetworkPolicy(this, 'IsolationPolicy', {
        name: isolation.name ?? `${c.name}-webhook`,
        targets: [c],
        podSelector: isolation.selectorKeys ? selectorOn(c, isolation.selectorKeys) : undefined,
        namespaceIsolation: true,
        // The API server calls from outside the pod network: every source, the webhook port.
        ingress: [{ ports: [c.webhookPortName] }],
      });
    }
    this.controller = c;
    this.serviceName = props.serviceName;
    this.namespace = scope.namespaceName;
    this.port = props.port ?? 443;
    this.secretName = props.secretName;
    const platformProvider = scope.platform.certificates;
    const serviceAnnotations: Record<string, string> = {};
    this.selfManaged = !!props.selfManaged && (!!props.selfManaged.required || platformProvider.kind === CertificateProviderKind.SELF_MANAGED);
    const provider = platformProvider.kind === CertificateProviderKind.SELF_MANAGED ? platformProvider.fallback! : platformProvider;
    if (this.selfManaged) {
      // The rotator writes the key pair into this Secret; emitting it empty lets the pod's
      // volume mount resolve on the first start.
      new ApiObject(this, 'CertificateSecret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: props.secretName, namespace: this.namespace } });
      this.caAnnotations = {};
      this.addRotatorRbac(props.secretName);
    } else if (provider.kind === CertificateProviderKind.CERT_MANAGER) {
      scope.infrastructure.includes('cert-manager') || scope.infrastructure.push('cert-manager');
      const certName = props.certificateName ?? `${props.serviceName}-cert`;
      const issuer = provider.clusterIssuer
        ? { kind: 'ClusterIssuer', name: provider.clusterIssuer }
        : { kind: 'Issuer', name: selfSignedIssuer(scope) };
      const dns = `${props.serviceName}.${this.namespace}.svc`;
      new ApiObject(this, 'Certificate', {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: certName, namespace: this.namespace },
        spec: { commonName: dns, dnsNames: [dns, `${dns}.cluster.local`], issuerRef: issuer, secretName: props.secretName },
      });
      this.caAnnotations = { [CERT_MANAGER_INJECT_ANNOTATION]: `${this.namespace}/${certName}` };
    } else {
      serviceAnnotations[OPENSHIFT_SERVING_CERT_ANNOTATION] = props.secretName;
      this.caAnnotations = { [OPENSHIFT_INJECT_CABUNDLE_ANNOTATION]: 'true' };
    }
    const certDir = props.certDir ?? '/tmp/k8s-webhook-server/serving-certs';
    if (this.selfManaged && props.selfManaged?.writesCertDir) c.mountEmptyDir('webhook-cert', certDir);
    else c.mountSecret('webhook-cert', props.secretName, certDir);
    if (props.sharedService) {
      this.service = props.sharedService;
      this.checkSharedService(props.sharedService);
      for (const [k, v] of Object.entries(serviceAnnotations)) props.sharedService.metadata.addAnnotation(k, v);
    } else {
      this.service = new k8s.KubeService(this, 'Service', {
        metadata: {
          name: props.serviceName,
          namespace: this.namespace,
          annotations: Object.keys(serviceAnnotations).length ? serviceAnnotations : undefined,
        },
        spec: {
          selector: c.selectorLabels,
          ports: [{ name: 'https', port: this.port, targetPort: k8s.IntOrString.fromString(c.webhookPortName), protocol: 'TCP' }],
        },
      });
    }
  }

  /** A shared Service must be the one the webhooks name, and route `port` to the webhook port. */
  private checkSharedService(service: ApiObject): void {
    const json = service.toJson();
    const where = `${this.node.path}: sharedService`;
    if (json.kind !== 'Service' || json.metadata?.name !== this.serviceName || json.metadata?.namespace !== this.namespace) {
      throw new Error(`${where} is ${json.kind} ${json.metadata?.namespace}/${json.metadata?.name}, not Service ${this.namespace}/${this.serviceName}; pass the Service named by serviceName`);
    }
    const c = this.controller;
    const port = (json.spec?.ports ?? []).find((p: any) => p.port === this.port);
    if (!port || (port.targetPort !== c.webhookPortName && port.targetPort !== c.webhookPort)) {
      throw new Error(`${where}: Service ${this.serviceName} has no port ${this.port} targeting the webhook port ${c.webhookPortName} (${c.webhookPort}) of ${c.name}; add it to the Service`);
    }
  }

  /** Adds a validating webhook to the named ValidatingWebhookConfiguration. */
  public addValidatingWebhook(configurationName: string, webhook: WebhookProps): void {
    this.add('validating', configurationName, webhook);
  }

  /** Adds a mutating webhook to the named MutatingWebhookConfiguration. */
  public addMutatingWebhook(configurationName: string, webhook: WebhookProps): void {
    this.add('mutating', configurationName, webhook);
  }

  /** Where a CRD's conversion webhook should point. Prefer `serveConversion`, which also records the CRD. */
  public conversionTarget(): ConversionWebhookTarget {
    return { serviceName: this.serviceName, serviceNamespace: this.namespace, port: this.port, annotations: this.caAnnotations };
  }

  /** Points a CRD's conversion webhook at this server (and lets a self-managed rotator patch it). */
  public serveConversion(crd: CustomResourceDefinition): void {
    crd.useConversionWebhook(this.conversionTarget());
    this.conversions.push(crd);
  }

  /** The webhook configurations of this server, by kind. */
  public configurationNames(type: 'validating' | 'mutating'): string[] {
    return [...this.configs.entries()].filter(([, c]) => c.type === type).map(([k]) => k.slice(k.indexOf('/') + 1)).sort();
  }

  /** What a self-managed rotator changes at run time (nothing otherwise). */
  public runtimeChanges(): RuntimeChange[] {
    if (!this.selfManaged) return [];
    const by = this.controller.name;
    const reason = 'self-managed webhook certificate: the controller patches caBundle';
    return [
      { group: '', kind: 'Secret', name: this.secretName, namespace: this.namespace, jsonPointers: ['/data'], by, reason: 'self-managed webhook certificate: the controller writes the key pair' },
      ...this.configurationNames('validating').map((name) => ({ group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration', name, jsonPointers: ['/webhooks/*/clientConfig/caBundle'], by, reason })),
      ...this.configurationNames('mutating').map((name) => ({ group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', name, jsonPointers: ['/webhooks/*/clientConfig/caBundle'], by, reason })),
      ...this.conversions.map((c) => ({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', name: c.name, jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'], by, reason })),
    ];
  }

  /** The rotator's permissions, scoped by resourceNames to what it patches. */
  private addRotatorRbac(secretName: string): void {
    const c = this.controller;
    const name = `${c.name}-cert-rotator`;
    const sa = [{ name: c.serviceAccountName, namespace: this.namespace }];
    const patch = ['get', 'patch', 'update'];
    roleObject(this, 'RotatorRole', {
      name,
      namespace: this.namespace,
      rules: [
        // Its informer lists and watches Secrets in the namespace; it writes only its own.
        { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: [secretName], verbs: patch },
      ],
    });
    bindingObject(this, 'RotatorRoleBinding', { name, namespace: this.namespace, roleRef: { kind: 'Role', name }, serviceAccounts: sa });
    roleObject(this, 'RotatorClusterRole', {
      name,
      rules: () => {
        const rules: PolicyRule[] = [];
        const scoped = (group: string, resource: string, names: string[]) => {
          if (!names.length) return;
          rules.push({ apiGroups: [group], resources: [resource], verbs: ['list', 'watch'] });
          rules.push({ apiGroups: [group], resources: [resource], resourceNames: names, verbs: patch });
        };
        scoped('admissionregistration.k8s.io', 'validatingwebhookconfigurations', this.configurationNames('validating'));
        scoped('admissionregistration.k8s.io', 'mutatingwebhookconfigurations', this.configurationNames('mutating'));
        scoped('apiextensions.k8s.io', 'customresourcedefinitions', this.conversions.map((x) => x.name).sort());
        return rules;
      },
    });
    bindingObject(this, 'RotatorClusterRoleBinding', { name, roleRef: { kind: 'ClusterRole', name }, serviceAccounts: sa });
  }

  private add(type: 'validating' | 'mutating', configurationName: string, props: WebhookProps): void {
    const component = this.node.scope as Component;
    const policy = component.platform.customization.webhookFailurePolicy(component.componentName, configurationName, props.name, !!props.failurePolicyOverridable);
    const webhook = policy ? { ...props, failurePolicy: policy } : props;
    if (type === 'validating' && webhook.reinvocationPolicy) {
      throw new Error(`${this.node.path}: webhook '${webhook.name}': reinvocationPolicy applies to mutating webhooks only; remove it`);
    }
    const conditionNames = (webhook.matchConditions ?? []).map((m) => m.name);
    const dupCondition = conditionNames.find((n, i) => conditionNames.indexOf(n) !== i);
    if (dupCondition) throw new Error(`${this.node.path}: webhook '${webhook.name}': matchConditions name '${dupCondition}' is used twice; give each condition its own name`);
    if (!webhook.path.startsWith('/')) throw new Error(`${this.node.path}: webhook '${webhook.name}': path '${webhook.path}' must start with '/'`);
    onlyChecks(`${this.node.path}: webhook '${webhook.name}'`, webhook.securityExceptions, ['webhookNamespaces']);
    // The API server's own rules for a webhook: a fully qualified name, a timeout from 1 to 30 s.
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?){2,}$/.test(webhook.name) || webhook.name.length > 253) {
      throw new Error(`${this.node.path}: webhook name '${webhook.name}' must be fully qualified (a lower-case DNS name of at least three segments, e.g. vwidget.example.com)`);
    }
    if (webhook.timeoutSeconds !== undefined && (!Number.isInteger(webhook.timeoutSeconds) || webhook.timeoutSeconds < 1 || webhook.timeoutSeconds > 30)) {
      throw new Error(`${this.node.path}: webhook '${webhook.name}': timeoutSeconds ${webhook.timeoutSeconds} must be a whole number from 1 to 30`);
    }
    const existing = this.configs.get(`${type}/${configurationName}`);
    if (existing) {
      if (existing.webhooks.some((w) => w.name === webhook.name)) {
        throw new Error(`${this.node.path}: webhook '${webhook.name}' is already in ${configurationName}; webhook names must be unique in a configuration`);
      }
      existing.webhooks.push(webhook);
      declareSecurityExceptions(existing.object, webhook.securityExceptions, webhook.name);
      return;
    }
    const webhooks = [webhook];
    const kind = type === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration';
    const object = new ApiObject(this, `${type === 'validating' ? 'Validating' : 'Mutating'}-${configurationName}`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: { name: configurationName, annotations: this.caAnnotations },
      webhooks: Lazy.any({ produce: () => webhooks.map((w) => this.render(type, w)) }),
    });
    this.configs.set(`${type}/${configurationName}`, { type, webhooks, object });
    declareSecurityExceptions(object, webhook.securityExceptions, webhook.name);
  }

  private render(type: 'validating' | 'mutating', w: WebhookProps): Record<string, unknown> {
    const out: Record<string, unknown> = {
      name: w.name,
      admissionReviewVersions: w.admissionReviewVersions ?? ['v1'],
      clientConfig: { service: { name: this.serviceName, namespace: this.namespace, path: w.path, port: this.port } },
      failurePolicy: w.failurePolicy ?? 'Fail',
      matchConditions: w.matchConditions?.map((m) => ({ name: m.name, expression: m.expression })),
      matchPolicy: w.matchPolicy,
      namespaceSelector: w.namespaceSelector,
      objectSelector: w.objectSelector,
      rules: w.rules.map((r) => ({ ...r, scope: r.scope })),
      sideEffects: w.sideEffects ?? 'None',
      timeoutSeconds: w.timeoutSeconds,
    };
    if (type === 'mutating') out.reinvocationPolicy = w.reinvocationPolicy;
    return out;
  }
}

const issuers = new WeakMap<Construct, Set<string>>();
const SELF_SIGNED_ISSUER = 'selfsigned-issuer';

/**
 * One self-signed Issuer per namespace of the platform, as upstream installs ship: the
 * first component with a webhook server in a namespace emits it, the others use it.
 */
function selfSignedIssuer(component: Component): string {
  const ns = component.namespaceName;
  const done = issuers.get(component.platform) ?? new Set<string>();
  issuers.set(component.platform, done);
  if (!done.has(ns)) {
    new ApiObject(component, 'SelfSignedIssuer', {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Issuer',
      metadata: { name: SELF_SIGNED_ISSUER, namespace: ns },
      spec: { selfSigned: {} },
    });
    done.add(ns);
  }
  return SELF_SIGNED_ISSUER;
}

/**
 * A serving certificate for a Service that is not a webhook (an HTTPS API next to a
 * controller), from the platform's certificate provider: a cert-manager Certificate into
 * `secretName`, or the OpenShift service-ca annotation. Returns the annotations the Service
 * needs (none for cert-manager).
 */
export function serviceServingCertificate(scope: Construct, component: Component, props: { serviceName: string; secretName: string; certificateName?: string }): Record<string, string> {
  const platformProvider = component.platform.certificates;
  // Only webhook servers rotate their own certificates: a self-managed platform's fallback serves the rest.
  const provider = platformProvider.kind === CertificateProviderKind.SELF_MANAGED ? platformProvider.fallback! : platformProvider;
  if (provider.kind !== CertificateProviderKind.CERT_MANAGER) return { [OPENSHIFT_SERVING_CERT_ANNOTATION]: props.secretName };
  component.infrastructure.includes('cert-manager') || component.infrastructure.push('cert-manager');
  const issuer = provider.clusterIssuer ? { kind: 'ClusterIssuer', name: provider.clusterIssuer } : { kind: 'Issuer', name: selfSignedIssuer(component) };
  const dns = `${props.serviceName}.${component.namespaceName}.svc`;
  new ApiObject(scope, 'Certificate', {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name: props.certificateName ?? `${props.serviceName}-cert`, namespace: component.namespaceName },
    spec: { commonName: dns, dnsNames: [dns, `${dns}.cluster.local`], issuerRef: issuer, secretName: props.secretName },
  });
  return {};
}
