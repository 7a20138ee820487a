import { spawnSync } from 'child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { clusterServingRuntimeSpec, DEFAULT_CLUSTER_SERVING_RUNTIMES } from '../../../constructs/kserve/runtimes';
import { kserveImage } from '../../../constructs/kserve/versions';

const mn = DEFAULT_CLUSTER_SERVING_RUNTIMES.find((r) => r.name === 'kserve-huggingfaceserver-multinode')!;
const spec = clusterServingRuntimeSpec(mn, kserveImage(mn.imageKey)) as any;
const head = spec.containers[0];
const worker = spec.workerSpec.containers[0];

const work = mkdtempSync(join(tmpdir(), 'multinode-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const log = join(work, 'calls.log');
const tool = (name: string, body: string) => {
  writeFileSync(join(work, name), `#!/bin/bash\n${body}\n`);
  chmodSync(join(work, name), 0o755);
};
// Each call is logged with RAY_ADDRESS; `ray health-check` fails until the third call.
tool('ray', [
  `echo "ray $* [RAY_ADDRESS=\${RAY_ADDRESS:-}]" >> ${log}`,
  `if [ "$1" = health-check ]; then n=$(grep -c "^ray health-check" ${log}); [ "$n" -ge 3 ]; fi`,
].join('\n'));
tool('python', `echo "python $* [RAY_ADDRESS=\${RAY_ADDRESS:-}]" >> ${log}`);
tool('sleep', 'exit 0');

function run(command: string[], args: string[], env: Record<string, string>): string[] {
  writeFileSync(log, '');
  // stdin /dev/null: with stdin a socket (Node's pipes), bash takes itself for a remote shell and reads ~/.bashrc.
  const r = spawnSync(command[0], [...command.slice(1), ...args], { env: { PATH: `${work}:${process.env.PATH}`, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return readFileSync(log, 'utf8').trim().split('\n');
}

const PROBE_ENV = { HEAD_SVC: 'm-head', POD_NAMESPACE: 'team' };

describe('KSERVE-MULTINODE-PROBE: the multi-node Hugging Face runtime starts as upstream\'s', () => {
  test('a worker has started once its node joined and the head\'s model server lists its models', () => {
    expect(worker.startupProbe).toMatchObject({ failureThreshold: 40, initialDelaySeconds: 60, periodSeconds: 30, timeoutSeconds: 30 });
    expect(run(worker.startupProbe.exec.command, [], PROBE_ENV)).toEqual([
      'python ./huggingfaceserver/health_check.py registered_node_and_runtime_models --runtime_url http://m-head.team.svc.cluster.local:8080/v1/models '
        + '--probe_name worker_startup [RAY_ADDRESS=m-head.team.svc.cluster.local:6379]',
    ]);
    expect(run(worker.livenessProbe.exec.command, [], PROBE_ENV)).toEqual([
      'python ./huggingfaceserver/health_check.py registered_nodes --probe_name worker_liveness [RAY_ADDRESS=m-head.team.svc.cluster.local:6379]',
    ]);
  });

  test('the head waits for the workers\' nodes before it starts the model server', () => {
    const calls = run(head.command, head.args, { POD_IP: '10.0.0.5', RAY_PORT: '6379', TENSOR_PARALLEL_SIZE: '2', PIPELINE_PARALLEL_SIZE: '3', MODEL_ID: 'org/m', MODEL_DIR: '/mnt/models' });
    expect(calls).toEqual([
      'ray start --head --disable-usage-stats --include-dashboard false [RAY_ADDRESS=10.0.0.5:6379]',
      'python ./huggingfaceserver/health_check.py registered_nodes --retries 200 --probe_name runtime_start [RAY_ADDRESS=10.0.0.5:6379]',
      'python -m huggingfaceserver --model_dir=/mnt/models --tensor-parallel-size=2 --pipeline-parallel-size=3 --model_name={{.Name}} [RAY_ADDRESS=10.0.0.5:6379]',
    ]);
    // MODEL_ID alone is the model directory, as upstream.
    expect(run(head.command, head.args, { POD_IP: '10.0.0.5', RAY_PORT: '6379', TENSOR_PARALLEL_SIZE: '1', PIPELINE_PARALLEL_SIZE: '2', MODEL_ID: 'org/m' }).at(-1))
      .toBe('python -m huggingfaceserver --model_dir=org/m --tensor-parallel-size=1 --pipeline-parallel-size=2 --model_name={{.Name}} [RAY_ADDRESS=10.0.0.5:6379]');
  });

  test('a worker waits for the head\'s Ray GCS at the head Service, with no deadline, then joins', () => {
    const calls = run(worker.command, worker.args ?? [], { ...PROBE_ENV, RAY_HEAD_ADDRESS: 'ignored:1' });
    expect(calls).toEqual([
      ...Array(3).fill('ray health-check --address m-head.team.svc.cluster.local:6379 [RAY_ADDRESS=]'),
      'ray start --address=m-head.team.svc.cluster.local:6379 --block [RAY_ADDRESS=]',
    ]);
  });
});
