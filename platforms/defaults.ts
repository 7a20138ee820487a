import { Construct } from 'constructs';
import type { Platform } from '../lib/platform';

// The default platforms, apart from platforms/index.ts: each entry loads its platform's module
// only when it creates the platform, so that a synth of some of them (MLP_PLATFORMS, which
// main.ts reads) does not load the constructs that only the others use.
/* eslint-disable @typescript-eslint/no-require-imports */

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
  { name: 'serving', description: 'KServe with the Gateway API Inference Extension', create: (s) => new (require('./serving') as typeof import('./serving')).ServingPlatform(s, 'serving') },
  { name: 'training', description: 'Kueue, Kubeflow Trainer with JobSet, the training-operator, KubeRay, AppWrapper, CodeFlare, the Spark Operator', create: (s) => new (require('./training') as typeof import('./training')).TrainingPlatform(s, 'training') },
  { name: 'model-serving', description: 'KServe, ModelMesh, the llm-d router and variant autoscaler, Models-as-a-Service, the Model Registry operator, odh-model-controller, Llama Stack, MLflow', create: (s) => new (require('./model-serving') as typeof import('./model-serving')).ModelServingPlatform(s, 'model-serving') },
  { name: 'kubeflow', description: 'The Kubeflow distribution: pipelines, notebooks, Katib, profiles, dashboard, KServe with its models web app, Trainer, Dex and oauth2-proxy, cert-manager', create: (s) => new (require('./kubeflow') as typeof import('./kubeflow')).KubeflowPlatform(s, 'kubeflow', { exampleTenant: true }) },
  { name: 'opendatahub', description: 'The Open Data Hub distribution on OpenShift: serving, model lifecycle, training and batch, pipelines, workbenches in one applications namespace', create: (s) => new (require('./opendatahub') as typeof import('./opendatahub')).OpenDataHubPlatform(s, 'opendatahub') },
];
