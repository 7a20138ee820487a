import { DeviationCategory, FactKind, literalPattern, ParityDeviation } from '../../lib/parity';

const MANAGER = 'Deployment/data-science-pipelines-operator-controller-manager';
const CONTAINER = `${MANAGER} container manager`;
const PARAMS = 'data-science-pipelines-operator-dspo-parameters';

type Status = 'missing' | 'extra' | 'differs';

/** One deviation per item (each item exact, so that a future difference is not hidden). */
function each(kind: FactKind, object: string, status: Status, items: readonly string[], category: DeviationCategory, reason: string): ParityDeviation[] {
  return items.map((item) => ({ fact: { kind, object, item: literalPattern(item), status }, category, reason }));
}

const verbs = (prefix: string, vs: readonly string[]) => vs.map((v) => `${prefix}|${v}`);
const CRUD = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const ALL = [...CRUD, 'deletecollection'];

/**
 * The Data Science Pipelines Operator's differences from upstream's install at v2.18.0
 * (config/overlays/odh), each checked against the operator's code at that tag.
 */
export const DSPO_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...each(FactKind.ENV, CONTAINER, 'missing', [
    'IMAGES_APISERVER', 'IMAGES_ARGO_EXEC', 'IMAGES_ARGO_WORKFLOWCONTROLLER', 'IMAGES_DRIVER', 'IMAGES_LAUNCHER', 'IMAGES_MARIADB',
    'IMAGES_MLMDENVOY', 'IMAGES_MLMDGRPC', 'IMAGES_PERSISTENCEAGENT', 'IMAGES_SCHEDULEDWORKFLOW',
    'DSPO_ARGOWORKFLOWSCONTROLLERS', 'DSPO_FIPSENABLED', 'DSPO_PLATFORMVERSION', 'DSPO_REQUEUE_TIME',
  ], DeviationCategory.PLATFORM_INTEGRATION,
  'v2.18.0 reads these settings through viper (main.go initConfig), where an env variable only overrides the same key of config.yaml; the construct writes the values into config.yaml (data-science-pipelines-operator-dspo-config) instead.'),
  ...each(FactKind.ENV, CONTAINER, 'missing', ['IMAGES_KUBE_RBAC_PROXY', 'DSPO_APISERVER_INCLUDE_OWNERREFERENCE', 'MANAGEDPIPELINES'], DeviationCategory.NOT_INSTALLED,
    'no setting of v2.18.0 reads these names (viper maps Images.KubeRBACProxy to IMAGES_KUBERBACPROXY and DSPO.ApiServer.IncludeOwnerReference to DSPO_APISERVER_INCLUDEOWNERREFERENCE; nothing reads MANAGEDPIPELINES); config.yaml carries those values.'),
  ...each(FactKind.ENV, CONTAINER, 'missing', ['WEBHOOK_ANNOTATIONS'], DeviationCategory.NOT_INSTALLED,
    'main.go at v2.18.0 reads WEBHOOK_ANNOTATIONS only when it is not empty, and upstream\'s value is empty.'),
  ...each(FactKind.CONFIGMAP_KEY, PARAMS, 'missing', [
    'ARGOWORKFLOWSCONTROLLERS', 'DSPO_APISERVER_INCLUDE_OWNERREFERENCE', 'DSPO_HEALTHCHECK_DATABASE_CONNECTIONTIMEOUT', 'DSPO_HEALTHCHECK_OBJECTSTORE_CONNECTIONTIMEOUT',
    'DSPO_REQUEUE_TIME', 'FIPSENABLED', 'IMAGES_APISERVER', 'IMAGES_ARGO_EXEC', 'IMAGES_ARGO_WORKFLOWCONTROLLER', 'IMAGES_DRIVER', 'IMAGES_DSPO',
    'IMAGES_LAUNCHER', 'IMAGES_MARIADB', 'IMAGES_MLMDENVOY', 'IMAGES_MLMDGRPC', 'IMAGES_PERSISTENCEAGENT', 'IMAGES_SCHEDULEDWORKFLOW',
    'MANAGEDPIPELINES', 'PLATFORMVERSION', 'WEBHOOK_ANNOTATIONS', 'kube-rbac-proxy',
  ], DeviationCategory.PLATFORM_INTEGRATION,
  'the parameters ConfigMap is the source of kustomize variables and env references, not read by the operator itself; here only ZAP_LOG_LEVEL and MAX_CONCURRENT_RECONCILES reach it that way, the rest is written into config.yaml.'),
  ...each(FactKind.ARG, CONTAINER, 'missing', ['--zap-log-level=info', '--MaxConcurrentReconciles=10'], DeviationCategory.PLATFORM_INTEGRATION,
    'the flags take the same values (info and 10 by default) from env the kubelet expands, sourced from the parameters ConfigMap, where upstream\'s kustomize writes them in literally.'),
  ...each(FactKind.ARG, CONTAINER, 'extra', ['--zap-log-level=$(ZAP_LOG_LEVEL)', '--MaxConcurrentReconciles=$(MAX_CONCURRENT_RECONCILES)'], DeviationCategory.PLATFORM_INTEGRATION,
    'the flags take the same values (info and 10 by default) from env the kubelet expands, sourced from the parameters ConfigMap, where upstream\'s kustomize writes them in literally.'),
  ...each(FactKind.PORT, CONTAINER, 'extra', ['8080/TCP'], DeviationCategory.HARDENING,
    'the plain-HTTP metrics endpoint the manager serves on :8080 (its --metrics-bind-address default at v2.18.0) is declared as a named container port, which its metrics Service targets.'),
  ...each(FactKind.SERVICE_SELECTOR, 'data-science-pipelines-operator-service', 'extra', ['control-plane'], DeviationCategory.HARDENING,
    'the metrics Service selects the manager\'s pods by both of their labels, so that it reaches only them in a namespace shared with other operators.'),
  {
    fact: { kind: FactKind.CONFIGMAP, object: 'workflow-controller-configmap', status: 'missing' },
    category: DeviationCategory.NOT_INSTALLED,
    reason: 'an empty ConfigMap nothing of v2.18.0 reads: the workflow controller it deploys per DSPA reads ds-pipeline-workflow-controller-<dspa> (or the DSPA\'s custom one).',
  },
  ...each(FactKind.RBAC, MANAGER, 'missing', [
    ...verbs('*|deployments', CRUD), ...verbs('*|services', CRUD),
    ...verbs('apps|deployments/finalizers', ALL), ...verbs('extensions|deployments/finalizers', ALL), ...verbs('|deployments/finalizers', ALL),
    'argoproj.io|workflowartifactgctasks/finalizers|deletecollection', 'argoproj.io|workflowartifactgctasks|deletecollection', 'argoproj.io|workflows|deletecollection',
    'datasciencepipelinesapplications.opendatahub.io|datasciencepipelinesapplications/api|list', 'datasciencepipelinesapplications.opendatahub.io|datasciencepipelinesapplications/api|watch',
    '|events|list',
  ], DeviationCategory.SCOPED_RBAC,
  'no Role v2.18.0 creates per DSPA contains these and no reconciler of that tag uses them: its ClusterRole is what those Roles and its reconcilers need (runtime-roles.ts), e.g. Deployments and Services in the core, apps and extensions groups only.'),
  ...each(FactKind.RBAC, MANAGER, 'extra', [
    ...verbs('kubeflow.org|scheduledworkflows', CRUD), ...verbs('kubeflow.org|scheduledworkflows/finalizers', CRUD), ...verbs('kubeflow.org|viewers', CRUD),
  ], DeviationCategory.SCOPED_RBAC,
  'covered by the kubeflow.org \'*\' grant both installs give it (the pipeline-runner Role it creates per DSPA carries it); the construct also names the kinds its API server Role uses.'),
  ...([['MAX_CONCURRENT_RECONCILES', 'value 10'], ['ZAP_LOG_LEVEL', 'value info']] as const).map(([item, upstream]) => ({
    fact: { kind: FactKind.ENV, object: CONTAINER, item, status: 'differs' as const, upstream },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: `the value comes from ${PARAMS} (props logLevel and maxConcurrentReconciles, upstream's values by default), where upstream writes it into the env.`,
  })),
  {
    fact: { kind: FactKind.CONFIGMAP_KEY, object: 'data-science-pipelines-operator-dspo-config', item: 'config.yaml', status: 'differs', upstream: 'sha256:ec39cfc78f00a05c5596f3ce8a7419c1e4908f51aa3870f6ae3679646639ddc8' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'config.yaml names the images of the versions table (tags, where upstream pins digests), carries the settings the env variables upstream ships would have set (DSPO.ApiServer.IncludeOwnerReference) and describes the managed sample pipeline in the project\'s own words.',
  },
];
