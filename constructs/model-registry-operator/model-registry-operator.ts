import { Construct } from 'constructs';
import { modelRegistryCrd } from './crds';
import { MODEL_REGISTRY_OPERATOR_PARITY_DEVIATIONS } from './parity';
import { OPERAND_WATCHES, OPERATOR_RULES, OPERATOR_RUNTIME_ROLES } from './rbac';
import { MODEL_REGISTRY_IMAGES, ModelRegistryImageKey } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { serviceServingCertificate, WebhookServer } from '../../lib/webhook-server';

export interface ModelRegistryOperatorProps extends ComponentProps {
  /** @default opendatahub */
  readonly namespace?: string;
  /** Replicas of the manager (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /**
   * The namespace the operator deploys registries into (REGISTRIES_NAMESPACE); also where
   * it runs the model catalog.
   * @default '' (the namespace of each ModelRegistry)
   */
  readonly registriesNamespace?: string;
  /**
   * The model catalog the manager deploys in the registries namespace (ENABLE_MODEL_CATALOG).
   * @default true (as upstream: only the value 'false' turns it off)
   */
  readonly modelCatalog?: boolean;
}

const MANAGER_LABELS = {
  'app.kubernetes.io/component': 'manager',
  'app.kubernetes.io/created-by': 'model-registry-operator',
  'app.kubernetes.io/instance': 'controller-manager',
  'app.kubernetes.io/name': 'deployment',
  'app.kubernetes.io/part-of': 'model-registry-operator',
};
const OPERATOR_SELECTOR = { 'component.opendatahub.io/name': 'model-registry-operator', 'control-plane': 'model-registry-operator', 'opendatahub.io/component': 'true' };
const MR_GROUP = 'modelregistry.opendatahub.io';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The model registry operator at v0.3.8 (config/overlays/odh): the ModelRegistry CRD
 * (v1alpha1 deprecated, v1beta1 stored, converted by the operator's webhook) and one
 * manager, `/manager` without subcommand, that reconciles registries and the model
 * catalog, serves the ModelRegistry webhooks and migrates stored v1alpha1 objects.
 *
 * Env names, flags and RBAC are those of v0.3.8 (internal/controller/config/defaults.go,
 * cmd/main.go, config/rbac). Deliberate differences from upstream's install: images pinned
 * (upstream names the proxies, PostgreSQL and catalog data with `latest`); the OpenShift
 * Template jobs-async-upload-s3-to-oci-template (a job template for users) is not emitted;
 * the Roles it creates per registry and for the catalog are declared as grants (MLP031).
 */
export class ModelRegistryOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string | undefined {
    return MODEL_REGISTRY_IMAGES.operator.tag;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = MODEL_REGISTRY_IMAGES;
  public readonly operator: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: ModelRegistryOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub', props);
    const rns = props.registriesNamespace;
    if (rns !== undefined && rns !== '' && (!DNS_LABEL.test(rns) || rns.length > 63)) {
      throw new Error(`${this.node.path}: registriesNamespace '${rns}' must be a lower-case DNS label of at most 63 characters, or '' for each registry's own namespace`);
    }
    this.addNamespace();
    this.declareParityDeviations(MODEL_REGISTRY_OPERATOR_PARITY_DEVIATIONS);
    const mr = this.addCrd(modelRegistryCrd);

    const image = (key: ModelRegistryImageKey) => this.image(key);
    const metricsService = 'model-registry-operator-controller-manager-metrics-service';
    const metricsCert = serviceServingCertificate(new Construct(this, 'OperatorMetricsCertificate'), this, { serviceName: metricsService, secretName: metricsService });
    this.operator = new Controller(this, 'Operator', {
      name: 'model-registry-operator-controller-manager',
      image: image('operator'),
      command: ['/manager'],
      args: ['--health-probe-bind-address=:8081', '--leader-elect'],
      // The names v0.3.8 reads, in the order its odh overlay sets them.
      env: [
        // v1alpha1 objects are rewritten to the v1beta1 storage version at start-up.
        { name: 'STORAGE_MIGRATION_SOURCE_VERSION', value: 'v1alpha1' },
        { name: 'STORAGE_MIGRATION_TARGET_VERSION', value: 'v1beta1' },
        { name: 'ENABLE_WEBHOOKS', value: 'true' },
        // Set by the odh overlay from Open Data Hub's service-mesh-refs; v0.3.8 itself reads neither.
        { name: 'DEFAULT_CONTROL_PLANE', valueFrom: { configMapKeyRef: { name: 'service-mesh-refs', key: 'CONTROL_PLANE_NAME', optional: true } } },
        { name: 'DEFAULT_ISTIO_INGRESS', valueFrom: { configMapKeyRef: { name: 'service-mesh-refs', key: 'ISTIO_INGRESS_NAME', optional: true } } },
        { name: 'REST_IMAGE', value: image('rest') },
        { name: 'OAUTH_PROXY_IMAGE', value: image('oauthProxy') },
        { name: 'KUBE_RBAC_PROXY_IMAGE', value: image('kubeRbacProxy') },
        { name: 'POSTGRES_IMAGE', value: image('postgres') },
        { name: 'CATALOG_DATA_IMAGE', value: image('catalogData') },
        { name: 'BENCHMARK_DATA_IMAGE', value: image('benchmarkData') },
        { name: 'CREATE_AUTH_RESOURCES', value: 'true' },
        { name: 'REGISTRIES_NAMESPACE', value: rns ?? '' },
        { name: 'DEFAULT_DOMAIN', value: '' },
        { name: 'ENABLE_MODEL_CATALOG', value: props.modelCatalog === false ? 'false' : '' },
        { name: 'SKIP_MODEL_CATALOG_DB_CREATION', value: '' },
        { name: 'GATEWAY_DOMAIN', value: '' },
      ],
      selectorLabels: OPERATOR_SELECTOR,
      labels: MANAGER_LABELS,
      ports: { health: 8081, webhook: 9443 },
      metrics: ControllerMetrics.secure(8443, {
        args: ['--metrics-bind-address=:8443', '--metrics-secure=true', '--metrics-cert-dir=/etc/server-cert/', '--metrics-cert-name=tls.crt', '--metrics-key-name=tls.key'],
        serviceName: metricsService,
        portName: 'https',
        serviceAnnotations: Object.keys(metricsCert).length ? metricsCert : undefined,
      }),
      replicas: props.replicas,
      leaderElectionId: '85f368d1.opendatahub.io',
      resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } },
      owns: [mr.definition],
      rules: OPERATOR_RULES,
      grants: OPERATOR_RUNTIME_ROLES,
      watches: OPERAND_WATCHES,
      namespacedRules: [Rbac.manage('', 'configmaps')],
    });
    this.operator.mountSecret('server-cert', metricsService, '/etc/server-cert');
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.operator,
      serviceName: 'model-registry-operator-webhook-service',
      secretName: 'model-registry-operator-webhook-service',
    });
    const mrRules = [{ apiGroups: [MR_GROUP], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['modelregistries'], operations: ['CREATE' as const, 'UPDATE' as const] }];
    // Upstream lists the CRD versions as admission review versions; the API server uses v1beta1.
    const reviews = ['v1beta1', 'v1alpha1'];
    this.webhookServer.addMutatingWebhook('model-registry-operator-mutating-webhook-configuration', {
      name: 'mmodelregistry.opendatahub.io',
      path: '/mutate-modelregistry-opendatahub-io-modelregistry',
      rules: mrRules,
      admissionReviewVersions: reviews,
      matchPolicy: 'Equivalent',
    });
    this.webhookServer.addValidatingWebhook('model-registry-operator-validating-webhook-configuration', {
      name: 'vmodelregistry.opendatahub.io',
      path: '/validate-modelregistry-opendatahub-io-modelregistry',
      rules: mrRules,
      admissionReviewVersions: reviews,
      matchPolicy: 'Equivalent',
    });
    this.webhookServer.serveConversion(mr);
  }
}
