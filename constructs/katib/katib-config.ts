import { stringify } from 'yaml';

/** The trial kinds Katib can run, as KatibConfig's trialResources name them (Kind.version.group). */
export enum KatibTrialKind {
  /** batch/v1 Job (built into Kubernetes). */
  JOB = 'Job.v1.batch',
  /** training-operator's kubeflow.org/v1 kinds. */
  TFJOB = 'TFJob.v1.kubeflow.org',
  PYTORCHJOB = 'PyTorchJob.v1.kubeflow.org',
  MPIJOB = 'MPIJob.v1.kubeflow.org',
  XGBOOSTJOB = 'XGBoostJob.v1.kubeflow.org',
  /** Kubeflow Trainer's trainer.kubeflow.org/v1alpha1 TrainJob. */
  TRAINJOB = 'TrainJob.v1alpha1.trainer.kubeflow.org',
}

/** Upstream's default trialResources (v0.19.0's katib-config). */
export const KATIB_DEFAULT_TRIAL_KINDS: readonly KatibTrialKind[] = [
  KatibTrialKind.TRAINJOB, KatibTrialKind.JOB, KatibTrialKind.TFJOB, KatibTrialKind.PYTORCHJOB, KatibTrialKind.MPIJOB, KatibTrialKind.XGBOOSTJOB,
];

/** Kind, version and group of a trial kind. */
export function trialKindGvk(k: KatibTrialKind): { kind: string; version: string; group: string; plural: string } {
  const [kind, version, ...group] = k.split('.');
  return { kind, version, group: group.join('.') === 'batch' ? 'batch' : group.join('.'), plural: `${kind.toLowerCase()}s` };
}

export interface KatibConfigInput {
  readonly trialKinds: readonly KatibTrialKind[];
  readonly certGenerator: boolean;
  readonly webhookServiceName: string;
  readonly webhookSecretName: string;
  readonly webhookPort: number;
  readonly metricsPort: number;
  readonly healthPort: number;
  readonly leaderElection: boolean;
  readonly leaderElectionId: string;
  /** image key -> resolved reference */
  readonly image: (key: string) => string;
}

/**
 * The KatibConfig (config.kubeflow.org/v1beta1) the controller reads from the katib-config
 * ConfigMap: init settings, and the runtime images it starts per algorithm. The mapping of
 * algorithms to suggestion images follows upstream's standalone install.
 */
export function katibConfigYaml(c: KatibConfigInput): string {
  const suggestion = (algorithmName: string, key: string, extra: Record<string, unknown> = {}) => ({ algorithmName, image: c.image(key), ...extra });
  const config = {
    apiVersion: 'config.kubeflow.org/v1beta1',
    kind: 'KatibConfig',
    init: {
      certGenerator: c.certGenerator
        ? { enable: true, webhookServiceName: c.webhookServiceName, webhookSecretName: c.webhookSecretName }
        : { enable: false },
      controller: {
        webhookPort: c.webhookPort,
        metricsAddr: `:${c.metricsPort}`,
        healthzAddr: `:${c.healthPort}`,
        enableLeaderElection: c.leaderElection,
        leaderElectionID: c.leaderElection ? c.leaderElectionId : undefined,
        trialResources: [...c.trialKinds],
      },
    },
    runtime: {
      metricsCollectors: [
        { kind: 'StdOut', image: c.image('fileMetricsCollector') },
        { kind: 'File', image: c.image('fileMetricsCollector') },
        { kind: 'TensorFlowEvent', image: c.image('tfeventMetricsCollector'), resources: { limits: { memory: '1Gi' } } },
      ],
      suggestions: [
        suggestion('random', 'suggestionHyperopt'),
        suggestion('tpe', 'suggestionHyperopt'),
        suggestion('grid', 'suggestionOptuna'),
        suggestion('hyperband', 'suggestionHyperband'),
        suggestion('bayesianoptimization', 'suggestionSkopt'),
        suggestion('cmaes', 'suggestionGoptuna'),
        suggestion('sobol', 'suggestionGoptuna'),
        suggestion('multivariate-tpe', 'suggestionOptuna'),
        suggestion('enas', 'suggestionEnas', { resources: { limits: { memory: '400Mi' } } }),
        suggestion('darts', 'suggestionDarts'),
        suggestion('pbt', 'suggestionPbt', { persistentVolumeClaimSpec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '5Gi' } } } }),
      ],
      earlyStoppings: [{ algorithmName: 'medianstop', image: c.image('earlyStoppingMedianStop') }],
    },
  };
  return stringify(JSON.parse(JSON.stringify(config)), { lineWidth: 0 });
}
