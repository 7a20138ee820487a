/**
 * Our own bootstrap scripts for the multi-node Hugging Face runtime: the head pod starts a
 * Ray head and then the model server over it; each worker pod joins the head's Ray cluster.
 * The controller sets the environment they read (TENSOR_PARALLEL_SIZE, PIPELINE_PARALLEL_SIZE,
 * MODEL_DIR or MODEL_ID, HEAD_SVC / RAY_HEAD_ADDRESS); upstream's scripts are not reproduced.
 */

/** Head: Ray head on RAY_PORT, then the model server, with the runtime's args (`bash -c` puts the first in $0). */
export const RAY_HEAD_SCRIPT = [
  'set -euo pipefail',
  'case "$0" in --*) set -- "$0" "$@" ;; esac',
  'ray start --head --disable-usage-stats --include-dashboard=false --port="${RAY_PORT:-6379}" --node-ip-address="${POD_IP}"',
  'model="${MODEL_DIR_ARG:-}"',
  'if [ -z "$model" ] && [ -n "${MODEL_DIR:-}" ]; then model="--model_dir=${MODEL_DIR}"; fi',
  'if [ -z "$model" ] && [ -n "${MODEL_ID:-}" ]; then model="--model_id=${MODEL_ID}"; fi',
  'exec python -m huggingfaceserver ${model} --tensor-parallel-size="${TENSOR_PARALLEL_SIZE:-1}" --pipeline-parallel-size="${PIPELINE_PARALLEL_SIZE:-1}" "$@"',
  '',
].join('\n');

/** Where a worker's probes find the head: the head Service on Ray's port. */
export const RAY_HEAD_ADDRESS_EXPORT = 'export RAY_ADDRESS=${HEAD_SVC}.${POD_NAMESPACE}.svc.cluster.local:6379\n';

/** Worker: wait (bounded) until the head answers, then join and block. */
export const RAY_WORKER_SCRIPT = [
  'set -euo pipefail',
  'export RAY_ADDRESS="${RAY_HEAD_ADDRESS:-${HEAD_SVC}.${POD_NAMESPACE}.svc.cluster.local:6379}"',
  'deadline=$((SECONDS + 600))',
  'until ray health-check --address "$RAY_ADDRESS" >/dev/null 2>&1; do',
  '  [ "$SECONDS" -lt "$deadline" ] || { echo "Ray head $RAY_ADDRESS did not answer in 600s" >&2; exit 1; }',
  '  sleep 5',
  'done',
  'exec ray start --address="$RAY_ADDRESS" --block --disable-usage-stats',
  '',
].join('\n');
