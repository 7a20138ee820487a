import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { PROFILE_HOOK_SCRIPT, PROFILE_HOOK_SCRIPT_PATH } from './profile-hook-script';
import { DecoratorController } from '../../imports/metacontroller.k8s.io';
import { Component } from '../../lib/component';
import { PolicyRule, Rbac } from '../../lib/rbac';
import { Workload } from '../../lib/workload';

/** The label that opts a namespace into Pipelines (the profile controller sets it on profile namespaces). */
export const PIPELINES_ENABLED_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'pipelines.kubeflow.org/enabled': 'true' });

export interface PipelinesProfileHookProps {
  /** The resolved image of the Node.js runtime that runs the hook script. */
  readonly runtimeImage: string;
  /** The resolved Pipelines UI image the per-namespace artifact server runs; undefined: no artifact server. */
  readonly frontendImage?: string;
  /** Secret (keys accesskey, secretkey) in the component's namespace whose credentials each namespace gets a copy of. */
  readonly objectStoreSecret: string;
  /**
   * Default pipeline root for runs in profile namespaces (the kfp-launcher ConfigMap of each).
   * @default - upstream's: minio://<bucket>/private-artifacts/<namespace>/v2/artifacts
   */
  readonly defaultPipelineRoot?: string;
  /** The bucket of pipeline artifacts. */
  readonly bucket: string;
  /**
   * How profile namespaces reach the object store: `perNamespace` (the included SeaweedFS's
   * IAM and S3 URLs), an identity per namespace, limited to its prefixes, as upstream's
   * sync.py creates; or `shared`, a copy of the admin credentials in every namespace.
   */
  readonly objectStoreAccess: { readonly perNamespace: { readonly iamEndpoint: string; readonly s3Endpoint: string } } | 'shared';
}

const NAME = 'kubeflow-pipelines-profile-controller';
const PORT = 8080;

/**
 * Upstream's kubeflow-pipelines-profile-controller: a metacontroller DecoratorController
 * over namespaces labelled pipelines.kubeflow.org/enabled=true, whose sync hook returns each
 * namespace's Pipelines objects: the kfp-launcher ConfigMap (the namespace's default
 * pipeline root), the metadata-grpc-configmap (where ML Metadata is), the namespace's object
 * store credentials (Secret mlpipeline-minio-artifact: its own SeaweedFS identity, limited to
 * its prefixes, or a copy of the admin keys when access is shared), and, with the artifact
 * server on, the ml-pipeline-ui-artifact Deployment and Service. The hook is this project's
 * own script (PROFILE_HOOK_SCRIPT) in a ConfigMap, run by a pinned stock Node.js image.
 */
export class PipelinesProfileHook extends Construct {
  public readonly workload: Workload;
  public readonly decorator: DecoratorController;
  /** What metacontroller needs to manage the hook's children. */
  public readonly childRules: PolicyRule[];
  /** How profile namespaces reach the object store. */
  public readonly objectStoreAccess: PipelinesProfileHookProps['objectStoreAccess'];

  constructor(scope: Component, id: string, props: PipelinesProfileHookProps) {
    super(scope, id);
    const ns = scope.namespaceName;
    this.objectStoreAccess = props.objectStoreAccess;
    if (props.defaultPipelineRoot !== undefined && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/.test(props.defaultPipelineRoot)) {
      throw new Error(`${scope.node.path}: defaultPipelineRoot '${props.defaultPipelineRoot}' is not a URI; give e.g. s3://mlpipeline/v2/artifacts or minio://mlpipeline/v2/artifacts`);
    }
    const labels = { app: NAME };
    new k8s.KubeConfigMap(this, 'Code', {
      metadata: { name: `${NAME}-code`, namespace: ns, labels },
      data: { 'sync.js': PROFILE_HOOK_SCRIPT },
    });
    const secretEnv = (name: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: props.objectStoreSecret, key } } });
    this.workload = new Workload(scope, 'ProfileHook', {
      name: NAME,
      containerName: 'profile-controller',
      image: props.runtimeImage,
      command: ['node', PROFILE_HOOK_SCRIPT_PATH],
      env: [
        { name: 'KFP_NAMESPACE', value: ns },
        { name: 'FRONTEND_IMAGE', value: props.frontendImage ?? '' },
        ...(props.defaultPipelineRoot ? [{ name: 'DEFAULT_PIPELINE_ROOT', value: props.defaultPipelineRoot }] : []),
        { name: 'BUCKET', value: props.bucket },
        secretEnv('AWS_ACCESS_KEY_ID', 'accesskey'),
        secretEnv('AWS_SECRET_ACCESS_KEY', 'secretkey'),
        ...(props.objectStoreAccess === 'shared' ? [{ name: 'OBJECT_STORE_ISOLATION', value: 'shared' }] : [
          { name: 'OBJECT_STORE_ISOLATION', value: 'per-namespace' },
          { name: 'AWS_ENDPOINT_URL', value: props.objectStoreAccess.perNamespace.iamEndpoint },
          { name: 'S3_ENDPOINT_URL', value: props.objectStoreAccess.perNamespace.s3Endpoint },
          { name: 'AWS_REGION', value: 'us-east-1' },
        ]),
        { name: 'PORT', value: String(PORT) },
      ],
      selectorLabels: labels,
      ports: [{ name: 'http', containerPort: PORT }],
      service: { ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      livenessProbe: { httpGet: { path: '/healthz', port: 'http' } },
      readinessProbe: { httpGet: { path: '/healthz', port: 'http' } },
      // The stock image's node user.
      runAsUser: 1000,
      runAsGroup: 1000,
      // As upstream: no sidecar (metacontroller calls the hook in plain HTTP).
      istioSidecar: false,
      volumes: [{ name: 'hooks', configMap: { name: `${NAME}-code` } }],
      volumeMounts: [{ name: 'hooks', mountPath: '/hooks', readOnly: true }],
    });

    // What the hook returns, and so what metacontroller creates and updates for it.
    const attachments = [
      { apiVersion: 'v1', resource: 'secrets', updateStrategy: { method: 'OnDelete' as const } },
      { apiVersion: 'v1', resource: 'configmaps', updateStrategy: { method: 'OnDelete' as const } },
      { apiVersion: 'apps/v1', resource: 'deployments', updateStrategy: { method: 'InPlace' as const } },
      { apiVersion: 'v1', resource: 'services', updateStrategy: { method: 'InPlace' as const } },
    ];
    this.childRules = [Rbac.manage('', 'configmaps', 'secrets', 'services'), Rbac.manage('apps', 'deployments')];
    this.decorator = new DecoratorController(this, 'DecoratorController', {
      metadata: { name: NAME, labels },
      spec: {
        resyncPeriodSeconds: 3600,
        resources: [{ apiVersion: 'v1', resource: 'namespaces', labelSelector: { matchLabels: { ...PIPELINES_ENABLED_LABEL } } }],
        attachments,
        hooks: { sync: { webhook: { url: `http://${NAME}.${ns}/sync` } } },
      },
    });
  }
}
