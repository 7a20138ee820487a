/**
 * Our own bootstrap scripts for the multi-node Hugging Face runtime (written here; the
 * behaviour follows KServe v0.20.0's kserve-huggingfaceserver-multinode): the head pod starts
 * a Ray head, waits until the workers have joined, then starts the model server over it;
 * each worker pod waits for the head's Ray GCS and joins. The controller sets the
 * environment they read (TENSOR_PARALLEL_SIZE, PIPELINE_PARALLEL_SIZE, MODEL_DIR or MODEL_ID,
 * HEAD_SVC).
 */

/** The runtime image's health checker (run from the image's working directory). */
const HEALTH_CHECK = 'python ./huggingfaceserver/health_check.py';

/**
 * Head: Ray head, then wait (200 tries) for the workers' nodes, then the model server with the
 * runtime's args (`bash -c` puts the first in $0). As upstream, the server starts even when the
 * wait gives up, and MODEL_DIR, else MODEL_ID, is the model directory.
 */
export const RAY_HEAD_SCRIPT = [
  'model_dir=',
  'if [ -n "${MODEL_ID:-}" ]; then model_dir="--model_dir=${MODEL_ID}"; fi',
  'if [ -n "${MODEL_DIR:-}" ]; then model_dir="--model_dir=${MODEL_DIR}"; fi',
  'export RAY_ADDRESS="${POD_IP}:${RAY_PORT}"',
  'ray start --head --disable-usage-stats --include-dashboard false',
  `${HEALTH_CHECK} registered_nodes --retries 200 --probe_name runtime_start`,
  'case "$0" in --*) set -- "$0" "$@" ;; esac',
  '# shellcheck disable=SC2086',
  'python -m huggingfaceserver ${model_dir} --tensor-parallel-size="${TENSOR_PARALLEL_SIZE}" --pipeline-parallel-size="${PIPELINE_PARALLEL_SIZE}" "$@"',
  '',
].join('\n');

/** The head's address for a worker (its Service), set in the worker's probes. */
export const RAY_HEAD_NODE = '${HEAD_SVC}.${POD_NAMESPACE}.svc.cluster.local';

/** Where a worker's liveness probe finds the head: the head Service on Ray's port. */
export const RAY_HEAD_ADDRESS_EXPORT = `export RAY_ADDRESS=${RAY_HEAD_NODE}:6379\n`;

/**
 * A worker's startup: its node joined and the head's model server lists its models (the
 * head serves only once every worker has joined).
 */
export const RAY_WORKER_STARTUP_CHECK = 'registered_node_and_runtime_models --runtime_url http://${RAY_HEAD_NODE}:8080/v1/models --probe_name worker_startup';
export const RAY_WORKER_STARTUP_PRELUDE = `export RAY_HEAD_NODE=${RAY_HEAD_NODE}\nexport RAY_ADDRESS=\${RAY_HEAD_NODE}:6379\n`;

/** Worker: wait for the head's Ray GCS (quietly for 240 s, then with ray's errors), then join and block. */
export const RAY_WORKER_SCRIPT = [
  `export RAY_HEAD_ADDRESS=${RAY_HEAD_NODE}:6379`,
  'SECONDS=0',
  'while true; do',
  '  if (( SECONDS <= 240 )); then',
  '    ray health-check --address "${RAY_HEAD_ADDRESS}" >/dev/null 2>&1 && break',
  '  else',
  '    ray health-check --address "${RAY_HEAD_ADDRESS}" && break',
  '  fi',
  '  echo "${SECONDS}s: waiting for the Ray head (GCS) at ${RAY_HEAD_ADDRESS}"',
  '  sleep 5',
  'done',
  'echo "Ray head at ${RAY_HEAD_ADDRESS} is ready: joining"',
  'ray start --address="${RAY_HEAD_ADDRESS}" --block',
  '',
].join('\n');
