import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, valueDeviation } from '../../lib/parity-items';

const MANAGER = 'Deployment/data-science-pipelines-operator-controller-manager';
const CONTAINER = `${MANAGER} container manager`;
const PARAMS = 'data-science-pipelines-operator-dspo-parameters';

const verbs = (prefix: string, vs: readonly string[]) => vs.map((v) => `${prefix}|${v}`);
const CRUD = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const ALL = [...CRUD, 'deletecollection'];

/**
 * The Data Science Pipelines Operator's differences from upstream's install at v2.18.0
 * (config/overlays/odh), each checked against the operator's code at that tag.
 */
export const DSPO_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...itemDeviations({ kind: FactKind.ENV, object: CONTAINER, status: 'missing' }, [
    'IMAGES_APISERVER', 'IMAGES_ARGO_EXEC', 'IMAGES_ARGO_WORKFLOWCONTROLLER', 'IMAGES_DRIVER', 'IMAGES_LAUNCHER', 'IMAGES_MARIADB',
    'IMAGES_MLMDENVOY', 'IMAGES_MLMDGRPC', 'IMAGES_PERSISTENCEAGENT', 'IMAGES_SCHEDULEDWORKFLOW',
    'DSPO_ARGOWORKFLOWSCONTROLLERS', 'DSPO_FIPSENABLED', 'DSPO_PLATFORMVERSION', 'DSPO_REQUEUE_TIME',
  ], DeviationCategory.PLATFORM_INTEGRATION,
  'v2.18.0 reads these settings through viper (main.go initConfig), where an env variable only overrides the same key of config.yaml; the construct writes the values into config.yaml (data-science-pipelines-operator-dspo-config) instead.'),
  ...itemDeviations({ kind: FactKind.ENV, object: CONTAINER, status: 'missing' }, ['IMAGES_KUBE_RBAC_PROXY', 'DSPO_APISERVER_INCLUDE_OWNERREFERENCE', 'MANAGEDPIPELINES'], DeviationCategory.NOT_INSTALLED,
    'no setting of v2.18.0 reads these names (viper maps Images.KubeRBACProxy to IMAGES_KUBERBACPROXY and DSPO.ApiServer.IncludeOwnerReference to DSPO_APISERVER_INCLUDEOWNERREFERENCE; nothing reads MANAGEDPIPELINES); config.yaml carries those values.'),
  ...itemDeviations({ kind: FactKind.ENV, object: CONTAINER, status: 'missing' }, ['WEBHOOK_ANNOTATIONS'], DeviationCategory.NOT_INSTALLED,
    'main.go at v2.18.0 reads WEBHOOK_ANNOTATIONS only when it is not empty, and upstream\'s value is empty.'),
  ...itemDeviations({ kind: FactKind.CONFIGMAP_KEY, object: PARAMS, status: 'missing' }, [
    'ARGOWORKFLOWSCONTROLLERS', 'DSPO_APISERVER_INCLUDE_OWNERREFERENCE', 'DSPO_HEALTHCHECK_DATABASE_CONNECTIONTIMEOUT', 'DSPO_HEALTHCHECK_OBJECTSTORE_CONNECTIONTIMEOUT',
    'DSPO_REQUEUE_TIME', 'FIPSENABLED', 'IMAGES_APISERVER', 'IMAGES_ARGO_EXEC', 'IMAGES_ARGO_WORKFLOWCONTROLLER', 'IMAGES_DRIVER', 'IMAGES_DSPO',
    'IMAGES_LAUNCHER', 'IMAGES_MARIADB', 'IMAGES_MLMDENVOY', 'IMAGES_MLMDGRPC', 'IMAGES_PERSISTENCEAGENT', 'IMAGES_SCHEDULEDWORKFLOW',
    'MANAGEDPIPELINES', 'PLATFORMVERSION', 'WEBHOOK_ANNOTATIONS', 'kube-rbac-proxy',
  ], DeviationCategory.PLATFORM_INTEGRATION,
  'the parameters ConfigMap is the source of kustomize variables and env references, not read by the operator itself; here only ZAP_LOG_LEVEL and MAX_CONCURRENT_RECONCILES reach it that way, the rest is written into config.yaml.'),
  ...itemDeviations({ kind: FactKind.ARG, object: CONTAINER, status: 'missing' }, ['--zap-log-level=info', '--MaxConcurrentReconciles=10'], DeviationCategory.PLATFORM_INTEGRATION,
    'the flags take the same values (info and 10 by default) from env the kubelet expands, sourced from the parameters ConfigMap, where upstream\'s kustomize writes them in literally.'),
  ...itemDeviations({ kind: FactKind.ARG, object: CONTAINER, status: 'extra' }, ['--zap-log-level=$(ZAP_LOG_LEVEL)', '--MaxConcurrentReconciles=$(MAX_CONCURRENT_RECONCILES)'], DeviationCategory.PLATFORM_INTEGRATION,
    'the flags take the same values (info and 10 by default) from env the kubelet expands, sourced from the parameters ConfigMap, where upstream\'s kustomize writes them in literally.'),
  ...itemDeviations({ kind: FactKind.PORT, object: CONTAINER, status: 'extra' }, ['8080/TCP'], DeviationCategory.HARDENING,
    'the plain-HTTP metrics endpoint the manager serves on :8080 (its --metrics-bind-address default at v2.18.0) is declared as a named container port, which its metrics Service targets.'),
  ...itemDeviations({ kind: FactKind.SERVICE_SELECTOR, object: 'data-science-pipelines-operator-service', status: 'extra' }, ['control-plane'], DeviationCategory.HARDENING,
    'the metrics Service selects the manager\'s pods by both of their labels, so that it reaches only them in a namespace shared with other operators.'),
  {
    fact: { kind: FactKind.CONFIGMAP, object: 'workflow-controller-configmap', status: 'missing' },
    category: DeviationCategory.NOT_INSTALLED,
    reason: 'an empty ConfigMap nothing of v2.18.0 reads: the workflow controller it deploys per DSPA reads ds-pipeline-workflow-controller-<dspa> (or the DSPA\'s custom one).',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, [
    ...verbs('*|deployments', CRUD), ...verbs('*|services', CRUD),
    ...verbs('apps|deployments/finalizers', ALL), ...verbs('extensions|deployments/finalizers', ALL), ...verbs('|deployments/finalizers', ALL),
    'argoproj.io|workflowartifactgctasks/finalizers|deletecollection', 'argoproj.io|workflowartifactgctasks|deletecollection', 'argoproj.io|workflows|deletecollection',
    'datasciencepipelinesapplications.opendatahub.io|datasciencepipelinesapplications/api|list', 'datasciencepipelinesapplications.opendatahub.io|datasciencepipelinesapplications/api|watch',
    '|events|list',
  ], DeviationCategory.SCOPED_RBAC,
  'no Role v2.18.0 creates per DSPA contains these and no reconciler of that tag uses them: its ClusterRole is what those Roles and its reconcilers need (runtime-roles.ts), e.g. Deployments and Services in the core, apps and extensions groups only.'),
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'extra' }, [
    ...verbs('kubeflow.org|scheduledworkflows', CRUD), ...verbs('kubeflow.org|scheduledworkflows/finalizers', CRUD), ...verbs('kubeflow.org|viewers', CRUD),
  ], DeviationCategory.SCOPED_RBAC,
  'covered by the kubeflow.org \'*\' grant both installs give it (the pipeline-runner Role it creates per DSPA carries it); the construct also names the kinds its API server Role uses.'),
  ...([['MAX_CONCURRENT_RECONCILES', 'value 10'], ['ZAP_LOG_LEVEL', 'value info']] as const).map(([item, upstream]) => valueDeviation({ kind: FactKind.ENV, object: CONTAINER, item }, upstream,
    DeviationCategory.PLATFORM_INTEGRATION, `the value comes from ${PARAMS} (props logLevel and maxConcurrentReconciles, upstream's values by default), where upstream writes it into the env.`)),
  {
    fact: { kind: FactKind.CONFIGMAP_KEY, object: 'data-science-pipelines-operator-dspo-config', item: 'config.yaml', status: 'differs', upstream: 'sha256:ec39cfc78f00a05c5596f3ce8a7419c1e4908f51aa3870f6ae3679646639ddc8' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'config.yaml names the images of the versions table (tags, where upstream pins digests), carries the settings the env variables upstream ships would have set (DSPO.ApiServer.IncludeOwnerReference) and describes the managed sample pipeline in the project\'s own words.',
  },
];
