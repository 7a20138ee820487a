import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { CRDS } from './crds';
import { ModelServingApi } from './model-serving-api';
import { ODH_MODEL_CONTROLLER_PARITY_DEVIATIONS } from './parity';
import { ODH_MODEL_CONTROLLER_RULES, ODH_MODEL_CONTROLLER_RUNTIME_ROLES, ODH_MODEL_CONTROLLER_WATCHES } from './rbac';
import { ODH_MODEL_CONTROLLER_IMAGES } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { excludingNamespaces, WebhookRule, WebhookServer } from '../../lib/webhook-server';
import { KServe } from '../kserve/kserve';

/** Whether an integration of the controller is on (the *_STATE environment of upstream). */
export enum IntegrationState {
  MANAGED = 'managed',
  REMOVED = 'removed',
}

export interface OdhModelControllerProps extends ComponentProps {
  /** @default opendatahub */
  readonly namespace?: string;
  /** Replicas of the controller (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** NVIDIA NIM accounts (NIM_STATE). @default IntegrationState.MANAGED */
  readonly nim?: IntegrationState;
  /** Model registry integration (MODELREGISTRY_STATE). @default IntegrationState.REMOVED */
  readonly modelRegistry?: IntegrationState;
  /** The model-serving-api server for the dashboard. @default true */
  readonly modelServingApi?: boolean;
}

const KSERVE = 'serving.kserve.io';
const SELECTOR = { 'control-plane': 'odh-model-controller' };
const ALL_STATES = Object.values(IntegrationState) as string[];

function rule(group: string, version: string, resources: string[], operations: WebhookRule['operations']): WebhookRule[] {
  return [{ apiGroups: [group], apiVersions: [version], resources, operations }];
}

/** The ConfigMap the controller reads at run time (upstream's name). */
export const ODH_MODEL_CONTROLLER_PARAMETERS = 'odh-model-controller-parameters';

/**
 * odh-model-controller: Open Data Hub's companion to KServe. It reconciles KServe's
 * InferenceServices, InferenceGraphs, ServingRuntimes and LLMInferenceServices (routes,
 * auth, monitoring, network policies), owns NVIDIA NIM Accounts, and serves 8 admission
 * webhooks on KServe kinds, NIM Accounts and predictor pods.
 */
export class OdhModelController extends Component {
  /** The upstream release this construct models. */
  public override get release(): string | undefined {
    return ODH_MODEL_CONTROLLER_IMAGES.controller.tag;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = ODH_MODEL_CONTROLLER_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  public readonly modelServingApi?: ModelServingApi;

  constructor(scope: Platform, id: string, props: OdhModelControllerProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub', props);
    for (const [prop, value] of [['nim', props.nim], ['modelRegistry', props.modelRegistry]] as const) {
      if (value !== undefined && !ALL_STATES.includes(value)) {
        throw new Error(`${this.node.path}: ${prop} '${value}' is not an integration state; use IntegrationState.MANAGED or IntegrationState.REMOVED`);
      }
    }
    this.addNamespace();
    this.declareParityDeviations(ODH_MODEL_CONTROLLER_PARITY_DEVIATIONS);
    const crds = CRDS.map((d) => this.addCrd(d));
    for (const kind of ['InferenceService', 'InferenceGraph', 'ServingRuntime', 'LLMInferenceService', 'LLMInferenceServiceConfig']) {
      this.require({ group: KSERVE, kind, reason: `reconciles and admits KServe ${kind}s`, providedBy: KServe });
    }

    this.controller = new Controller(this, 'Manager', {
      name: 'odh-model-controller',
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--leader-elect', '--health-probe-bind-address=:8081'],
      env: [
        { name: 'NIM_STATE', value: props.nim ?? IntegrationState.MANAGED },
        { name: 'KSERVE_STATE', value: IntegrationState.MANAGED },
        { name: 'MODELREGISTRY_STATE', value: props.modelRegistry ?? IntegrationState.REMOVED },
      ],
      selectorLabels: SELECTOR,
      labels: { app: 'odh-model-controller' },
      ports: { health: 8081, webhook: 9443 },
      metrics: ControllerMetrics.insecure(8080, 'upstream odh-model-controller serves plain HTTP metrics on :8080 (Service odh-model-controller-metrics-service)', {
        args: ['--metrics-bind-address=:8080'],
        serviceName: 'odh-model-controller-metrics-service',
        portName: 'http',
      }),
      replicas: props.replicas,
      leaderElectionId: 'odh-model-controller.opendatahub.io',
      resources: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '2Gi' } },
      owns: crds.map((c) => c.definition),
      rules: ODH_MODEL_CONTROLLER_RULES,
      grants: ODH_MODEL_CONTROLLER_RUNTIME_ROLES,
      watches: ODH_MODEL_CONTROLLER_WATCHES,
      // The leader-election role upstream also grants ConfigMaps (the older lock type).
      namespacedRules: [Rbac.manage('', 'configmaps')],
    });

    // OMC-PARAMS: read at run time by name and key (internal/webhook/core/v1/pod_webhook.go at
    // odh-v3.5-EA2): the pod mutator looks up ray-tls-generator-image in this ConfigMap in the
    // controller's namespace (POD_NAMESPACE) and denies a Ray-TLS pod when it is missing.
    // Upstream's other params.env keys are kustomize parameters (env values, images of
    // templates we do not ship) that no code reads from the cluster.
    new k8s.KubeConfigMap(this, 'Parameters', {
      metadata: { name: ODH_MODEL_CONTROLLER_PARAMETERS, namespace: this.namespaceName },
      data: { 'ray-tls-generator-image': this.image('rayTlsGenerator') },
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: 'odh-model-controller-webhook-service',
      secretName: 'odh-model-controller-webhook-cert',
    });
    const w = this.webhookServer;
    const MUTATING = 'mutating.odh-model-controller.opendatahub.io';
    const VALIDATING = 'validating.odh-model-controller.opendatahub.io';
    const suffix = '.odh-model-controller.opendatahub.io';
    w.addMutatingWebhook(MUTATING, {
      name: `minferencegraph-v1alpha1${suffix}`,
      path: '/mutate-serving-kserve-io-v1alpha1-inferencegraph',
      rules: rule(KSERVE, 'v1alpha1', ['inferencegraphs'], ['CREATE']),
    });
    // InferenceServices on CREATE only, as upstream's markers at odh-v3.5-EA2: with UPDATE every
    // update of an InferenceService would fail while the controller is down (fail-closed).
    // At odh-v3.5-EA2 this mutator changes nothing outside the object (sideEffects None), and
    // the release serves no LLMInferenceService mutator (later releases add one).
    w.addMutatingWebhook(MUTATING, {
      name: `minferenceservice-v1beta1${suffix}`,
      path: '/mutate-serving-kserve-io-v1beta1-inferenceservice',
      rules: rule(KSERVE, 'v1beta1', ['inferenceservices'], ['CREATE']),
    });
    w.addMutatingWebhook(MUTATING, {
      name: `mutating.pod${suffix}`,
      path: '/mutate--v1-pod',
      rules: rule('', 'v1', ['pods'], ['CREATE']),
      // Not upstream's: kube-system and our own namespace are left out, so that a down
      // webhook never blocks pods there (MLP053).
      namespaceSelector: excludingNamespaces(['kube-system', this.namespaceName]),
      objectSelector: {
        matchExpressions: [
          { key: 'serving.kserve.io/inferenceservice', operator: 'Exists' },
          { key: 'control-plane', operator: 'DoesNotExist' },
        ],
      },
    });
    w.addValidatingWebhook(VALIDATING, {
      name: `validating.nim.account${suffix}`,
      path: '/validate-nim-opendatahub-io-v1-account',
      rules: rule('nim.opendatahub.io', 'v1', ['accounts'], ['CREATE', 'UPDATE']),
    });
    w.addValidatingWebhook(VALIDATING, {
      name: `validating.isvc${suffix}`,
      path: '/validate-serving-kserve-io-v1beta1-inferenceservice',
      rules: rule(KSERVE, 'v1beta1', ['inferenceservices'], ['CREATE']),
    });
    w.addValidatingWebhook(VALIDATING, {
      name: `vinferencegraph-v1alpha1${suffix}`,
      path: '/validate-serving-kserve-io-v1alpha1-inferencegraph',
      rules: rule(KSERVE, 'v1alpha1', ['inferencegraphs'], ['CREATE', 'UPDATE']),
    });

    this.addUserRoles();
    if (props.modelServingApi ?? true) this.modelServingApi = new ModelServingApi(this, 'ModelServingApi', { image: this.image('modelServingApi') });
  }

  /** Aggregated roles for users, and the roles Prometheus and metrics readers bind to. */
  private addUserRoles(): void {
    const role = (id: string, name: string, rules: PolicyRule[], labels?: Record<string, string>) => roleObject(this, id, { name, labels, rules });
    const aggregate = (...to: string[]) => ({
      'app.kubernetes.io/name': 'odh-model-controller',
      ...Object.fromEntries(to.map((t) => [`rbac.authorization.k8s.io/aggregate-to-${t}`, 'true'])),
    });
    role('AccountEditorRole', 'account-editor-role', [
      Rbac.manage('nim.opendatahub.io', 'accounts'),
      Rbac.verbs('nim.opendatahub.io', ['accounts/finalizers'], ['get', 'update']),
    ], aggregate('admin', 'edit'));
    role('AccountViewerRole', 'account-viewer-role', [
      Rbac.read('nim.opendatahub.io', 'accounts'),
      Rbac.verbs('nim.opendatahub.io', ['accounts/finalizers', 'accounts/status'], ['get', 'update']),
    ], aggregate('admin', 'edit', 'view'));
    // For the monitoring stack that scrapes model servers.
    role('KServePrometheusRole', 'kserve-prometheus-k8s', [Rbac.read('', 'endpoints', 'pods', 'services')]);
    role('MetricsReaderRole', 'metrics-reader', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  }
}
