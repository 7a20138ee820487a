import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/**
 * The metacontroller CRDs (metacontroller.k8s.io/v1alpha1) that Kubeflow Pipelines'
 * multi-user install ships: its per-profile provisioning is a DecoratorController hook.
 */
export const METACONTROLLER_GROUP = 'metacontroller.k8s.io';

const annotations = { 'api-approved.kubernetes.io': 'unapproved, request not yet submitted', 'controller-gen.kubebuilder.io/version': 'v0.21.0' };

const nsRef = (extra: Record<string, ReturnType<typeof s.string>> = {}) => s.object({ name: s.string().required(), namespace: s.string().required(), ...extra }).named('NamespacedRef');

const auth = {
  authorization: s.object({
    type: s.string().default('Bearer'),
    secretRef: s.object({ name: s.string().required(), namespace: s.string().required(), key: s.string().required() }).required().named('SecretKeyRef'),
  }).named('Authorization'),
  basicAuth: s.object({
    secretRef: nsRef().required(),
    usernameKey: s.string().default('username'),
    passwordKey: s.string().default('password'),
  }).named('BasicAuth'),
  caBundle: s.object({
    inline: s.string().describe('PEM bundle.'),
    configMapRef: nsRef({ key: s.string().default('ca.crt') }),
    secretRef: nsRef({ key: s.string().default('ca.crt') }),
  }).named('CABundle'),
  clientTLS: s.object({
    secretRef: nsRef().required(),
    certKey: s.string().default('tls.crt'),
    privateKeyKey: s.string().default('tls.key'),
  }).named('ClientTLS'),
};

/** Where metacontroller calls a hook: a URL, or a Service path, with its credentials. */
const webhook = s.object({
  url: s.string(),
  path: s.string(),
  timeout: s.string({ format: 'duration' }),
  service: s.object({ name: s.string().required(), namespace: s.string().required(), port: s.int32(), protocol: s.string() }).named('ServiceReference'),
  etag: s.object({ enabled: s.boolean(), cacheTimeoutSeconds: s.int32(), cacheCleanupSeconds: s.int32() }).named('Etag'),
  responseUnMarshallMode: s.enum('loose', 'strict'),
  ...auth,
}).named('Webhook');

const hook = () => s.object({ version: s.enum('v1', 'v2').default('v1'), webhook }).named('Hook');

const endpointConfigs = s.array(s.object({ host: s.string().required(), ...auth }).named('EndpointConfig'));
const method = s.enum('OnDelete', 'Recreate', 'InPlace', 'RollingRecreate', 'RollingInPlace');

export const compositeControllerCrd: CrdDefinition = {
  group: METACONTROLLER_GROUP,
  kind: 'CompositeController',
  plural: 'compositecontrollers',
  shortNames: ['cc', 'cctl'],
  scope: CrdScope.CLUSTER,
  annotations,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        parentResource: s.object({
          apiVersion: s.string().required(),
          resource: s.string().required(),
          labelSelector: plainCore('V1LabelSelector'),
          ignoreStatusChanges: s.boolean(),
          revisionHistory: s.object({ fieldPaths: s.array(s.string()) }).named('RevisionHistory'),
        }).required().named('ParentResourceRule'),
        childResources: s.array(s.object({
          apiVersion: s.string().required(),
          resource: s.string().required(),
          updateStrategy: s.object({
            method,
            statusChecks: s.object({
              conditions: s.array(s.object({ type: s.string().required(), status: s.string(), reason: s.string() }).named('StatusCondition')),
            }).named('StatusChecks'),
          }).named('ChildUpdateStrategy'),
        }).named('ChildResourceRule')),
        hooks: s.object({ sync: hook(), finalize: hook(), customize: hook(), preUpdateChild: hook(), postUpdateChild: hook() }).named('CompositeHooks'),
        generateSelector: s.boolean(),
        resyncPeriodSeconds: s.int32(),
        endpointConfigs,
      }).required().named('CompositeControllerSpec'),
      status: s.object(),
    }),
  }],
};

export const decoratorControllerCrd: CrdDefinition = {
  group: METACONTROLLER_GROUP,
  kind: 'DecoratorController',
  plural: 'decoratorcontrollers',
  shortNames: ['dec', 'decorators'],
  scope: CrdScope.CLUSTER,
  annotations,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        resources: s.array(s.object({
          apiVersion: s.string().required(),
          resource: s.string().required(),
          labelSelector: plainCore('V1LabelSelector'),
          annotationSelector: s.object({
            matchAnnotations: s.stringMap(),
            matchExpressions: s.array(s.object({ key: s.string().required(), operator: s.string().required(), values: s.array(s.string(), { listType: 'atomic' }) }).named('AnnotationSelectorRequirement')),
          }).named('AnnotationSelector'),
          ignoreStatusChanges: s.boolean(),
        }).named('DecoratorResourceRule')).required(),
        attachments: s.array(s.object({
          apiVersion: s.string().required(),
          resource: s.string().required(),
          updateStrategy: s.object({ method }).named('DecoratorAttachmentUpdateStrategy'),
        }).named('DecoratorAttachmentRule')),
        hooks: s.object({ sync: hook(), finalize: hook(), customize: hook() }).named('DecoratorHooks'),
        resyncPeriodSeconds: s.int32(),
        endpointConfigs,
      }).required().named('DecoratorControllerSpec'),
      status: s.object(),
    }),
  }],
};

/** A revision of a CompositeController's children, as metacontroller records them. */
export const controllerRevisionCrd: CrdDefinition = {
  group: METACONTROLLER_GROUP,
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  scope: CrdScope.NAMESPACED,
  annotations,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      parentPatch: s.object({}, { preserveUnknownFields: true }).required(),
      children: s.array(s.object({ apiGroup: s.string().required(), kind: s.string().required(), names: s.array(s.string()).required() }).named('ControllerRevisionChildren')),
    }),
  }],
};

/** The three metacontroller CRDs KFP's multi-user install ships. */
export const METACONTROLLER_CRDS: CrdDefinition[] = [compositeControllerCrd, controllerRevisionCrd, decoratorControllerCrd];
