// The package's entry point: the framework, the components and the default platforms.
export * from './lib';
export * from './constructs/admission-webhook';
export * from './constructs/ai-gateway-payload-processing';
export * from './constructs/appwrapper';
export * from './constructs/argo-workflows';
export * from './constructs/central-dashboard';
export * from './constructs/cert-manager/cert-manager';
export * from './constructs/cert-manager/versions';
export { ACME_GROUP, CERT_MANAGER_GROUP, certificateCrd, certificateRequestCrd, challengeCrd, clusterIssuerCrd, issuerCrd, orderCrd, CRDS as CERT_MANAGER_CRDS } from './constructs/cert-manager/crds';
export * from './constructs/codeflare';
export * from './constructs/data-science-pipelines-operator';
export * from './constructs/distributed-workloads';
export * from './constructs/gateway-api-inference-extension';
export * from './constructs/jobset';
export * from './constructs/katib/katib';
export * from './constructs/katib/katib-config';
export * from './constructs/katib/db-manager';
export * from './constructs/katib/mysql';
export * from './constructs/katib/ui';
export * from './constructs/katib/versions';
export { KATIB_GROUP, experimentCrd, suggestionCrd, trialCrd, CRDS as KATIB_CRDS } from './constructs/katib/crds';
export * from './constructs/kserve';
export * from './constructs/kubeflow-pipelines';
export * from './constructs/kuberay';
export * from './constructs/kueue';
export * from './constructs/llama-stack-k8s-operator';
export * from './constructs/llm-d-router';
export * from './constructs/mlflow-operator';
export * from './constructs/model-registry';
export * from './constructs/model-registry-operator';
export * from './constructs/modelmesh-serving';
export * from './constructs/models-as-a-service';
export * from './constructs/notebook-controller';
export * from './constructs/odh-model-controller';
export * from './constructs/odh-trusted-ca-bundle';
export * from './constructs/profile-controller';
export * from './constructs/spark-operator';
export * from './constructs/trainer';
export * from './constructs/training-operator';
export * from './constructs/workload-variant-autoscaler';
export * from './platforms';

// Names that two modules export: the framework's wins at the root; the other is exported under a
// longer name (as are the cert-manager and Katib CRD lists, both named CRDS in their folders).
export type { ExternalDatabase, SecretKeyRef } from './lib';
export type { ExternalDatabase as PipelinesExternalDatabase } from './constructs/kubeflow-pipelines';
export type { SecretKeyRef as ArgoSecretKeyRef } from './constructs/argo-workflows';
