import { Construct } from 'constructs';
import { aiHubCrd, catalogCrd, modelRegistryCrd } from './crds';
import { AIHUB_RULES, CATALOG_RULES, OPERAND_WATCHES, OPERATOR_RULES } from './rbac';
import { MODEL_REGISTRY_IMAGES, ModelRegistryImageKey } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { serviceServingCertificate, WebhookServer } from '../../lib/webhook-server';
import { KServe } from '../kserve/kserve';

export interface ModelRegistryOperatorProps extends ComponentProps {
  /** @default opendatahub */
  readonly namespace?: string;
  /** Replicas of each manager (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /**
   * The namespace the operator deploys registries into (REGISTRIES_NAMESPACE).
   * @default '' (the namespace of each ModelRegistry)
   */
  readonly registriesNamespace?: string;
  /** The model catalog manager (Catalog CRD) and its webhook. @default true */
  readonly catalog?: boolean;
  /**
   * The AIHub module manager. It installs the operator and the catalog itself (CRDs,
   * webhooks, roles), so it is meant for clusters that use it instead of this component's
   * managers: off by default. The AIHub CRD is emitted either way.
   * @default false
   */
  readonly aiHub?: boolean;
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
 * The model registry operator: the ModelRegistry (v1alpha1 deprecated, v1beta1 stored,
 * converted by the operator's webhook), Catalog and AIHub CRDs; the operator and catalog
 * managers with their webhooks; and, optionally, the AIHub module manager.
 */
export class ModelRegistryOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string | undefined {
    return MODEL_REGISTRY_IMAGES.operator.tag;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = MODEL_REGISTRY_IMAGES;
  public readonly operator: Controller;
  public readonly webhookServer: WebhookServer;
  public readonly catalog?: Controller;
  public readonly aiHub?: Controller;

  constructor(scope: Platform, id: string, props: ModelRegistryOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub');
    const rns = props.registriesNamespace;
    if (rns !== undefined && rns !== '' && (!DNS_LABEL.test(rns) || rns.length > 63)) {
      throw new Error(`${this.node.path}: registriesNamespace '${rns}' must be a lower-case DNS label of at most 63 characters, or '' for each registry's own namespace`);
    }
    this.addNamespace();
    const mr = this.addCrd(modelRegistryCrd);
    const catalog = this.addCrd(catalogCrd);
    const aiHub = this.addCrd(aiHubCrd);
    this.require({
      group: 'serving.kserve.io',
      kind: 'InferenceService',
      reason: 'registered model versions are deployed as KServe InferenceServices, which the registry links back to its entries',
      providedBy: KServe,
    });

    const image = (key: ModelRegistryImageKey) => this.image(key);
    const relatedImages = [
      { name: 'RELATED_IMAGE_ODH_MODEL_REGISTRY_IMAGE', value: image('modelRegistry') },
      { name: 'OAUTH_PROXY_IMAGE', value: image('oauthProxy') },
      { name: 'RELATED_IMAGE_ODH_KUBE_RBAC_PROXY_IMAGE', value: image('kubeRbacProxy') },
      { name: 'RELATED_IMAGE_POSTGRESQL_16_IMAGE', value: image('postgres') },
      { name: 'RELATED_IMAGE_ODH_MODEL_METADATA_COLLECTION_IMAGE', value: image('modelMetadata') },
      { name: 'RELATED_IMAGE_ODH_MODEL_PERFORMANCE_DATA_IMAGE', value: image('modelMetadata') },
    ];
    const deployment = [
      { name: 'REGISTRIES_NAMESPACE', value: rns ?? '' },
      { name: 'DEFAULT_DOMAIN', value: '' },
      { name: 'SKIP_MODEL_CATALOG_DB_CREATION', value: '' },
      { name: 'GATEWAY_DOMAIN', value: '' },
      { name: 'GATEWAY_NAME', value: '' },
      { name: 'GATEWAY_NAMESPACE', value: '' },
      { name: 'HTTPROUTE_NAMESPACE', value: '' },
    ];
    const trustedCa = {
      volumes: [{ name: 'tmp', emptyDir: {} }, { name: 'trusted-ca', configMap: { name: 'odh-trusted-ca-bundle', optional: true } }],
      volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }, { name: 'trusted-ca', mountPath: '/etc/pki/tls/custom', readOnly: true }],
    };

    // --- the operator ------------------------------------------------------------------
    const metricsService = 'model-registry-operator-controller-manager-metrics-service';
    const metricsCert = serviceServingCertificate(new Construct(this, 'OperatorMetricsCertificate'), this, { serviceName: metricsService, secretName: metricsService });
    this.operator = new Controller(this, 'Operator', {
      name: 'model-registry-operator-controller-manager',
      image: image('operator'),
      command: ['/manager'],
      args: ['--health-probe-bind-address=:8081', '--leader-elect'],
      env: [
        // v1alpha1 objects are rewritten to the v1beta1 storage version at start-up.
        { name: 'STORAGE_MIGRATION_SOURCE_VERSION', value: 'v1alpha1' },
        { name: 'STORAGE_MIGRATION_TARGET_VERSION', value: 'v1beta1' },
        { name: 'ENABLE_WEBHOOKS', value: 'true' },
        { name: 'DEFAULT_CONTROL_PLANE', valueFrom: { configMapKeyRef: { name: 'service-mesh-refs', key: 'CONTROL_PLANE_NAME', optional: true } } },
        { name: 'DEFAULT_ISTIO_INGRESS', valueFrom: { configMapKeyRef: { name: 'service-mesh-refs', key: 'ISTIO_INGRESS_NAME', optional: true } } },
        ...relatedImages,
        { name: 'CREATE_AUTH_RESOURCES', value: 'true' },
        ...deployment,
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

    // --- the catalog -------------------------------------------------------------------
    if (props.catalog ?? true) {
      const ctl = new Controller(this, 'CatalogManager', {
        name: 'catalog-controller-manager',
        image: image('operator'),
        command: ['/manager'],
        args: ['catalog', '--leader-elect'],
        env: [...relatedImages.filter((e) => !['RELATED_IMAGE_ODH_MODEL_REGISTRY_IMAGE', 'OAUTH_PROXY_IMAGE'].includes(e.name)), { name: 'ENABLE_WEBHOOKS', value: 'true' }, ...deployment],
        selectorLabels: { 'control-plane': 'catalog-controller-manager' },
        labels: { 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/name': 'catalog-controller-manager' },
        ports: { health: 8081, webhook: 9443 },
        replicas: props.replicas,
        leaderElectionId: 'catalog.opendatahub.io',
        resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '500m', memory: '1Gi' } },
        terminationGracePeriodSeconds: 30,
        owns: [catalog.definition],
        rules: CATALOG_RULES,
        watches: OPERAND_WATCHES,
        ...trustedCa,
      });
      this.catalog = ctl;
      const server = new WebhookServer(this, 'CatalogWebhookServer', { controller: ctl, serviceName: 'catalog-webhook-service', secretName: 'catalog-webhook-service' });
      server.addValidatingWebhook('catalog-validating-webhook-configuration', {
        name: 'vcatalog.aihub.opendatahub.io',
        path: '/validate-aihub-opendatahub-io-catalog',
        rules: [{ apiGroups: ['aihub.opendatahub.io'], apiVersions: ['v1alpha1'], resources: ['catalogs'], operations: ['CREATE', 'UPDATE'] }],
        matchPolicy: 'Equivalent',
        timeoutSeconds: 5,
      });
    }

    // --- the AIHub module ----------------------------------------------------------------
    if (props.aiHub ?? false) {
      const service = 'aihub-controller-manager-metrics-service';
      const secret = 'aihub-controller-manager-metrics-tls';
      const cert = serviceServingCertificate(new Construct(this, 'AIHubMetricsCertificate'), this, { serviceName: service, secretName: secret });
      const ctl = new Controller(this, 'AIHubManager', {
        name: 'aihub-controller-manager',
        image: image('operator'),
        command: ['/manager'],
        args: ['aihub', '--leader-elect'],
        env: [
          { name: 'RELATED_IMAGE_ODH_MODEL_REGISTRY_OPERATOR_IMAGE', value: image('operator') },
          ...relatedImages.filter((e) => e.name !== 'OAUTH_PROXY_IMAGE'),
          { name: 'RELATED_IMAGE_ODH_MODEL_REGISTRY_JOB_ASYNC_UPLOAD_IMAGE', value: image('asyncUpload') },
        ],
        selectorLabels: { 'control-plane': 'aihub-controller-manager' },
        labels: { 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/name': 'aihub-controller-manager' },
        ports: { health: 8081 },
        metrics: ControllerMetrics.secure(8443, {
          args: ['--metrics-cert-dir=/tmp/k8s-metrics-server/serving-certs', '--metrics-cert-name=tls.crt', '--metrics-key-name=tls.key'],
          serviceName: service,
          portName: 'https',
          serviceAnnotations: Object.keys(cert).length ? cert : undefined,
        }),
        replicas: props.replicas,
        leaderElectionId: 'aihub-controller-manager',
        resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '500m', memory: '1Gi' } },
        terminationGracePeriodSeconds: 30,
        owns: [aiHub.definition, catalog.definition, mr.definition],
        rules: AIHUB_RULES,
        watches: OPERAND_WATCHES,
        volumes: [{ name: 'manifests', emptyDir: { sizeLimit: '256Mi' } }, ...trustedCa.volumes],
        volumeMounts: [{ name: 'manifests', mountPath: '/opt/manifests' }, ...trustedCa.volumeMounts],
      });
      ctl.mountSecret('metrics-certs', secret, '/tmp/k8s-metrics-server/serving-certs');
      this.aiHub = ctl;
    }
  }
}
