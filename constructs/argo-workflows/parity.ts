import { DeviationCategory, FactKind, literalPattern, ParityDeviation } from '../../lib/parity';

const CONTROLLER = 'Deployment/workflow-controller container workflow-controller';

/** Which platform settings the construct writes (each an extra item upstream's install does not have). */
export interface ArgoPlatformSettings {
  readonly artifactRepository: boolean;
  readonly executor: boolean;
  readonly workflowDefaults: boolean;
  readonly transientErrorPattern?: boolean;
}

/**
 * Argo Workflows' differences from upstream's cluster install at v4.0.5 (manifests/cluster-install),
 * each checked against the workflow controller's code at that tag.
 * @param executorImage the executor image the construct passes (an arg item of its own)
 * @param keys which platform settings the construct writes into its ConfigMap
 */
export function argoWorkflowsParityDeviations(executorImage: string, keys: ArgoPlatformSettings): ParityDeviation[] {
  const arg = (item: string, reason: string): ParityDeviation => ({
    fact: { kind: FactKind.ARG, object: CONTROLLER, item: literalPattern(item), status: 'extra' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason,
  });
  return [
    arg('--configmap', 'names the ConfigMap the controller reads explicitly; workflow-controller-configmap is also the flag\'s default at v4.0.5 (cmd/workflow-controller/main.go).'),
    arg('workflow-controller-configmap', 'names the ConfigMap the controller reads explicitly; workflow-controller-configmap is also the flag\'s default at v4.0.5 (cmd/workflow-controller/main.go).'),
    arg('--executor-image', 'pins the executor image the controller injects into workflow pods to the resolved image (so image overrides and mirrors reach it); without the flag v4.0.5 uses the argoexec image of its own version.'),
    arg(executorImage, 'pins the executor image the controller injects into workflow pods to the resolved image (so image overrides and mirrors reach it); without the flag v4.0.5 uses the argoexec image of its own version.'),
    ...['service', 'workload'].map((kind): ParityDeviation => ({
      fact: { kind: kind === 'service' ? FactKind.SERVICE : FactKind.WORKLOAD, object: kind === 'service' ? 'argo-server' : 'Deployment/argo-server', status: 'missing' },
      category: DeviationCategory.NOT_INSTALLED,
      reason: 'the Argo Server (API and UI) is left out, as in the minimal install Kubeflow Pipelines 2.17.0 uses: workflows are created by the Pipelines API server, which talks to the Kubernetes API, not to argo-server.',
    })),
    ...(keys.artifactRepository ? [{
      fact: { kind: FactKind.CONFIGMAP_KEY, object: 'workflow-controller-configmap', item: 'artifactRepository', status: 'extra' as const },
      category: DeviationCategory.PLATFORM_INTEGRATION,
      reason: 'the platform sets the default artifact repository (its Pipelines object store), as Kubeflow Pipelines\' own install writes into this ConfigMap.',
    }] : []),
    ...(keys.executor ? [{
      fact: { kind: FactKind.CONFIGMAP_KEY, object: 'workflow-controller-configmap', item: 'executor', status: 'extra' as const },
      category: DeviationCategory.PLATFORM_INTEGRATION,
      reason: 'the platform sets the executor container of workflow pods (a restricted security context), as Kubeflow Pipelines 2.17.0\'s own install writes into this ConfigMap.',
    }] : []),
    ...(keys.workflowDefaults ? [{
      fact: { kind: FactKind.CONFIGMAP_KEY, object: 'workflow-controller-configmap', item: 'workflowDefaults', status: 'extra' as const },
      category: DeviationCategory.PLATFORM_INTEGRATION,
      reason: 'the platform sets workflow defaults (a TTL and a retry strategy), as Kubeflow Pipelines 2.17.0\'s own install writes into this ConfigMap.',
    }] : []),
    ...(keys.transientErrorPattern ? [{
      fact: { kind: FactKind.ENV, object: CONTROLLER, item: literalPattern('TRANSIENT_ERROR_PATTERN'), status: 'extra' as const },
      category: DeviationCategory.PLATFORM_INTEGRATION,
      reason: 'the platform sets the errors the controller retries as transient (node shutdown, preemption, eviction), as Kubeflow Pipelines 2.17.0\'s own install sets the controller\'s env.',
    }] : []),
  ];
}
