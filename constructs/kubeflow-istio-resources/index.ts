export * from './kubeflow-istio-resources';
