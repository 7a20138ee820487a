import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { aiTenantCrd, configCrd, DEFAULT_AITENANT_NAMESPACE, legacyExternalModelCrd, maasAuthPolicyCrd, maasModelRefCrd, maasSubscriptionCrd, maasTenantConfigCrd, tenantCrd } from './crds';
import { MAAS_PARITY_DEVIATIONS } from './parity';
import { MAAS_CONTROLLER_RULES, MAAS_CONTROLLER_WATCHES, MAAS_OWNER_RULES, MAAS_RUNTIME_ROLES, MAAS_VIEWER_RULES } from './rbac';
import { MAAS_IMAGES, MAAS_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, roleObject } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { WebhookServer } from '../../lib/webhook-server';
import { AiGatewayPayloadProcessing } from '../ai-gateway-payload-processing/ai-gateway-payload-processing';
import { externalModelCrd, externalProviderCrd } from '../ai-gateway-payload-processing/crds';
import { KServe } from '../kserve/kserve';

export interface ModelsAsAServiceProps extends ComponentProps {
  /** @default opendatahub */
  readonly namespace?: string;
  /** Replicas of maas-controller (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** The Gateway that publishes models. @default maas-default-gateway */
  readonly gatewayName?: string;
  /** Its namespace. @default openshift-ingress */
  readonly gatewayNamespace?: string;
  /** Where the per-tenant infrastructure goes; AUTO lets the controller choose. @default AUTO */
  readonly infraNamespace?: string;
  /** Where MaaSSubscriptions are accepted. @default models-as-a-service */
  readonly subscriptionNamespace?: string;
  /** Where AITenants are accepted (the controller's --aitenant-namespace). @default ai-tenants */
  readonly aiTenantNamespace?: string;
  /** Where the monitoring stack runs. @default the component namespace */
  readonly monitoringNamespace?: string;
  /** Seconds the controller caches model metadata and authorization decisions. @default 60 */
  readonly cacheTtlSeconds?: number;
}

const LABELS = {
  'app.kubernetes.io/component': 'models-as-a-service',
  'app.kubernetes.io/name': 'maas-controller',
  'app.kubernetes.io/part-of': 'models-as-a-service',
};
const SELECTOR = { 'control-plane': 'maas-controller' };
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const PARAMETERS = 'maas-parameters';

/**
 * Models-as-a-Service: the maas.opendatahub.io CRDs, maas-controller (tenants, model
 * references, subscriptions and auth policies turned into Gateway API routes and Kuadrant
 * policies) and its 4 validating webhooks. The inference.opendatahub.io ExternalModel and
 * ExternalProvider CRDs that upstream bundles are used from the payload processor, which owns
 * them: they are never emitted twice.
 */
export class ModelsAsAService extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return MAAS_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = MAAS_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: ModelsAsAServiceProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub', props);
    this.declareParityDeviations(MAAS_PARITY_DEVIATIONS);
    const ns = this.namespaceName;
    const names: Array<[string, string | undefined]> = [
      ['gatewayName', props.gatewayName], ['gatewayNamespace', props.gatewayNamespace], ['subscriptionNamespace', props.subscriptionNamespace],
      ['aiTenantNamespace', props.aiTenantNamespace], ['monitoringNamespace', props.monitoringNamespace],
    ];
    if (props.infraNamespace !== 'AUTO') names.push(['infraNamespace', props.infraNamespace]);
    for (const [prop, value] of names) {
      if (value !== undefined && (!DNS_LABEL.test(value) || value.length > 63)) {
        throw new Error(`${this.node.path}: ${prop} '${value}' must be a lower-case DNS label of at most 63 characters${prop === 'infraNamespace' ? " (or 'AUTO')" : ''}`);
      }
    }
    const ttl = props.cacheTtlSeconds ?? 60;
    if (!Number.isInteger(ttl) || ttl < 1) throw new Error(`${this.node.path}: cacheTtlSeconds ${props.cacheTtlSeconds} must be a whole number of seconds >= 1`);
    const aiTenantNamespace = props.aiTenantNamespace ?? DEFAULT_AITENANT_NAMESPACE;

    this.addNamespace();
    const owned = [aiTenantCrd(), maasAuthPolicyCrd, maasModelRefCrd, maasSubscriptionCrd, maasTenantConfigCrd].map((d) => this.addCrd(d).definition);
    for (const d of [configCrd, legacyExternalModelCrd, tenantCrd]) this.addCrd(d);
    for (const def of [externalModelCrd, externalProviderCrd]) {
      this.useCrd(def, { reason: `MaaSModelRefs publish ${def.kind}s; upstream bundles a copy of the CRD, which the payload processor owns`, providedBy: AiGatewayPayloadProcessing });
    }
    this.require({ group: 'serving.kserve.io', kind: 'LLMInferenceService', reason: 'MaaSModelRefs publish LLMInferenceServices', providedBy: KServe });

    // Images and the monitoring namespace reach the controller through this ConfigMap, as in
    // upstream's install (the keys it does not set fall back to the controller's defaults).
    new k8s.KubeConfigMap(this, 'Parameters', {
      metadata: { name: PARAMETERS, namespace: ns, labels: LABELS },
      data: {
        'maas-api-image': this.image('maasApi'),
        'payload-processing-image': this.image('payloadProcessing'),
        'monitoring-namespace': props.monitoringNamespace ?? ns,
      },
    });
    const fromParameters = (name: string, key: string) => ({ name, valueFrom: { configMapKeyRef: { name: PARAMETERS, key, optional: true } } });
    this.controller = new Controller(this, 'Manager', {
      // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      name: 'maas-controller',
      image: this.image('controller'),
      command: ['/manager'],
      args: [
        '--leader-elect',
        '--health-probe-bind-address=:8081',
        '--controller-namespace=$(CONTROLLER_NAMESPACE)',
        '--gateway-name=$(GATEWAY_NAME)',
        '--gateway-namespace=$(GATEWAY_NAMESPACE)',
        '--infra-namespace=$(INFRA_NAMESPACE)',
        '--maas-subscription-namespace=$(MAAS_SUBSCRIPTION_NAMESPACE)',
        '--aitenant-namespace=$(AITENANT_NAMESPACE)',
        '--monitoring-namespace=$(MONITORING_NAMESPACE)',
        '--enable-tenant-namespace-discovery',
        `--metadata-cache-ttl=${ttl}`,
        `--authz-cache-ttl=${ttl}`,
      ],
      env: [
        { name: 'CONTROLLER_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'GATEWAY_NAME', value: props.gatewayName ?? 'maas-default-gateway' },
        { name: 'GATEWAY_NAMESPACE', value: props.gatewayNamespace ?? 'openshift-ingress' },
        { name: 'INFRA_NAMESPACE', value: props.infraNamespace ?? 'AUTO' },
        { name: 'MAAS_SUBSCRIPTION_NAMESPACE', value: props.subscriptionNamespace ?? 'models-as-a-service' },
        { name: 'AITENANT_NAMESPACE', value: aiTenantNamespace },
        fromParameters('RELATED_IMAGE_ODH_MAAS_API_IMAGE', 'maas-api-image'),
        fromParameters('RELATED_IMAGE_ODH_AI_GATEWAY_PAYLOAD_PROCESSING_IMAGE', 'payload-processing-image'),
        fromParameters('RELATED_IMAGE_UBI_MINIMAL_IMAGE', 'maas-api-key-cleanup-image'),
        fromParameters('RELATED_IMAGE_ODH_PYTHON_312_IMAGE', 'usage-logs-tenancy-proxy-image'),
        fromParameters('MONITORING_NAMESPACE', 'monitoring-namespace'),
      ],
      selectorLabels: SELECTOR,
      labels: { app: 'maas-controller', ...LABELS },
      ports: { health: 8081, webhook: 9443 },
      // v0.2.1 (and the stable branch odh-stable is built from) has no --metrics-secure flag:
      // passing one makes the manager exit at flag parsing. It serves controller-runtime
      // metrics over plain HTTP on its default :8080, as upstream's install scrapes them.
      metrics: ControllerMetrics.insecure(8080, 'maas-controller v0.2.1 serves metrics over plain HTTP only (no secure serving, no --metrics-secure flag)', { serviceName: 'maas-controller-metrics', portName: 'metrics' }),
      replicas: props.replicas,
      leaderElectionId: 'maas-controller.models-as-a-service.opendatahub.io',
      resources: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
      terminationGracePeriodSeconds: 30,
      owns: owned,
      rules: MAAS_CONTROLLER_RULES,
      grants: MAAS_RUNTIME_ROLES,
      watches: MAAS_CONTROLLER_WATCHES,
      // Upstream's leader-election role also grants ConfigMaps (the older lock type).
      namespacedRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }],
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: 'maas-controller-webhook-service',
      secretName: 'maas-controller-webhook-cert',
      certificateName: 'maas-controller-webhook-server',
    });
    const CONFIG = 'maas-validating-webhook-configuration';
    const validators: Array<[string, string, Array<'CREATE' | 'UPDATE'>]> = [
      ['aitenant', 'aitenants', ['CREATE', 'UPDATE']],
      ['maassubscription', 'maassubscriptions', ['CREATE']],
      ['maasauthpolicy', 'maasauthpolicies', ['CREATE']],
      ['maasmodelref', 'maasmodelrefs', ['CREATE', 'UPDATE']],
    ];
    for (const [kind, plural, operations] of validators) {
      this.webhookServer.addValidatingWebhook(CONFIG, {
        name: `v${kind}.kb.io`,
        path: `/validate-maas-opendatahub-io-v1alpha1-${kind}`,
        rules: [{ apiGroups: ['maas.opendatahub.io'], apiVersions: ['v1alpha1'], resources: [plural], operations }],
      });
    }

    this.addUserRole('OwnerRole', 'maas-owner-role', MAAS_OWNER_RULES, ['admin', 'edit']);
    this.addUserRole('ViewerRole', 'maas-viewer-role', MAAS_VIEWER_RULES, ['admin', 'edit', 'view']);
  }

  private addUserRole(id: string, name: string, rules: PolicyRule[], aggregateTo: string[]): void {
    roleObject(this, id, { name, labels: { ...LABELS, ...Object.fromEntries(aggregateTo.map((t) => [`rbac.authorization.k8s.io/aggregate-to-${t}`, 'true'])) }, rules });
  }
}
