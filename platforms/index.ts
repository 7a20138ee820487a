import { Construct } from 'constructs';
import { KubeflowPlatform } from './kubeflow';
import { ModelServingPlatform } from './model-serving';
import { ServingPlatform } from './serving';
import { TrainingPlatform } from './training';
import { Platform } from '../lib/platform';

export * from './serving';
export * from './training';
export * from './model-serving';
export * from './kubeflow';

/** A platform that `cdk8s synth` and `mlplatform synth` write to dist/ by default. */
export interface DefaultPlatform {
  /** Folder name under dist/ and the name `--platform` takes. */
  readonly name: string;
  /** One line for `mlplatform list`. */
  readonly description: string;
  /** Adds the platform, with its default props, to an app. */
  create(scope: Construct): Platform;
}

/** The default platforms, in the order they are synthesized. */
export const DEFAULT_PLATFORMS: readonly DefaultPlatform[] = [
  { name: 'serving', description: 'KServe with the Gateway API Inference Extension', create: (s) => new ServingPlatform(s, 'serving') },
  { name: 'training', description: 'Kueue, Kubeflow Trainer with JobSet, the training-operator, KubeRay, AppWrapper, CodeFlare, the Spark Operator', create: (s) => new TrainingPlatform(s, 'training') },
  { name: 'model-serving', description: 'KServe, ModelMesh, the llm-d router and variant autoscaler, Models-as-a-Service, the Model Registry operator, odh-model-controller, Llama Stack, MLflow', create: (s) => new ModelServingPlatform(s, 'model-serving') },
  { name: 'kubeflow', description: 'The Kubeflow distribution: pipelines, notebooks, Katib, profiles, dashboard, KServe, Trainer, cert-manager', create: (s) => new KubeflowPlatform(s, 'kubeflow') },
];
