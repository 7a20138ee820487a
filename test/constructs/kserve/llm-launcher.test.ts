import { spawnSync } from 'child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { IB_ROOT_LINE } from '../../../constructs/kserve/llm-launcher';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';

/**
 * Runs the launch scripts of the LLMInferenceServiceConfig presets under bash, with the
 * controller's template values put in their lines (as the controller renders them, inside
 * the script's double quotes) and a fake `vllm` that prints the arguments it gets.
 */

const platform = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
new GatewayApiInferenceExtension(platform, 'gateway-api-inference-extension');
const objects: any[] = new KServe(platform, 'kserve').toJson();

interface Launcher {
  /** preset/path/container */
  readonly id: string;
  readonly preset: string;
  readonly prefill: boolean;
  readonly role: 'single' | 'leader' | 'worker';
  readonly port: number;
  readonly container: any;
}

const LAUNCHER_PRESETS = [
  'kserve-config-llm-template', 'kserve-config-llm-decode-template', 'kserve-config-llm-prefill-template',
  'kserve-config-llm-worker-data-parallel', 'kserve-config-llm-decode-worker-data-parallel', 'kserve-config-llm-prefill-worker-data-parallel',
];

const launchers: Launcher[] = LAUNCHER_PRESETS.flatMap((preset) => {
  const spec = objects.find((o) => o.kind === 'LLMInferenceServiceConfig' && o.metadata.name === preset)?.spec;
  if (!spec) throw new Error(`no preset ${preset}`);
  const prefill = spec.prefill !== undefined;
  const workload = prefill ? spec.prefill : spec;
  return (['template', 'worker'] as const).filter((k) => workload[k]).map((k) => {
    const container = workload[k].containers.find((c: any) => c.name === 'main');
    const role = k === 'worker' ? 'worker' : workload.worker ? 'leader' : 'single';
    return { id: `${preset} ${prefill ? 'prefill.' : ''}${k}`, preset, prefill, role, port: container.ports[0].containerPort, container };
  });
});

const scriptOf = (l: Launcher): string => l.container.command[2];

/** The shell variables the controller fills, with their templates. */
function templateLines(script: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of script.split('\n')) {
    const m = /^(\w+)="(.*\{\{.*)"$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

const RENDERED = {
  model_name: 'llama',
  publisher_name: 'publishers/team/models/llama',
  tls: '',
  shutdown_seconds: '40',
  kv_transfer: '',
  tensor: '',
  expert: '',
  dp_size: '2',
  dp_local: '1',
  dp_rpc_port: '5555',
};
type Rendered = Partial<Record<keyof typeof RENDERED, string>>;

const work = mkdtempSync(join(tmpdir(), 'llm-launcher-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bin = join(work, 'bin');
mkdirSync(bin);
const tool = (name: string, body: string) => {
  writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
};
tool('vllm', [
  'if [ "$1" = --version ]; then [ -n "$FAKE_VLLM_VERSION" ] && echo "INFO 01-01 vllm $FAKE_VLLM_VERSION"; exit 0; fi',
  'for a in "$@"; do printf "ARG\\t%s\\n" "$a"; done',
  'env | grep -E "^(NCCL|NVSHMEM|UCX)_" | sort | sed "s/^/ENV\\t/"',
].join('\n'));
tool('getent', 'if [ "$1" = hosts ] && [ "$2" = leader.team.svc ]; then echo "10.1.2.3        $2"; else exit 2; fi');
tool('sleep', 'exit 0');

interface Run {
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly stdout: string;
}

interface Scenario { values?: Rendered; env?: Record<string, string>; containerArgs?: string[]; version?: string; ibRoot?: string }

/** Runs are slow on a loaded machine: the tests share scenarios, each run once per launcher. */
const runs = new Map<string, Run>();
function run(l: Launcher, o: Scenario = {}): Run {
  const key = JSON.stringify([l.id, o]);
  if (!runs.has(key)) runs.set(key, runOnce(l, o));
  return runs.get(key)!;
}

function runOnce(l: Launcher, o: Scenario): Run {
  const values: Record<string, string> = { ...RENDERED, ...o.values };
  const script = scriptOf(l).split('\n').map((line) => {
    const m = /^(\w+)="(.*\{\{.*)"$/.exec(line);
    if (m) {
      if (!(m[1] in values)) throw new Error(`${l.id}: no value for ${m[1]}`);
      return `${m[1]}="${values[m[1]]}"`;
    }
    return line === IB_ROOT_LINE ? `ib_root=${o.ibRoot ?? join(work, 'no-infiniband')}` : line;
  }).join('\n');
  expect(script).not.toContain('{{');
  const r = spawnSync('/bin/bash', ['-c', script, '--', ...(o.containerArgs ?? [])], {
    env: { PATH: `${bin}:${process.env.PATH}`, FAKE_VLLM_VERSION: o.version ?? '0.22.1', LWS_LEADER_ADDRESS: 'leader.team.svc', ...o.env },
    encoding: 'utf8',
    // stdin /dev/null: with stdin a socket (Node's pipes), bash takes itself for a remote shell and reads ~/.bashrc (here: pyenv's init, some 40 processes).
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${l.id}: exit ${r.status}: ${r.stderr}`);
  const lines = r.stdout.split('\n');
  return {
    args: lines.filter((x) => x.startsWith('ARG\t')).map((x) => x.slice(4)),
    env: Object.fromEntries(lines.filter((x) => x.startsWith('ENV\t')).map((x) => x.slice(4).split(/=(.*)/s).slice(0, 2))),
    stdout: r.stdout,
  };
}

/** The values after a flag, up to the next flag. */
const flag = (args: string[], name: string): string[] | undefined => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const rest = args.slice(i + 1);
  const next = rest.findIndex((a) => a.startsWith('--'));
  return next < 0 ? rest : rest.slice(0, next);
};

// As kvTransferConfig renders it into the script's double quotes.
const KV = '--kv-transfer-config \'{\\"kv_connector\\":\\"OffloadingConnector\\",\\"kv_role\\":\\"kv_both\\"}\'';
const LORA = ['--enable-lora', '--max-loras=2', '--lora-modules', '\'{"name":"a","path":"/mnt/lora/a"}\'', '--otlp-traces-endpoint=http://otel:4317'];
/** vLLM 0.22 with KV offloading, the controller's LoRA args and a user's extra args. */
const RECENT: Scenario = { version: '0.22.0', values: { kv_transfer: KV }, containerArgs: LORA, env: { VLLM_ADDITIONAL_ARGS: '--max-model-len 4096' } };
const USER_KV: Scenario = { version: '0.22.0', values: { kv_transfer: KV }, env: { VLLM_ADDITIONAL_ARGS: '--kv-transfer-config \'{"kv_connector":"Mine"}\'' } };
const ARGS_KV: Scenario = { version: '0.22.0', values: { kv_transfer: KV }, containerArgs: ['--kv_transfer_config={}'] };
const MID: Scenario = { version: '0.16.0', values: { kv_transfer: KV } };
const OLD: Scenario = { version: '0.15.1', values: { kv_transfer: KV } };

describe('KSERVE-LLM-LAUNCHER: the presets launch vLLM as upstream\'s do', () => {
  test('nine launcher containers in six presets, each `/bin/bash -c <script> --` with upstream\'s env', () => {
    expect(launchers.map((l) => l.id)).toEqual([
      'kserve-config-llm-template template', 'kserve-config-llm-decode-template template', 'kserve-config-llm-prefill-template prefill.template',
      'kserve-config-llm-worker-data-parallel template', 'kserve-config-llm-worker-data-parallel worker',
      'kserve-config-llm-decode-worker-data-parallel template', 'kserve-config-llm-decode-worker-data-parallel worker',
      'kserve-config-llm-prefill-worker-data-parallel prefill.template', 'kserve-config-llm-prefill-worker-data-parallel prefill.worker',
    ]);
    for (const l of launchers) {
      expect([l.id, l.container.command.length, l.container.command[3], l.container.args]).toEqual([l.id, 4, '--', undefined]);
      const env = l.container.env.map((e: any) => e.name);
      const decodeWorker = l.preset === 'kserve-config-llm-decode-worker-data-parallel' && l.role === 'worker';
      expect([l.id, env]).toEqual([l.id, ['HOME', 'VLLM_LOGGING_LEVEL', 'HF_HUB_CACHE', ...(decodeWorker ? ['VLLM_RANDOMIZE_DP_DUMMY_INPUTS'] : [])]]);
    }
  });

  test('(a) the container args (the controller\'s LoRA flags, users\' vLLM args) reach vLLM last, single-quoted JSON unquoted as by upstream\'s eval', () => {
    for (const l of launchers) {
      expect([l.id, run(l, RECENT).args.slice(-7)]).toEqual([l.id, [
        '--max-model-len', '4096', '--enable-lora', '--max-loras=2', '--lora-modules', '{"name":"a","path":"/mnt/lora/a"}', '--otlp-traces-endpoint=http://otel:4317',
      ]]);
    }
  });

  test('(b) served as the model name and, but for prefill pods, as publishers/<namespace>/models/<name>', () => {
    for (const l of launchers) {
      const t = templateLines(scriptOf(l));
      expect([l.id, t.model_name, t.publisher_name]).toEqual([l.id, '{{ .Spec.Model.Name }}', l.prefill ? undefined : 'publishers/{{ .ObjectMeta.Namespace }}/models/{{ .Spec.Model.Name }}']);
      const args = run(l, RECENT).args;
      expect([l.id, args.slice(0, 2), flag(args, '--served-model-name')]).toEqual([l.id, ['serve', '/mnt/models'], l.prefill ? ['llama'] : ['llama', 'publishers/team/models/llama']]);
      expect([l.id, flag(args, '--port')]).toEqual([l.id, [String(l.port)]]);
    }
  });

  test('(c) spec.kvCacheOffloading (spec.prefill\'s for prefill pods) from vLLM 0.22, unless the user sets --kv-transfer-config', () => {
    for (const l of launchers) {
      expect([l.id, templateLines(scriptOf(l)).kv_transfer]).toEqual([l.id, l.prefill
        ? '{{ if .Spec.Prefill }}{{ kvTransferConfig .Spec.Prefill.KVCacheOffloading }}{{ end }}'
        : '{{ kvTransferConfig .Spec.KVCacheOffloading }}']);
      expect([l.id, flag(run(l, RECENT).args, '--kv-transfer-config')]).toEqual([l.id, ['{"kv_connector":"OffloadingConnector","kv_role":"kv_both"}']]);
      expect([l.id, run(l, MID).args.includes('--kv-transfer-config')]).toEqual([l.id, false]);
      const user = run(l, USER_KV).args;
      expect([l.id, user.filter((a) => a.startsWith('--kv')), flag(user, '--kv-transfer-config')]).toEqual([l.id, ['--kv-transfer-config'], ['{"kv_connector":"Mine"}']]);
      expect([l.id, run(l, ARGS_KV).args.filter((a) => a.startsWith('--kv'))]).toEqual([l.id, ['--kv_transfer_config={}']]);
    }
  });

  test('(d) --shutdown-timeout from vLLM 0.18 and the access-log defaults by vLLM version', () => {
    for (const l of launchers) {
      const pod = l.role === 'worker' ? 'Worker' : 'Template';
      expect([l.id, templateLines(scriptOf(l)).shutdown_seconds]).toEqual([l.id, l.prefill
        ? `{{ if .Spec.Prefill }}{{ shutdownTimeout .Spec.Prefill.${pod} 15 }}{{ else }}{{ shutdownTimeout nil 15 }}{{ end }}`
        : `{{ shutdownTimeout .Spec.${pod} 15 }}`]);
      const recent = run(l, RECENT).args;
      expect([l.id, flag(recent, '--shutdown-timeout'), flag(recent, '--disable-access-log-for-endpoints'), recent.includes('--disable-uvicorn-access-log')])
        .toEqual([l.id, ['40'], ['/health,/metrics,/ping'], false]);
      const mid = run(l, MID).args;
      expect([l.id, mid.includes('--shutdown-timeout'), flag(mid, '--disable-access-log-for-endpoints')]).toEqual([l.id, false, ['/health,/metrics,/ping']]);
      const old = run(l, OLD).args;
      expect([l.id, old.includes('--shutdown-timeout'), old.includes('--disable-access-log-for-endpoints'), old.includes('--disable-uvicorn-access-log')])
        .toEqual([l.id, false, false, true]);
    }
    // No version from vLLM: the old defaults.
    const none = run(launchers[0], { version: '' }).args;
    expect([none.includes('--shutdown-timeout'), none.includes('--disable-uvicorn-access-log')]).toEqual([false, true]);
  });

  test('single-node pods: the whole command line, tensor parallelism and TLS (pipeline and expert parallelism are not flags here, as upstream)', () => {
    const single = launchers.find((l) => l.id === 'kserve-config-llm-template template')!;
    expect(templateLines(scriptOf(single)).tensor).toBe('{{ if and .Spec.Parallelism .Spec.Parallelism.Tensor }}{{ .Spec.Parallelism.Tensor }}{{ end }}');
    expect(templateLines(scriptOf(launchers.find((l) => l.id === 'kserve-config-llm-prefill-template prefill.template')!)).tensor)
      .toBe('{{ if and .Spec.Prefill .Spec.Prefill.Parallelism .Spec.Prefill.Parallelism.Tensor }}{{ .Spec.Prefill.Parallelism.Tensor }}{{ end }}');
    expect(run(single, { values: { tensor: '4', tls: 'true' }, version: '0.22.1' }).args).toEqual([
      'serve', '/mnt/models', '--served-model-name', 'llama', 'publishers/team/models/llama', '--port', '8000',
      '--disable-access-log-for-endpoints', '/health,/metrics,/ping', '--shutdown-timeout', '40', '--tensor-parallel-size', '4',
      '--enable-ssl-refresh', '--ssl-certfile', '/var/run/kserve/tls/tls.crt', '--ssl-keyfile', '/var/run/kserve/tls/tls.key',
    ]);
  });

  test('data-parallel leaders and workers: the leader\'s address resolved, ranks by worker index, 8 API servers by default, headless workers', () => {
    const leader = launchers.find((l) => l.id === 'kserve-config-llm-decode-worker-data-parallel template')!;
    const worker = launchers.find((l) => l.id === 'kserve-config-llm-decode-worker-data-parallel worker')!;
    expect(templateLines(scriptOf(leader))).toMatchObject({
      expert: '{{ if .Spec.Parallelism.Expert }}true{{ end }}',
      dp_size: '{{ or .Spec.Parallelism.Data 1 }}',
      dp_local: '{{ or .Spec.Parallelism.DataLocal 1 }}',
      dp_rpc_port: '{{ or .Spec.Parallelism.DataRPCPort 5555 }}',
    });
    expect(templateLines(scriptOf(launchers.find((l) => l.id === 'kserve-config-llm-prefill-worker-data-parallel prefill.worker')!)).dp_local)
      .toBe('{{ or .Spec.Prefill.Parallelism.DataLocal 1 }}');
    const values = { expert: 'true', tensor: '2', dp_size: '8', dp_local: '4', dp_rpc_port: '6000' };
    expect(run(leader, { values, version: '0.15.0', env: { START_RANK: '5', DP_ADDRESS: '1.1.1.1' } }).args).toEqual([
      'serve', '/mnt/models', '--served-model-name', 'llama', 'publishers/team/models/llama', '--port', '8001', '--api-server-count', '8',
      '--enable-expert-parallel', '--tensor-parallel-size', '2', '--data-parallel-size', '8', '--data-parallel-size-local', '4',
      '--data-parallel-address', '10.1.2.3', '--data-parallel-rpc-port', '6000', '--data-parallel-start-rank', '0', '--disable-uvicorn-access-log',
    ]);
    expect(flag(run(leader, { env: { VLLM_API_SERVER_COUNT: '2' } }).args, '--api-server-count')).toEqual(['2']);
    expect(run(worker, { values, version: '0.15.0', env: { LWS_WORKER_INDEX: '2' } }).args).toEqual([
      'serve', '/mnt/models', '--served-model-name', 'llama', 'publishers/team/models/llama', '--port', '8001',
      '--enable-expert-parallel', '--tensor-parallel-size', '2', '--data-parallel-size', '8', '--data-parallel-size-local', '4',
      '--data-parallel-address', '10.1.2.3', '--data-parallel-rpc-port', '6000', '--data-parallel-start-rank', '8', '--headless', '--disable-uvicorn-access-log',
    ]);
    // A leader name that does not resolve is used as it is, after the tries.
    const unresolved = run(worker, { env: { LWS_LEADER_ADDRESS: 'elsewhere', DP_ADDRESS_RESOLVE_ATTEMPTS: '3' } });
    expect(flag(unresolved.args, '--data-parallel-address')).toEqual(['elsewhere']);
    expect(unresolved.stdout).toContain('try 3 of 3');
  });

  test('KSERVE_INFER_ROCE=true: active mlx5 HCAs and the RoCE v2 IPv4 GID index exported for NCCL, NVSHMEM and UCX; values set win', () => {
    const ib = join(work, 'infiniband');
    const hca = (name: string, state: string, gids: Record<string, [string, string]>) => {
      mkdirSync(join(ib, name, 'ports/1/gids'), { recursive: true });
      mkdirSync(join(ib, name, 'ports/1/gid_attrs/types'), { recursive: true });
      writeFileSync(join(ib, name, 'ports/1/state'), `${state}\n`);
      for (const [idx, [type, gid]] of Object.entries(gids)) {
        writeFileSync(join(ib, name, 'ports/1/gid_attrs/types', idx), `${type}\n`);
        writeFileSync(join(ib, name, 'ports/1/gids', idx), `${gid}\n`);
      }
    };
    const v4 = '0000:0000:0000:0000:0000:ffff:0a00:0001';
    const v6 = 'fe80:0000:0000:0000:0000:0000:0000:0001';
    hca('mlx5_0', '4: ACTIVE', { 0: ['IB/RoCE v1', v4], 2: ['RoCE v2', v6], 3: ['RoCE v2', v4] });
    hca('mlx5_1', '4: ACTIVE', { 1: ['IB/RoCE v1', v4], 3: ['RoCE v2', v4] });
    hca('mlx5_2', '1: DOWN', { 3: ['RoCE v2', v4] });
    hca('mlx5_3', '4: ACTIVE', { 5: ['RoCE v2', v4] });
    for (const l of launchers) {
      expect([l.id, run(l, RECENT).env]).toEqual([l.id, {}]);
      expect([l.id, run(l, { ibRoot: ib, env: { KSERVE_INFER_ROCE: 'true' } }).env]).toEqual([l.id, {
        NCCL_IB_HCA: 'mlx5_0,mlx5_1,mlx5_3',
        NVSHMEM_HCA_LIST: 'mlx5_0:1,mlx5_1:1,mlx5_3:1',
        UCX_NET_DEVICES: 'mlx5_0:1,mlx5_1:1,mlx5_3:1',
        NCCL_IB_GID_INDEX: '3',
        NVSHMEM_IB_GID_INDEX: '3',
        UCX_IB_GID_INDEX: '3',
      }]);
    }
    const single = launchers[0];
    expect(run(single, { ibRoot: ib, env: { KSERVE_INFER_ROCE: 'true', NCCL_IB_HCA: 'mlx5_1', NCCL_IB_GID_INDEX: '5', UCX_IB_GID_INDEX: '7' } }).env).toEqual({
      NCCL_IB_HCA: 'mlx5_1',
      NVSHMEM_HCA_LIST: 'mlx5_0:1,mlx5_1:1,mlx5_3:1',
      UCX_NET_DEVICES: 'mlx5_0:1,mlx5_1:1,mlx5_3:1',
      NCCL_IB_GID_INDEX: '5',
      NVSHMEM_IB_GID_INDEX: '5',
      UCX_IB_GID_INDEX: '7',
    });
  });

  test('template actions only in the controller-values block, none holding a double quote (the controller templates JSON)', () => {
    for (const l of launchers) {
      const script = scriptOf(l);
      const templated = script.split('\n').filter((line) => line.includes('{{'));
      expect([l.id, templated.length]).toEqual([l.id, Object.keys(templateLines(script)).length]);
      for (const m of script.matchAll(/\{\{(.*?)\}\}/g)) expect(m[1]).not.toMatch(/["<>&]/);
    }
  });
});
