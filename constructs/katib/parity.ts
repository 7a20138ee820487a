import { KATIB_DEFAULT_TRIAL_KINDS, KatibTrialKind, trialKindGvk } from './katib-config';
import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

const C = DeviationCategory;
const CONTROLLER = 'Deployment/katib-controller';
const UI = 'Deployment/katib-ui';
const KINDS = ['experiments', 'suggestions', 'trials'];
/** The kinds no run-time Role of the controller grants `*` on. */
const UNSHARED = ['experiments', 'suggestions'];

export interface KatibParityOptions {
  readonly trialKinds: readonly KatibTrialKind[];
  /** Whether the controller's certificate generator runs (else the platform's provider issues the certificate). */
  readonly selfManagedCertificate: boolean;
  /** Whether the db-manager talks to MySQL (its KATIB_MYSQL_DB_* variables). */
  readonly mysql: boolean;
  readonly ui: boolean;
  /** Whether the UI is routed through an Istio gateway (uiGateway), as katib-with-kubeflow. */
  readonly routedUi?: boolean;
}

/** Katib's differences from upstream's katib-standalone install at v0.19.0, and why. */
export function katibParityDeviations(o: KatibParityOptions): ParityDeviation[] {
  const missing = (object: string, items: string[], category: DeviationCategory, reason: string) =>
    itemDeviations({ kind: FactKind.RBAC, object, status: 'missing' }, items, category, reason);
  const out: ParityDeviation[] = [
    {
      fact: { kind: FactKind.CONTAINER, object: CONTROLLER, item: 'katib-controller', status: 'differs' },
      category: C.PLATFORM_INTEGRATION,
      reason: 'lib\'s Controller names every manager container manager; nothing in Katib v0.19.0 looks its controller container up by name.',
    },
    ...itemDeviations({ kind: FactKind.SERVICE_PORT, object: 'katib-controller', status: 'missing' }, ['8080/TCP', '18080/TCP'], C.PLATFORM_INTEGRATION,
      'metrics (8080) are served through their own Service, katib-controller-metrics, and the health port (18080) is probed by the kubelet on the pod, so the webhook Service carries only the webhook port.'),
    {
      fact: { kind: FactKind.CONFIGMAP, object: 'trial-templates', status: 'missing' },
      category: C.NOT_INSTALLED,
      reason: 'upstream\'s trial-templates ConfigMap holds example trials (MNIST and others); the controller reads a template ConfigMap only when an Experiment names it, and the UI lists whichever ConfigMaps carry the label katib.kubeflow.org/component: trial-templates.',
    },
    // The controller: upstream's ClusterRole grants `*` on each Katib kind and its subresources.
    ...missing(CONTROLLER, [
      // Not trials and trials/status: the Role it creates per Suggestion with early stopping
      // grants `*` on them, so it holds `*` on them as upstream does (KATIB_RUNTIME_ROLES).
      ...rbacItems('kubeflow.org', UNSHARED.map((k) => `${k}/status`), ['create', 'delete', 'deletecollection', 'list', 'watch']),
      ...rbacItems('kubeflow.org', KINDS.map((k) => `${k}/finalizers`), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'watch']),
      ...rbacItems('kubeflow.org', UNSHARED, ['deletecollection']),
    ], C.SCOPED_RBAC, 'the controller reads and writes status through get, patch and update, needs only update on finalizers (owner references that block deletion), and deletes Katib objects one by one, never by collection; upstream grants every verb through `*`.'),
  ];
  if (!o.selfManagedCertificate) {
    out.push(...missing(CONTROLLER, [
      ...rbacItems('admissionregistration.k8s.io', ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['get', 'list', 'patch', 'update', 'watch']),
      ...rbacItems('', ['secrets'], ['patch', 'update']),
    ], C.PLATFORM_INTEGRATION, 'the platform\'s certificate provider issues the webhook certificate and injects the CA, so KatibConfig turns the certificate generator off and the controller neither writes its Secret nor patches webhook configurations.'));
  }
  // Trial kinds the platform does not enable: upstream's default KatibConfig enables six.
  for (const k of KATIB_DEFAULT_TRIAL_KINDS.filter((x) => !o.trialKinds.includes(x))) {
    const g = trialKindGvk(k);
    out.push(...missing(CONTROLLER, rbacItems(g.group, [g.plural], ['create', 'delete', 'get', 'list', 'watch']), C.NOT_INSTALLED,
      `trial kind ${g.kind} is not enabled (trialKinds): the controller's rules and KatibConfig trialResources follow the enabled trial kinds.`));
  }
  if (o.mysql) {
    out.push(...itemDeviations({ kind: FactKind.ENV, object: 'Deployment/katib-db-manager container katib-db-manager', status: 'extra' },
      ['DB_USER', 'KATIB_MYSQL_DB_DATABASE', 'KATIB_MYSQL_DB_HOST', 'KATIB_MYSQL_DB_PORT'], C.PLATFORM_INTEGRATION,
      'the db-manager reads these variables (pkg/db/v1beta1/common/const.go) and falls back to upstream\'s values when unset; they are set so that the included MySQL or an externalDatabase is named in one place.'));
  }
  if (o.ui) {
    out.push(...missing(UI, [
      ...rbacItems('kubeflow.org', ['experiments'], ['deletecollection']),
      ...rbacItems('kubeflow.org', ['suggestions', 'trials'], ['create', 'delete', 'deletecollection', 'patch', 'update']),
      ...rbacItems('', ['configmaps'], ['deletecollection', 'watch']),
      ...rbacItems('', ['namespaces'], ['create', 'delete', 'deletecollection', 'patch', 'update']),
    ], C.SCOPED_RBAC, 'the UI backend at v0.19.0 creates and deletes Experiments, only reads Trials, Suggestions and namespaces, and gets, lists, creates, updates and deletes trial-template ConfigMaps one at a time; upstream grants `*` on each.'));
  }
  if (o.routedUi) {
    out.push(...itemDeviations({ kind: FactKind.ENV, object: 'Deployment/katib-ui container katib-ui', status: 'extra' }, ['APP_DISABLE_AUTH'], C.PLATFORM_INTEGRATION,
      'routed through the Kubeflow gateway (uiGateway), the UI checks each user\'s access, as kubeflow/manifests\' katib-with-kubeflow install sets it (patches/enable-ui-authz-checks.yaml); katib-standalone leaves it off.'));
  }
  out.push(valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'katib-config', item: 'katib-config.yaml' }, 'sha256:b86ea0097b5b74893617d5f7a1523f3873c17ebb1454a51f2157ec12790183a2',
    DeviationCategory.PLATFORM_INTEGRATION,
    'KatibConfig lists as trial resources the kinds whose CRDs the platform serves (trialKinds), turns the built-in certificate generator off where the platform provides the webhook certificate, and states the manager\'s addresses and leader election that upstream leaves to defaults.'));
  return out;
}
