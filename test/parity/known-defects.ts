import { KNOWN_ADMISSION_WEBHOOK } from './known/admission-webhook';
import { KNOWN_APPWRAPPER } from './known/appwrapper';
import { KNOWN_ARGO_WORKFLOWS } from './known/argo-workflows';
import { KNOWN_CENTRAL_DASHBOARD } from './known/central-dashboard';
import { KNOWN_CODEFLARE_OPERATOR } from './known/codeflare-operator';
import { KNOWN_DATA_SCIENCE_PIPELINES_OPERATOR } from './known/data-science-pipelines-operator';
import { KNOWN_JOBSET } from './known/jobset';
import { KNOWN_JUPYTER_WEB_APP } from './known/jupyter-web-app';
import { KNOWN_KATIB } from './known/katib';
import { KNOWN_KSERVE } from './known/kserve';
import { KNOWN_KUBEFLOW_PIPELINES_MULTI_USER } from './known/kubeflow-pipelines-multi-user';
import { KNOWN_KUBERAY } from './known/kuberay';
import { KNOWN_KUEUE } from './known/kueue';
import { KNOWN_LLAMA_STACK_K8S_OPERATOR } from './known/llama-stack-k8s-operator';
import { KNOWN_MLFLOW_OPERATOR } from './known/mlflow-operator';
import { KNOWN_MODEL_REGISTRY } from './known/model-registry';
import { KNOWN_MODEL_REGISTRY_OPERATOR } from './known/model-registry-operator';
import { KNOWN_MODELMESH_SERVING } from './known/modelmesh-serving';
import { KNOWN_MODELS_AS_A_SERVICE } from './known/models-as-a-service';
import { KNOWN_NOTEBOOK_CONTROLLER } from './known/notebook-controller';
import { KNOWN_ODH_MODEL_CONTROLLER } from './known/odh-model-controller';
import { KNOWN_PROFILE_CONTROLLER } from './known/profile-controller';
import { KNOWN_PVCVIEWER_CONTROLLER } from './known/pvcviewer-controller';
import { KNOWN_SPARK_OPERATOR } from './known/spark-operator';
import { KNOWN_TENSORBOARD_CONTROLLER } from './known/tensorboard-controller';
import { KNOWN_TENSORBOARDS_WEB_APP } from './known/tensorboards-web-app';
import { KNOWN_TRAINER } from './known/trainer';
import { KNOWN_TRAINING_OPERATOR } from './known/training-operator';
import { KNOWN_VOLUMES_WEB_APP } from './known/volumes-web-app';
import { KNOWN_WORKLOAD_VARIANT_AUTOSCALER } from './known/workload-variant-autoscaler';
import { DifferencePattern, literalPattern } from '../../lib/parity';

/**
 * Defects being fixed on other branches (issue "37 run-time defects found against
 * upstream's installs"), by ID. Each fixes a difference from upstream that is not on purpose.
 */
export type DefectId =
  | 'KUEUE-VIS' | 'DSPO-START' | 'DSPO-ESCALATE' | 'KFP-API-DB' | 'KFP-API-USERID' | 'KFP-API-RUNNER-SA' | 'KFP-PA-TOKEN'
  | 'KFP-PA-REPORT' | 'KFP-MYSQL-AUTH' | 'KFP-SEAWEED-SVC' | 'JOBSET-SEL' | 'WVA-SATCFG' | 'WVA-SVCMON' | 'CF-PODS' | 'OMC-PARAMS'
  | 'KFP-ENVOY' | 'KFP-VS' | 'KFP-SWF-AUTH' | 'KFP-API-V2IMAGES' | 'KFP-UI-AUTHZ' | 'KFP-SEAWEED-AUTH' | 'MRO-VERSION' | 'MRO-ENV'
  | 'MM-STORAGECONFIG' | 'PROF-PSS' | 'AIGW-AUTH' | 'KFP-ISOLATION' | 'MM-NETPOL' | 'PD-NETPOL' | 'KFP-UI-SECRETS' | 'CD-RBAC'
  | 'LLS-METRICS' | 'OMC-ISVC-UPDATE' | 'ARGO-PRIO' | 'KFP-MLMD-ARGS' | 'MR-MYSQL' | 'DSPO-ARGO-USERROLES' | 'KFP-SEAWEED-VER'
  | 'CM-SHORTNAMES'
  // Fixed on other branches of issue "Works like upstream, round two".
  | 'KSERVE-LLM-LAUNCHER' | 'KSERVE-MULTINODE-PROBE' | 'KATIB-MYSQL-PROBE' | 'DSPO-SVCMON' | 'MODELMESH-TRITON'
  // Found by comparing values (env, probes, resources, monitors, ConfigMap and custom resource contents).
  | 'TRAINER-TORCHTUNE' | 'MM-CONFIG-SA' | 'MAAS-PODMON' | 'MLFLOW-SVCMON' | 'OMC-SVCMON' | 'OMC-TEMPLATES' | 'MRO-TEMPLATES'
  | 'KFP-ENVOY-CONFIG' | 'KFP-DESTINATIONRULES' | 'KFP-SEAWEED-PROBE' | 'MR-ISTIO';

/**
 * A known difference from upstream that is not a declared deviation: a defect with its ID,
 * or UNTRIAGED (not yet attributed) with a one-line description. The parity test tolerates
 * and reports them; an entry that no longer matches a difference fails the test (delete it
 * when its fix merges).
 */
export interface KnownDefect {
  /** The facts file the difference is found against. */
  readonly install: string;
  readonly defect: DefectId | 'UNTRIAGED';
  readonly fact: DifferencePattern;
  /**
   * The items covered, each exactly (env names, args, triples...): each must still match a
   * difference, so that fixing one shows which to delete.
   * @default - `fact.item` (or any item)
   */
  readonly items?: readonly string[];
  /** What is wrong, in one line (required for UNTRIAGED). */
  readonly note?: string;
}

/** One entry per item, with the entry it came from. */
export interface KnownDefectItem {
  readonly entry: KnownDefect;
  readonly fact: DifferencePattern;
}

/** Entries split into one pattern per listed item. */
export function knownDefectItems(entries: readonly KnownDefect[]): KnownDefectItem[] {
  // Listed items are exact: a `*` in one (an RBAC wildcard) is literal.
  return entries.flatMap((entry) => (entry.items ? entry.items.map(literalPattern) : [entry.fact.item]).map((item) => ({ entry, fact: { ...entry.fact, item } })));
}


// Entries first written by `ts-node --transpile-only scripts/parity-report.ts --json` (grouped by
// install, kind, object and status); attributed to a defect ID where the difference is that
// defect's, UNTRIAGED otherwise. Delete an entry (or an item of it) when the test says it is stale.
// One file per install in known/, so that work on one install does not touch another's.
export const KNOWN_DEFECTS: readonly KnownDefect[] = [
  ...KNOWN_KSERVE,
  ...KNOWN_KUEUE,
  ...KNOWN_JOBSET,
  ...KNOWN_TRAINER,
  ...KNOWN_TRAINING_OPERATOR,
  ...KNOWN_KUBERAY,
  ...KNOWN_APPWRAPPER,
  ...KNOWN_CODEFLARE_OPERATOR,
  ...KNOWN_SPARK_OPERATOR,
  ...KNOWN_MODELMESH_SERVING,
  ...KNOWN_WORKLOAD_VARIANT_AUTOSCALER,
  ...KNOWN_MODELS_AS_A_SERVICE,
  ...KNOWN_MODEL_REGISTRY_OPERATOR,
  ...KNOWN_LLAMA_STACK_K8S_OPERATOR,
  ...KNOWN_MLFLOW_OPERATOR,
  ...KNOWN_ODH_MODEL_CONTROLLER,
  ...KNOWN_KUBEFLOW_PIPELINES_MULTI_USER,
  ...KNOWN_ARGO_WORKFLOWS,
  ...KNOWN_KATIB,
  ...KNOWN_NOTEBOOK_CONTROLLER,
  ...KNOWN_PROFILE_CONTROLLER,
  ...KNOWN_ADMISSION_WEBHOOK,
  ...KNOWN_CENTRAL_DASHBOARD,
  ...KNOWN_JUPYTER_WEB_APP,
  ...KNOWN_VOLUMES_WEB_APP,
  ...KNOWN_TENSORBOARDS_WEB_APP,
  ...KNOWN_TENSORBOARD_CONTROLLER,
  ...KNOWN_PVCVIEWER_CONTROLLER,
  ...KNOWN_MODEL_REGISTRY,
  ...KNOWN_DATA_SCIENCE_PIPELINES_OPERATOR,
];

/**
 * A versions.json `modelled` tag that is not the release of upstream's facts (mechanism
 * "one revision"): the release test tolerates and reports it; a stale entry fails.
 */
export interface KnownReleaseMismatch {
  readonly install: string;
  /** The versions.json entry: component id and image key. */
  readonly component: string;
  readonly key: string;
  /** The modelled tag versions.json has today. */
  readonly modelled: string;
  readonly defect: DefectId | 'UNTRIAGED';
  readonly note: string;
}

export const KNOWN_RELEASE_MISMATCHES: readonly KnownReleaseMismatch[] = [
];
