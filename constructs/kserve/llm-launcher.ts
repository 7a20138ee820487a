/**
 * Our own vLLM launch scripts for the LLMInferenceServiceConfig presets (written here; the
 * behaviour follows KServe v0.20.0's presets, config/llmisvcconfig/).
 *
 * The controller renders each preset as a Go template (over the preset's JSON) before it
 * creates pods, so the `{{ ... }}` actions are filled from the LLMInferenceService (.Spec,
 * .ObjectMeta), the controller's global configuration (.GlobalConfig) and its template
 * functions `kvTransferConfig` and `shutdownTimeout`. Every action sits in one block of
 * `name="..."` assignments at the top of the script (CONTROLLER_VALUES below); the rest is
 * plain bash, so that a test can put values in those lines and run it.
 *
 * What the script does, as upstream's does:
 * - data-parallel pods resolve the leader (`LWS_LEADER_ADDRESS`) to an IP address, up to
 *   `DP_ADDRESS_RESOLVE_ATTEMPTS` (30) tries a second apart, else use the name;
 * - with `KSERVE_INFER_ROCE=true`, finds the active mlx5 HCAs and the RoCE v2 GID index and
 *   exports NCCL_IB_HCA, NVSHMEM_HCA_LIST, UCX_NET_DEVICES and NCCL/NVSHMEM/UCX_IB_GID_INDEX
 *   (values the user set win);
 * - asks vLLM its version: 0.16+ gets `--disable-access-log-for-endpoints /health,/metrics,/ping`
 *   (older `--disable-uvicorn-access-log`), 0.18+ `--shutdown-timeout` (the grace period less
 *   the preStop sleep and 5 s), 0.22+ the KV cache offloading config from spec.kvCacheOffloading
 *   unless VLLM_ADDITIONAL_ARGS or the container args already set `--kv-transfer-config`;
 * - serves the model as `<model name>` and, but for prefill pods, also as
 *   `publishers/<namespace>/models/<model name>` (the name the status publishes and the
 *   HTTPRoute matches);
 * - ends with `VLLM_ADDITIONAL_ARGS` and the container's args, the command line passing
 *   through `eval` as upstream's does: quoting inside them is honoured (the controller
 *   single-quotes each `--lora-modules` JSON for that, and the KV config arrives quoted).
 * Where upstream leaves an order unspecified (a tie between GID indexes other than 3, which
 * it breaks by bash's hash order) the lowest index is taken here.
 */

export type LaunchRole = 'single' | 'data-parallel-leader' | 'data-parallel-worker';

export interface LaunchOptions {
  readonly role: LaunchRole;
  /** vLLM's port: 8001 behind the prefill/decode routing sidecar, 8000 otherwise. */
  readonly port: number;
  /** A prefill pod: its settings come from spec.prefill, and it serves only the model name. */
  readonly prefill?: boolean;
  /** The preStop sleep in seconds, left out of the shutdown timeout. */
  readonly preStopSeconds: number;
}

const TLS_DIR = '/var/run/kserve/tls';

/** Where the script looks for InfiniBand devices (a plain assignment, like the controller values). */
export const IB_ROOT_LINE = 'ib_root=/sys/class/infiniband';

/**
 * The controller's values, by shell variable: the Go template that fills each. Template
 * actions hold no double quote (the controller templates JSON, where it would be escaped).
 */
export function controllerValues(o: LaunchOptions): Record<string, string> {
  const w = o.prefill ? '.Spec.Prefill' : '.Spec';
  // The pod spec whose termination grace period bounds the shutdown (leader: template; worker: worker).
  const pod = o.role === 'data-parallel-worker' ? 'Worker' : 'Template';
  const shutdown = `shutdownTimeout ${w}.${pod} ${o.preStopSeconds}`;
  const values: Record<string, string> = {
    model_name: '{{ .Spec.Model.Name }}',
    ...(o.prefill ? {} : { publisher_name: 'publishers/{{ .ObjectMeta.Namespace }}/models/{{ .Spec.Model.Name }}' }),
    tls: '{{ if .GlobalConfig.EnableTLS }}true{{ end }}',
    shutdown_seconds: o.prefill ? `{{ if .Spec.Prefill }}{{ ${shutdown} }}{{ else }}{{ shutdownTimeout nil ${o.preStopSeconds} }}{{ end }}` : `{{ ${shutdown} }}`,
    kv_transfer: o.prefill ? '{{ if .Spec.Prefill }}{{ kvTransferConfig .Spec.Prefill.KVCacheOffloading }}{{ end }}' : '{{ kvTransferConfig .Spec.KVCacheOffloading }}',
  };
  if (o.role === 'single') {
    const guard = o.prefill ? 'and .Spec.Prefill .Spec.Prefill.Parallelism .Spec.Prefill.Parallelism.Tensor' : 'and .Spec.Parallelism .Spec.Parallelism.Tensor';
    values.tensor = `{{ if ${guard} }}{{ ${w}.Parallelism.Tensor }}{{ end }}`;
  } else {
    const p = `${w}.Parallelism`;
    values.expert = `{{ if ${p}.Expert }}true{{ end }}`;
    values.tensor = `{{ if ${p}.Tensor }}{{ ${p}.Tensor }}{{ end }}`;
    values.dp_size = `{{ or ${p}.Data 1 }}`;
    values.dp_local = `{{ or ${p}.DataLocal 1 }}`;
    values.dp_rpc_port = `{{ or ${p}.DataRPCPort 5555 }}`;
  }
  return values;
}

/** Resolves the data-parallel leader to an address (ZMQ binds do not always resolve names). */
const RESOLVE_LEADER = `
attempts=\${DP_ADDRESS_RESOLVE_ATTEMPTS:-30}
DP_ADDRESS=
for ((try = 1; try <= attempts; try++)); do
  DP_ADDRESS=$(getent hosts "\${LWS_LEADER_ADDRESS:-}" | awk '{ print $1; exit }')
  if [ -n "$DP_ADDRESS" ]; then
    echo "[launch] leader \${LWS_LEADER_ADDRESS:-} is $DP_ADDRESS (try $try)"
    break
  fi
  echo "[launch] leader \${LWS_LEADER_ADDRESS:-} does not resolve yet (try $try of $attempts)"
  sleep 1
done
if [ -z "$DP_ADDRESS" ]; then
  DP_ADDRESS=\${LWS_LEADER_ADDRESS:-}
  echo "[launch] WARNING: using the leader's name $DP_ADDRESS unresolved"
fi
`;

/** KSERVE_INFER_ROCE=true: RDMA devices and GID index from sysfs, for NCCL, NVSHMEM and UCX. */
const INFER_ROCE = `
infer_roce() {
  local wanted="\${KSERVE_INFER_IB_GID_INDEX_GREP:-RoCE v2}" dir hca file idx
  echo "[roce] looking for active HCAs with a '$wanted' GID under $ib_root"
  grep -H . "$ib_root"/*/ports/*/gids/* "$ib_root"/*/ports/*/gid_attrs/types/* 2>/dev/null
  cat /proc/driver/nvidia/params 2>/dev/null
  local hcas=()
  for dir in "$ib_root"/mlx5_*; do
    [ -d "$dir" ] || continue
    hca=\${dir##*/}
    if grep -qs ACTIVE "$dir/ports/1/state" && grep -qs -- "$wanted" "$dir"/ports/1/gid_attrs/types/*; then
      echo "[roce] $hca: active"
      hcas+=("$hca")
    else
      echo "[roce] $hca: skipped (port 1 not active or no '$wanted' GID)"
    fi
  done
  if [ \${#hcas[@]} -eq 0 ]; then
    echo "[roce] WARNING: no active HCA: NCCL_IB_HCA and the GID indexes stay unset"
    return 0
  fi
  local names ports
  names=$(IFS=,; echo "\${hcas[*]}")
  ports=$(printf '%s:1,' "\${hcas[@]}")
  ports=\${ports%,}
  export NCCL_IB_HCA="\${NCCL_IB_HCA:-$names}"
  export NVSHMEM_HCA_LIST="\${NVSHMEM_HCA_LIST:-$ports}"
  export UCX_NET_DEVICES="\${UCX_NET_DEVICES:-$ports}"
  echo "[roce] NCCL_IB_HCA=$NCCL_IB_HCA NVSHMEM_HCA_LIST=$NVSHMEM_HCA_LIST UCX_NET_DEVICES=$UCX_NET_DEVICES"
  # Per HCA, the first GID of the wanted type holding an IPv4 address; the index most HCAs share wins, 3 on a tie.
  local -A found=()
  for hca in "\${hcas[@]}"; do
    for file in "$ib_root/$hca"/ports/1/gid_attrs/types/*; do
      idx=\${file##*/}
      if grep -qs -- "$wanted" "$file" && grep -qs 'ffff:' "$ib_root/$hca/ports/1/gids/$idx"; then
        found[$idx]=$(( \${found[$idx]:-0} + 1 ))
        break
      fi
    done
  done
  local best= most=0
  for idx in $(printf '%s\\n' "\${!found[@]}" | sort -n); do
    echo "[roce] GID index $idx on \${found[$idx]} HCA(s)"
    if [ "\${found[$idx]}" -gt "$most" ]; then best=$idx; most=\${found[$idx]}; fi
  done
  if [ \${#found[@]} -gt 1 ] && [ "\${found[3]:-0}" -eq "$most" ]; then best=3; fi
  if [ -n "\${NCCL_IB_GID_INDEX:-}" ]; then
    best=$NCCL_IB_GID_INDEX
    echo "[roce] NCCL_IB_GID_INDEX=$best was set: used for NVSHMEM and UCX too"
  elif [ -z "$best" ]; then
    echo "[roce] ERROR: no IPv4 '$wanted' GID on any active HCA" >&2
    return 0
  fi
  export NCCL_IB_GID_INDEX="\${NCCL_IB_GID_INDEX:-$best}"
  export NVSHMEM_IB_GID_INDEX="\${NVSHMEM_IB_GID_INDEX:-$best}"
  export UCX_IB_GID_INDEX="\${UCX_IB_GID_INDEX:-$best}"
  echo "[roce] GID index $best for NCCL, NVSHMEM and UCX"
}
if [ "\${KSERVE_INFER_ROCE:-}" = true ]; then infer_roce; fi
`;

/** Flags by vLLM version (upstream's detection), and the KV cache offloading config. */
const VERSION_FLAGS = `
VLLM_VERSION=$(vllm --version 2>/dev/null | tail -1 | awk '{ print $NF }')
echo "[launch] vllm version '$VLLM_VERSION'"
# True when vLLM's version is at least $1.
vllm_at_least() {
  [[ $VLLM_VERSION =~ ^[0-9]+\\.[0-9]+ ]] && [ "$(printf '%s\\n%s\\n' "$1" "$VLLM_VERSION" | sort -V | head -n 1)" = "$1" ]
}
ACCESS_LOG_ARGS=--disable-uvicorn-access-log
if vllm_at_least 0.16.0; then ACCESS_LOG_ARGS="--disable-access-log-for-endpoints /health,/metrics,/ping"; fi
SHUTDOWN_TIMEOUT_ARGS=
if vllm_at_least 0.18.0; then SHUTDOWN_TIMEOUT_ARGS="--shutdown-timeout $shutdown_seconds"; fi
KV_TRANSFER_ARGS=
if vllm_at_least 0.22.0; then
  case "\${VLLM_ADDITIONAL_ARGS:-} $*" in
    *--kv-transfer-config* | *--kv_transfer_config*) echo "[launch] --kv-transfer-config is set by the user" ;;
    *) KV_TRANSFER_ARGS=$kv_transfer ;;
  esac
fi
`;

/** Quotes each argument for eval (nothing for none). */
const QUOTE = `
quoted() { if [ $# -gt 0 ]; then printf '%q ' "$@"; fi; }
`;

/** The script for one container, as the third element of `/bin/bash -c <script> --`. */
export function vllmLaunchScript(o: LaunchOptions): string {
  const values = controllerValues(o);
  const lines = ['# Filled by the LLMInferenceService controller from the service and its configuration.'];
  for (const [name, template] of Object.entries(values)) lines.push(`${name}="${template}"`);
  lines.push(IB_ROOT_LINE);
  const dp = o.role !== 'single';
  if (dp) lines.push(RESOLVE_LEADER);
  lines.push(INFER_ROCE);
  if (o.role === 'data-parallel-worker') {
    // Workers' ranks follow the leader's, by LeaderWorkerSet index.
    lines.push('START_RANK=$(( ${LWS_WORKER_INDEX:-0} * dp_local ))');
  } else if (dp) {
    lines.push('START_RANK=0');
  }
  lines.push(VERSION_FLAGS, QUOTE);
  lines.push(
    'names=("$model_name")',
    ...(o.prefill ? [] : ['names+=("$publisher_name")']),
    `head=(serve /mnt/models --served-model-name "\${names[@]}" --port ${o.port})`,
    'parallel=()',
    'tls_flags=()',
    `if [ "$tls" = true ]; then tls_flags=(--enable-ssl-refresh --ssl-certfile ${TLS_DIR}/tls.crt --ssl-keyfile ${TLS_DIR}/tls.key); fi`,
  );
  if (dp) {
    lines.push(
      'if [ "$expert" = true ]; then parallel+=(--enable-expert-parallel); fi',
      'if [ -n "$tensor" ]; then parallel+=(--tensor-parallel-size "$tensor"); fi',
      'parallel+=(--data-parallel-size "$dp_size" --data-parallel-size-local "$dp_local" --data-parallel-address "$DP_ADDRESS"',
      '  --data-parallel-rpc-port "$dp_rpc_port" --data-parallel-start-rank "$START_RANK")',
      ...(o.role === 'data-parallel-worker' ? ['parallel+=(--headless)'] : []),
      // The leader's API server count stays a word for eval, as upstream's.
      `line="exec vllm $(quoted "\${head[@]}")${o.role === 'data-parallel-leader' ? '--api-server-count ${VLLM_API_SERVER_COUNT:-8} ' : ''}$(quoted "\${parallel[@]}")$ACCESS_LOG_ARGS $SHUTDOWN_TIMEOUT_ARGS $KV_TRANSFER_ARGS $(quoted "\${tls_flags[@]}")\${VLLM_ADDITIONAL_ARGS:-} $*"`,
    );
  } else {
    lines.push(
      'if [ -n "$tensor" ]; then parallel+=(--tensor-parallel-size "$tensor"); fi',
      'line="exec vllm $(quoted "${head[@]}")$ACCESS_LOG_ARGS $SHUTDOWN_TIMEOUT_ARGS $KV_TRANSFER_ARGS $(quoted "${parallel[@]}" "${tls_flags[@]}")${VLLM_ADDITIONAL_ARGS:-} $*"',
    );
  }
  lines.push(
    'echo "[launch] $line"',
    '# eval, as upstream: VLLM_ADDITIONAL_ARGS, the container args and the KV config keep their quoting.',
    'eval "$line"',
  );
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}
