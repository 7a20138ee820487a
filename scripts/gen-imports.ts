/**
 * Writes the typed custom-resource bindings in imports/ from our own CRD definitions
 * (lib/schema/typegen.ts). Run with `npx projen gen:imports`; `--check` writes nothing
 * and exits 1 listing the files that regenerating would change.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CrdDefinition } from '../lib/crd';
import { isCoreType } from '../lib/schema/core';
import { generateBindings, generateSharedModule, SharedDeclarations } from '../lib/schema/typegen';

interface BindingModule {
  /** Output file, relative to the repository root. */
  readonly out: string;
  /** The module (relative to this script) that exports the CRD definitions. */
  readonly from: string;
  /** The exported array of `CrdDefinition`s. @default CRDS */
  readonly exportName?: string;
  readonly header: string;
}

const MODULES: BindingModule[] = [
  {
    out: 'imports/serving.kserve.io.ts',
    from: '../constructs/kserve/crds',
    header: 'KServe custom resources (serving.kserve.io), from constructs/kserve/crds.',
  },
  {
    out: 'imports/inference.networking.ts',
    from: '../constructs/gateway-api-inference-extension/crds',
    header: 'Gateway API Inference Extension custom resources, from constructs/gateway-api-inference-extension/crds.',
  },
  {
    out: 'imports/notebooks.kubeflow.org.ts',
    from: '../constructs/notebook-controller/crds',
    header: 'Kubeflow Notebook custom resources (kubeflow.org), from constructs/notebook-controller/crds.',
  },
  {
    out: 'imports/tensorboard.kubeflow.org.ts',
    from: '../constructs/tensorboard-controller/crds',
    header: 'Kubeflow Tensorboard custom resources (tensorboard.kubeflow.org), from constructs/tensorboard-controller/crds.',
  },
  {
    out: 'imports/pvcviewers.kubeflow.org.ts',
    from: '../constructs/pvcviewer-controller/crds',
    header: 'Kubeflow PVCViewer custom resources (kubeflow.org), from constructs/pvcviewer-controller/crds.',
  },
  {
    out: 'imports/profiles.kubeflow.org.ts',
    from: '../constructs/profile-controller/crds',
    header: 'Kubeflow Profile custom resources (kubeflow.org), from constructs/profile-controller/crds.',
  },
  {
    out: 'imports/poddefaults.kubeflow.org.ts',
    from: '../constructs/admission-webhook/crds',
    header: 'Kubeflow PodDefault custom resources (kubeflow.org), from constructs/admission-webhook/crds.',
  },
  {
    out: 'imports/inference.opendatahub.io.ts',
    from: '../constructs/ai-gateway-payload-processing/crds',
    header: 'AI gateway payload processing custom resources (inference.opendatahub.io), from constructs/ai-gateway-payload-processing/crds.',
  },
  {
    out: 'imports/maas.opendatahub.io.ts',
    from: '../constructs/models-as-a-service/crds',
    header: 'Models-as-a-Service custom resources (maas.opendatahub.io), from constructs/models-as-a-service/crds.',
  },
  {
    out: 'imports/modelregistry.opendatahub.io.ts',
    from: '../constructs/model-registry-operator/crds',
    header: 'Model registry operator custom resources (ModelRegistry), from constructs/model-registry-operator/crds.',
  },
  {
    out: 'imports/nim.opendatahub.io.ts',
    from: '../constructs/odh-model-controller/crds',
    header: 'odh-model-controller custom resources (nim.opendatahub.io), from constructs/odh-model-controller/crds.',
  },
  {
    out: 'imports/modelmesh.serving.kserve.io.ts',
    from: '../constructs/modelmesh-serving/crds',
    header: 'ModelMesh Serving custom resources (Predictor), from constructs/modelmesh-serving/crds.',
  },
  {
    out: 'imports/llm-d.ai.ts',
    from: '../constructs/llm-d-router/crds',
    header: 'llm-d router custom resources (llm-d.ai), from constructs/llm-d-router/crds.',
  },
  {
    out: 'imports/llmd.ai.ts',
    from: '../constructs/workload-variant-autoscaler/crds',
    header: 'Workload Variant Autoscaler custom resources (llmd.ai), from constructs/workload-variant-autoscaler/crds.',
  },
  {
    out: 'imports/llamastack.io.ts',
    from: '../constructs/llama-stack-k8s-operator/crds',
    header: 'Llama Stack operator custom resources (llamastack.io), from constructs/llama-stack-k8s-operator/crds.',
  },
  {
    out: 'imports/mlflow.ts',
    from: '../constructs/mlflow-operator/crds',
    header: 'MLflow operator custom resources (mlflow.opendatahub.io, mlflow.kubeflow.org, components.platform.opendatahub.io), from constructs/mlflow-operator/crds.',
  },
  {
    out: 'imports/kueue.x-k8s.io.ts',
    from: '../constructs/kueue/crds',
    header: 'Kueue custom resources (kueue.x-k8s.io), from constructs/kueue/crds.',
  },
  {
    out: 'imports/ray.io.ts',
    from: '../constructs/kuberay/crds',
    header: 'KubeRay custom resources (ray.io), from constructs/kuberay/crds.',
  },
  {
    out: 'imports/sparkoperator.k8s.io.ts',
    from: '../constructs/spark-operator/crds',
    header: 'Spark Operator custom resources (sparkoperator.k8s.io), from constructs/spark-operator/crds.',
  },
  {
    out: 'imports/workload.codeflare.dev.ts',
    from: '../constructs/appwrapper/crds',
    header: 'AppWrapper custom resources (workload.codeflare.dev), from constructs/appwrapper/crds.',
  },
  {
    out: 'imports/jobset.x-k8s.io.ts',
    from: '../constructs/jobset/crds',
    header: 'JobSet custom resources (jobset.x-k8s.io), from constructs/jobset/crds.',
  },
  {
    out: 'imports/trainer.kubeflow.org.ts',
    from: '../constructs/trainer/crds',
    header: 'Kubeflow Trainer custom resources (trainer.kubeflow.org), from constructs/trainer/crds.',
  },
  {
    out: 'imports/kubeflow.org.ts',
    from: '../constructs/training-operator/crds',
    header: 'Kubeflow training-operator v1 custom resources (kubeflow.org), from constructs/training-operator/crds.',
  },
  {
    out: 'imports/argoproj.io.ts',
    from: '../constructs/argo-workflows/crds',
    header: 'Argo Workflows custom resources (argoproj.io), from constructs/argo-workflows/crds.',
  },
  {
    out: 'imports/pipelines.kubeflow.org.ts',
    from: '../constructs/kubeflow-pipelines/crds',
    header: 'Kubeflow Pipelines custom resources (pipelines.kubeflow.org, kubeflow.org ScheduledWorkflow and Viewer), from constructs/kubeflow-pipelines/crds.',
  },
  {
    out: 'imports/metacontroller.k8s.io.ts',
    from: '../constructs/kubeflow-pipelines/crds/metacontroller',
    exportName: 'METACONTROLLER_CRDS',
    header: 'metacontroller custom resources (metacontroller.k8s.io, shipped by Kubeflow Pipelines multi-user), from constructs/kubeflow-pipelines/crds/metacontroller.ts.',
  },
  {
    out: 'imports/datasciencepipelinesapplications.opendatahub.io.ts',
    from: '../constructs/data-science-pipelines-operator/crds',
    exportName: 'DSPA_CRDS',
    header: 'Data Science Pipelines custom resources (DataSciencePipelinesApplication), from constructs/data-science-pipelines-operator/crds.',
  },
];

const ROOT = path.resolve(__dirname, '..');

function loadCrds(m: BindingModule): CrdDefinition[] | undefined {
  let resolved: string;
  try {
    resolved = require.resolve(m.from);
  } catch {
    console.log(`skip ${m.out}: ${m.from} does not resolve (no CRD definitions yet)`);
    return undefined;
  }
  const exportName = m.exportName ?? 'CRDS';
  // Errors inside the module (not its absence) propagate.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crds = require(resolved)[exportName];
  if (!Array.isArray(crds)) {
    throw new Error(`${path.relative(ROOT, resolved)} must export ${exportName}: CrdDefinition[] (got ${typeof crds})`);
  }
  return crds;
}

/** The core Kubernetes types the modules use, declared once here and imported by each. */
const SHARED_OUT = 'imports/k8s/core.ts';

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const stale: string[] = [];
  const write = (out: string, text: string, what: string) => {
    const file = path.join(ROOT, out);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === text) {
      console.log(`up to date ${out} (${what})`);
    } else if (check) {
      stale.push(out);
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      console.log(`wrote ${out} (${what})`);
    }
  };
  const shared = new SharedDeclarations(isCoreType, './k8s/core');
  for (const m of MODULES) {
    const crds = loadCrds(m);
    if (!crds) continue;
    write(m.out, generateBindings(crds, { header: m.header, shared }), `${crds.length} CRDs`);
  }
  write(SHARED_OUT, generateSharedModule(shared, 'Core Kubernetes types (@kubernetes/client-node names) that the custom-resource bindings in imports/ embed, declared once.'), `${shared.bodies.size} core types`);
  if (stale.length) {
    console.error(`stale bindings (run \`npx projen gen:imports\`):\n${stale.map((f) => `  ${f}`).join('\n')}`);
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
