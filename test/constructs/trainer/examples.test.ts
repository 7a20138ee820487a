import { App } from 'cdk8s';
import { JobSet } from '../../../constructs/jobset';
import { Trainer } from '../../../constructs/trainer';
import { TrainingOperator } from '../../../constructs/training-operator';
import { JobSet as JobSetResource } from '../../../imports/jobset.x-k8s.io';
import { PyTorchJob, TFJob } from '../../../imports/kubeflow.org';
import { TrainJob } from '../../../imports/trainer.kubeflow.org';
import { CertificateProvider } from '../../../lib/certificates';
import { Component } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { problemsOf } from '../../platforms/helpers';

/**
 * Resources as users write them (after upstream's examples) must be accepted by our CRDs
 * with nothing pruned: the checks validate custom resources against the emitted CRD
 * (unknown fields are errors) and evaluate its CEL rules.
 */
function platform(add: (c: { jobset: Component; trainer: Component; operator: Component }) => void): Platform {
  const p = new Platform(new App(), 'p', { name: 'examples', certificates: CertificateProvider.selfManaged() });
  const jobset = new JobSet(p, 'jobset');
  const trainer = new Trainer(p, 'trainer', { runtimes: ['torch-distributed'] });
  const operator = new TrainingOperator(p, 'training-operator');
  add({ jobset, trainer, operator });
  return p;
}

const container = (name: string, image: string) => ({ name, image, command: ['python', '/app/train.py'], resources: { limits: { 'nvidia.com/gpu': 1 } } });

describe('upstream-style examples are accepted with nothing pruned', () => {
  const examples: Array<(c: { jobset: Component; trainer: Component; operator: Component }) => void> = [];

  // A TrainJob with initializers, trainer overrides and a Kueue runtime patch.
  examples.push(({ trainer }) => {
    new TrainJob(trainer, 'Example', {
      metadata: { name: 'llama-ft', namespace: 'default' },
      spec: {
        runtimeRef: { name: 'torch-distributed' },
        initializer: {
          dataset: { storageUri: 'hf://tatsu-lab/alpaca', env: [{ name: 'SPLIT', value: 'train' }] },
          model: { storageUri: 'hf://meta-llama/Llama-3.2-1B-Instruct', secretRef: { name: 'hf-token' } },
        },
        trainer: {
          image: 'pytorch/pytorch:2.7.1-cuda12.6-cudnn9-runtime',
          command: ['torchrun', 'train.py'],
          numNodes: 2,
          numProcPerNode: 4,
          resourcesPerNode: { limits: { 'nvidia.com/gpu': 4, 'memory': '64Gi' } },
          env: [{ name: 'EPOCHS', value: '3' }],
        },
        runtimePatches: [{
          manager: 'kueue.x-k8s.io/manager',
          trainingRuntimeSpec: {
            template: {
              spec: {
                replicatedJobs: [{
                  name: 'node',
                  template: { spec: { template: { metadata: { labels: { 'kueue.x-k8s.io/podset': 'node' } }, spec: { nodeSelector: { 'cloud.example.com/pool': 'a100' }, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] } } } },
                }],
              },
            },
          },
        }],
        suspend: true,
        activeDeadlineSeconds: 86400,
      },
    });
  });

  test('fails when a TrainJob carries a field our schema lacks (it would be pruned), or a name the root CEL rule rejects', () => {
    const p = platform(({ trainer }) => {
      new TrainJob(trainer, 'Unknown', { metadata: { name: 'bad', namespace: 'default' }, spec: { runtimeRef: { name: 'torch-distributed' }, trainer: { image: 'x:1', gpus: 2 } as any } });
      new TrainJob(trainer, 'BadName', { metadata: { name: '1st-run', namespace: 'default' }, spec: { runtimeRef: { name: 'torch-distributed' } } });
    });
    const problems = problemsOf(() => buildPlatform(p));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^\[MLP002\] p\/trainer\/Unknown: TrainJob bad: spec\.trainer.*gpus/);
    expect(problems[1]).toMatch(/^\[MLP002\] p\/trainer\/BadName: TrainJob 1st-run: .*metadata\.name must be an RFC 1035 label/);
  });

  // A JobSet with a coordinator, success and failure policies, dependsOn and a shared claim.
  examples.push(({ jobset }) => {
    new JobSetResource(jobset, 'Example', {
      metadata: { name: 'pretrain', namespace: 'default' },
      spec: {
        network: { enableDNSHostnames: true, subdomain: 'pretrain' },
        coordinator: { replicatedJob: 'driver', jobIndex: 0, podIndex: 0 },
        successPolicy: { operator: 'All', targetReplicatedJobs: ['workers'] },
        failurePolicy: { maxRestarts: 3, restartStrategy: 'BlockingRecreate', rules: [{ name: 'noRetryOnOOM', action: 'FailJobSet', onJobFailureReasons: ['PodFailurePolicy'] }] },
        replicatedJobs: [
          { name: 'driver', template: { spec: { template: { spec: { containers: [container('driver', 'python:3.12')], restartPolicy: 'Never' } } } } },
          {
            name: 'workers',
            replicas: 4,
            dependsOn: [{ name: 'driver', status: 'Ready' }],
            template: { spec: { parallelism: 2, completions: 2, backoffLimit: 0, template: { spec: { containers: [container('worker', 'python:3.12')], restartPolicy: 'Never' } } } },
          },
        ],
        volumeClaimPolicies: [{ templates: [{ metadata: { name: 'cache' }, spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '100Gi' } } } }], retentionPolicy: { whenDeleted: 'Retain' } }],
        ttlSecondsAfterFinished: 600,
      },
    });
  });

  // An elastic PyTorchJob and a TFJob of the v1 operator.
  examples.push(({ operator }) => {
    const replica = (image: string, replicas: number) => ({ replicas, restartPolicy: 'OnFailure', template: { spec: { containers: [container('pytorch', image)] } } });
    new PyTorchJob(operator, 'Elastic', {
      metadata: { name: 'elastic', namespace: 'default' },
      spec: {
        elasticPolicy: { rdzvBackend: 'c10d', minReplicas: 1, maxReplicas: 3, maxRestarts: 100, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] },
        nprocPerNode: 'auto',
        pytorchReplicaSpecs: { Worker: replica('docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727', 2) },
        runPolicy: { cleanPodPolicy: 'None', schedulingPolicy: { queue: 'team-a', minAvailable: 1 }, suspend: false },
      },
    });
    new TFJob(operator, 'Dist', {
      metadata: { name: 'dist-mnist', namespace: 'default' },
      spec: { tfReplicaSpecs: { PS: replica('tensorflow/tensorflow:2.15.0', 1), Worker: replica('tensorflow/tensorflow:2.15.0', 2) }, successPolicy: 'AllWorkers' },
    });
  });

  test('a TrainJob, a JobSet, a PyTorchJob and a TFJob pass every check', () => {
    const p = platform((c) => examples.forEach((add) => add(c)));
    expect(problemsOf(() => buildPlatform(p))).toEqual([]);
  });
});
