import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';

const CONTROLLER = 'Deployment/spark-operator-controller container controller';
const WEBHOOK = 'Deployment/spark-operator-webhook container webhook';

/** What the construct chose where upstream's kustomize install differs. */
export interface SparkParityOptions {
  /** The operator's namespace. */
  readonly namespace: string;
  /** The --namespaces flag both workloads get. */
  readonly namespacesFlag: string;
  /** The name of both webhook configurations. */
  readonly webhookConfiguration: string;
}

/**
 * The Spark operator's differences from upstream's kustomize install (v2.5.2
 * config/default), on purpose: the construct follows the Helm chart 2.5.2, upstream's
 * primary install path, where the two differ.
 */
export function sparkOperatorParityDeviations(o: SparkParityOptions): ParityDeviation[] {
  const d = (kind: FactKind, object: string, item: string | undefined, status: 'missing' | 'extra', category: DeviationCategory, reason: string): ParityDeviation => ({
    fact: item === undefined ? { kind, object, status } : { kind, object, item, status }, category, reason,
  });
  const literal = 'the namespace is written into the flag itself, where upstream substitutes it from a downward-API env variable; v2.5.2 reads no such variable (only the flag), so the value the program sees is the same.';
  const out: ParityDeviation[] = [];
  for (const [object, env, flags] of [
    [CONTROLLER, 'CONTROLLER_NAMESPACE', ['--leader-election-lock-namespace']],
    [WEBHOOK, 'WEBHOOK_NAMESPACE', ['--leader-election-lock-namespace', '--webhook-secret-namespace', '--webhook-svc-namespace']],
  ] as const) {
    out.push(d(FactKind.ENV, object, env, 'missing', DeviationCategory.PLATFORM_INTEGRATION, literal));
    for (const f of flags) {
      out.push(d(FactKind.ARG, object, `${f}=$(${env})`, 'missing', DeviationCategory.PLATFORM_INTEGRATION, literal));
      out.push(d(FactKind.ARG, object, `${f}=${o.namespace}`, 'extra', DeviationCategory.PLATFORM_INTEGRATION, literal));
    }
    const ns = 'jobNamespaces defaults to [default] as the Helm chart\'s spark.jobNamespaces does (upstream\'s kustomize webhooks also select only the default namespace); allNamespaces: true gives --namespaces= as the kustomize install.';
    out.push(d(FactKind.ARG, object, '--namespaces=', 'missing', DeviationCategory.PLATFORM_INTEGRATION, ns));
    out.push(d(FactKind.ARG, object, o.namespacesFlag, 'extra', DeviationCategory.PLATFORM_INTEGRATION, ns));
  }
  out.push(d(FactKind.ENV, CONTROLLER, 'OPERATOR_VERSION', 'missing', DeviationCategory.NOT_INSTALLED,
    'no code of v2.5.2 reads OPERATOR_VERSION (upstream\'s manager.yaml sets it to a stale 2.5.0-rc.0); the image tag carries the version.'));
  for (const item of ['--metrics-job-start-latency-buckets=30,60,90,120,150,180,210,240,270,300', '--metrics-job-submit-latency-buckets=0.5,1,2,4,8,16,32,64,128,256']) {
    out.push(d(FactKind.ARG, CONTROLLER, item, 'missing', DeviationCategory.PLATFORM_INTEGRATION,
      'the flag\'s value is v2.5.2\'s default for it (cmd/operator/controller/start.go), as the Helm chart leaves it unset.'));
  }
  const names = `both webhook configurations are named ${o.webhookConfiguration}, as the Helm chart names them, rather than kubebuilder's default names (mutating-webhook-configuration, validating-webhook-configuration), which other operators in the cluster may also use; the webhook patches whichever configuration the flags name.`;
  out.push(
    d(FactKind.ARG, WEBHOOK, '--mutating-webhook-name=mutating-webhook-configuration', 'missing', DeviationCategory.PLATFORM_INTEGRATION, names),
    d(FactKind.ARG, WEBHOOK, '--validating-webhook-name=validating-webhook-configuration', 'missing', DeviationCategory.PLATFORM_INTEGRATION, names),
    d(FactKind.ARG, WEBHOOK, `--mutating-webhook-name=${o.webhookConfiguration}`, 'extra', DeviationCategory.PLATFORM_INTEGRATION, names),
    d(FactKind.ARG, WEBHOOK, `--validating-webhook-name=${o.webhookConfiguration}`, 'extra', DeviationCategory.PLATFORM_INTEGRATION, names),
  );
  // Same paths, rules and selectors; the Helm chart's webhook names.
  const webhookNames = 'the webhook is named as the Helm chart 2.5.2 names it; its path, rules and selectors are those of the kustomize webhook it replaces, and the API server uses the name only to tell webhooks apart.';
  out.push(
    d(FactKind.WEBHOOK, 'mutating mutate-pod.sparkoperator.k8s.io', undefined, 'missing', DeviationCategory.PLATFORM_INTEGRATION, webhookNames),
    d(FactKind.WEBHOOK, 'mutating mutate--v1-pod.sparkoperator.k8s.io', undefined, 'extra', DeviationCategory.PLATFORM_INTEGRATION, webhookNames),
  );
  for (const [version, kind] of [['v1beta2', 'sparkapplication'], ['v1beta2', 'scheduledsparkapplication'], ['v1alpha1', 'sparkconnect']]) {
    for (const [type, verb] of [['mutating', 'mutate'], ['validating', 'validate']]) {
      out.push(
        d(FactKind.WEBHOOK, `${type} ${verb}-${kind}.sparkoperator.k8s.io`, undefined, 'missing', DeviationCategory.PLATFORM_INTEGRATION, webhookNames),
        d(FactKind.WEBHOOK, `${type} ${verb}-sparkoperator-k8s-io-${version}-${kind}.sparkoperator.k8s.io`, undefined, 'extra', DeviationCategory.PLATFORM_INTEGRATION, webhookNames),
      );
    }
  }
  for (const crd of ['sparkapplications', 'scheduledsparkapplications', 'sparkconnects']) {
    out.push(d(FactKind.CONVERSION, `${crd}.sparkoperator.k8s.io`, undefined, 'missing', DeviationCategory.NOT_INSTALLED,
      'the CRD serves one version, so the API server never calls a conversion webhook, and v2.5.2 has no convertible types behind /convert: the CRDs keep strategy None, as the Helm chart\'s do.'));
  }
  out.push(d(FactKind.SERVICE_SELECTOR, 'spark-operator-webhook-svc', 'app.kubernetes.io/managed-by', 'missing', DeviationCategory.PLATFORM_INTEGRATION,
    'app.kubernetes.io/managed-by: kustomize is a label kustomize\'s build stamps on every object; the Service selects the webhook pods by their component, instance and name labels.'));
  return out;
}
