/**
 * Our own vLLM launch scripts for the LLMInferenceServiceConfig presets. The controller
 * renders each preset as a Go template before it creates pods, so `{{ ... }}` below is
 * filled from the LLMInferenceService (.Spec, .ObjectMeta) and the controller's global
 * configuration (.GlobalConfig) at run time.
 *
 * Upstream's launchers (not reproduced) read the same environment variables; what they do
 * beyond what is written here (for example detecting the RoCE GID index when
 * KSERVE_INFER_ROCE is set) is not confirmed, so here those variables pass through to
 * NCCL/UCX/NVSHMEM as the user sets them.
 */

export type LaunchRole = 'single' | 'data-parallel-leader' | 'data-parallel-worker';

const TLS_DIR = '/var/run/kserve/tls';

/** Shell lines common to every role: strict mode, the extra-argument variables, TLS. */
function common(port: number): string[] {
  return [
    'set -euo pipefail',
    'args=(serve /mnt/models --served-model-name "{{ .Spec.Model.Name }}" --port ' + String(port) + ')',
    '{{- if .GlobalConfig.EnableTLS }}',
    `args+=(--enable-ssl-refresh --ssl-certfile ${TLS_DIR}/tls.crt --ssl-keyfile ${TLS_DIR}/tls.key)`,
    '{{- end }}',
    '{{- with .Spec.Parallelism }}{{ if .Tensor }}',
    'args+=(--tensor-parallel-size {{ .Tensor }})',
    '{{- end }}{{ if .Pipeline }}',
    'args+=(--pipeline-parallel-size {{ .Pipeline }})',
    '{{- end }}{{ if .Expert }}',
    'args+=(--enable-expert-parallel)',
    '{{- end }}{{ end }}',
    '# Space-separated extra arguments set on the container (word splitting intended).',
    'for extra in "${KV_TRANSFER_ARGS:-}" "${ACCESS_LOG_ARGS:-}" "${SHUTDOWN_TIMEOUT_ARGS:-}" "${VLLM_ADDITIONAL_ARGS:-}"; do',
    '  # shellcheck disable=SC2206',
    '  [ -n "$extra" ] && args+=($extra)',
    'done',
  ];
}

/** Waits until the data-parallel leader's address resolves, then prints it. */
const RESOLVE_LEADER = [
  'leader="${DP_ADDRESS:-${LWS_LEADER_ADDRESS:?the data-parallel leader address (DP_ADDRESS or LWS_LEADER_ADDRESS) is not set}}"',
  'attempts="${DP_ADDRESS_RESOLVE_ATTEMPTS:-${RESOLVE_ATTEMPTS:-60}}"',
  'until getent hosts "$leader" >/dev/null; do',
  '  attempts=$((attempts - 1))',
  '  [ "$attempts" -gt 0 ] || { echo "cannot resolve data-parallel leader $leader" >&2; exit 1; }',
  '  sleep 2',
  'done',
];

const DATA_PARALLEL = [
  '{{- with .Spec.Parallelism }}',
  'args+=(--data-parallel-size {{ or .Data 1 }} --data-parallel-size-local {{ or .DataLocal 1 }} --data-parallel-rpc-port {{ or .DataRPCPort 5555 }})',
  'local_size={{ or .DataLocal 1 }}',
  '{{- end }}',
  'args+=(--data-parallel-address "$leader")',
];

/** The script for one role, as the third element of `/bin/bash -c <script> --`. */
export function vllmLaunchScript(role: LaunchRole, port = 8000): string {
  const lines = [...common(port)];
  if (role !== 'single') {
    lines.push(...RESOLVE_LEADER, ...DATA_PARALLEL);
    if (role === 'data-parallel-leader') {
      lines.push('args+=(--api-server-count "${VLLM_API_SERVER_COUNT:-1}")');
    } else {
      // Workers run engines only; their ranks follow the leader's, by LeaderWorkerSet index.
      lines.push('start_rank="${START_RANK:-$(( ${LWS_WORKER_INDEX:?LWS_WORKER_INDEX is not set} * ${local_size:-1} ))}"');
      lines.push('args+=(--headless --data-parallel-start-rank "$start_rank")');
    }
  }
  lines.push('echo "starting vllm ${VLLM_VERSION:-} with: ${args[*]}"', 'exec vllm "${args[@]}"');
  return lines.join('\n') + '\n';
}
