import { isBuiltinKind, validateBuiltin } from '../../../lib/validation';

/** A CustomResourceDefinition of kind Model in serving.example.com with the versions given. */
const modelCrd = (versions: unknown[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'models.serving.example.com' },
  spec: { group: 'serving.example.com', scope: 'Namespaced', names: { kind: 'Model', plural: 'models' }, versions },
});

function deployment(): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'ml', labels: { 'app.kubernetes.io/name': 'web' }, annotations: { 'example.com/owner': 'team a' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'web' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'web' } },
        spec: {
          containers: [{
            name: 'web',
            image: 'nginx:1.27',
            imagePullPolicy: 'IfNotPresent',
            ports: [{ containerPort: 80, name: 'http' }],
            resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: 1, memory: '1Gi' } },
            readinessProbe: { httpGet: { path: '/', port: 'http' } },
          }],
          securityContext: { runAsNonRoot: true },
        },
      },
    },
  };
}

describe('validateBuiltin', () => {
  test('a valid Deployment passes', () => {
    expect(validateBuiltin(deployment())).toEqual([]);
  });

  test('null fields are treated as unset', () => {
    const d = deployment();
    d.metadata.creationTimestamp = null;
    d.status = {};
    expect(validateBuiltin(d)).toEqual([]);
  });

  test('a valid Service passes', () => {
    expect(validateBuiltin({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'ml' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'https', port: 443, targetPort: 8443 }] },
    })).toEqual([]);
  });

  test('a valid ValidatingWebhookConfiguration passes', () => {
    expect(validateBuiltin({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'inference-webhook' },
      webhooks: [{
        name: 'validate.serving.example.com',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Fail',
        clientConfig: { service: { name: 'webhook', namespace: 'ml', path: '/validate', port: 443 }, caBundle: 'Y2EK' },
        rules: [{ apiGroups: ['serving.example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['models'] }],
        namespaceSelector: { matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] },
      }],
    })).toEqual([]);
  });

  test('a valid CustomResourceDefinition passes', () => {
    expect(validateBuiltin({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'models.serving.example.com' },
      spec: {
        group: 'serving.example.com',
        scope: 'Namespaced',
        names: { kind: 'Model', plural: 'models', singular: 'model', listKind: 'ModelList' },
        versions: [{
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  'type': 'object',
                  'required': ['uri'],
                  'properties': {
                    uri: { type: 'string', minLength: 1 },
                    replicas: { type: 'integer', format: 'int32', minimum: 0, default: 1 },
                    port: { 'x-kubernetes-int-or-string': true },
                    tags: { 'type': 'array', 'items': { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    env: { type: 'object', additionalProperties: { type: 'string' } },
                    extra: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                  'x-kubernetes-validations': [{ rule: 'self.replicas >= 0', message: 'replicas must not be negative' }],
                },
                status: { type: 'object', additionalProperties: true },
              },
            },
          },
        }],
      },
    })).toEqual([]);
  });

  test('a ClusterRole name may contain a colon', () => {
    expect(validateBuiltin({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:model-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    })).toEqual([]);
  });

  test('fails when a Deployment has an unknown field', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].imagePullPolicyy = 'Always';
    expect(validateBuiltin(d)).toMatchObject([
      { path: 'spec.template.spec.containers[0].imagePullPolicyy', message: 'unknown field (did you mean imagePullPolicy?)' },
    ]);
  });

  test('fails when a field has the wrong type', () => {
    const d = deployment();
    d.spec.replicas = '3';
    expect(validateBuiltin(d)).toMatchObject([{ path: 'spec.replicas', message: 'expected integer, got "3"' }]);
  });

  test('fails when a required field is missing (container without name)', () => {
    const d = deployment();
    delete d.spec.template.spec.containers[0].name;
    expect(validateBuiltin(d)).toMatchObject([{ path: 'spec.template.spec.containers[0].name', message: 'required field is missing' }]);
  });

  test('fails when metadata.name is missing', () => {
    const d = deployment();
    delete d.metadata.name;
    expect(validateBuiltin(d)).toMatchObject([{ path: 'metadata.name', message: 'required field is missing' }]);
  });

  test('fails when a label value is bad', () => {
    const d = deployment();
    d.spec.template.metadata.labels.tier = 'front end';
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'spec.template.metadata.labels.tier',
      message: 'label value "front end" is not valid: expected a label value (empty, or at most 63 characters: letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit)',
    }]);
  });

  test('fails when a label key is bad', () => {
    const d = deployment();
    d.metadata.labels['Example.com/name'] = 'x';
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'metadata.labels["Example.com/name"]',
      message: 'label key "Example.com/name" is not valid: expected a key of an optional DNS subdomain prefix and \'/\', then a name of at most 63 characters (letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit)',
    }]);
  });

  test('fails when a name is not a DNS subdomain', () => {
    const d = deployment();
    d.metadata.name = 'Web_App';
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'metadata.name',
      message: '"Web_App" is not a valid name: expected a DNS subdomain (at most 253 characters: lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit)',
    }]);
  });

  test('fails when a Service name is not a DNS label', () => {
    const issues = validateBuiltin({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web.api' }, spec: { ports: [{ port: 80 }] } });
    expect(issues).toMatchObject([{
      path: 'metadata.name',
      message: '"web.api" is not a valid name: expected a DNS label (at most 63 characters: lowercase letters, digits and \'-\', starting and ending with a letter or digit)',
    }]);
  });

  test('fails when an int32 overflows', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].readinessProbe.httpGet.port = 2147483648;
    d.spec.template.spec.containers[0].readinessProbe.failureThreshold = 2147483648;
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'spec.template.spec.containers[0].readinessProbe.failureThreshold',
      message: 'expected a number at least 0, got 2147483648',
      rule: 'K8S-RANGE',
    }, {
      path: 'spec.template.spec.containers[0].readinessProbe.httpGet.port',
      message: 'expected a number from 1 to 65535, got 2147483648',
      rule: 'K8S-RANGE',
    }]);
  });

  test('fails when a quantity does not match the pattern', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].resources.limits.memory = '1 GB';
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'spec.template.spec.containers[0].resources.limits.memory',
      message: 'expected a quantity such as 500m, 2Gi or 1.5, got "1 GB"',
    }]);
  });

  test('fails when an int-or-string is neither', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].readinessProbe.httpGet.port = true;
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'spec.template.spec.containers[0].readinessProbe.httpGet.port',
      message: 'expected integer or string, got true',
    }]);
  });

  test('fails when list-map keys repeat', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].ports.push({ containerPort: 80, protocol: 'TCP' });
    expect(validateBuiltin(d)).toMatchObject([{
      path: 'spec.template.spec.containers[0].ports[1]',
      message: 'duplicate entry with containerPort=80, protocol="TCP" (same as item 0); entries must be unique by containerPort, protocol',
    }]);
  });

  test('list-map keys are compared whole, not as the message shortens them', () => {
    // Two webhooks whose names share a long prefix (KServe's defaulter and pod-mutator).
    const hook = (name: string) => ({ name, admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { service: { name: 's', namespace: 'n' } } });
    const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [hook('inferenceservice.kserve-webhook-server.defaulter'), hook('inferenceservice.kserve-webhook-server.pod-mutator')] };
    expect(validateBuiltin(config)).toEqual([]);
    config.webhooks.push(hook('inferenceservice.kserve-webhook-server.defaulter'));
    expect(validateBuiltin(config).map((i) => i.path)).toContain('webhooks[2]');
  });

  test('fails when a CRD schema has a misspelt keyword', () => {
    const issues = validateBuiltin(modelCrd([
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { 'type': 'object', 'x-kubernetes-preserve-unknown-field': true } } } } },
    ]));
    expect(issues).toMatchObject([{
      path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-preserve-unknown-field',
      message: 'unknown field (did you mean x-kubernetes-preserve-unknown-fields?)',
    }]);
  });

  test('the schemas of a CRD: a valid one gives no issue, a field of the wrong type anywhere in one does', () => {
    const crd = (schema: any, other: any = { type: 'object' }): any => modelCrd([
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } },
      { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: other } },
    ]);
    const node = (leaf: any): any => ({
      type: 'object',
      properties: {
        spec: {
          'type': 'object',
          'required': ['size'],
          'properties': { size: { type: 'integer', maximum: 10 }, tags: { 'type': 'array', 'items': leaf, 'x-kubernetes-list-type': 'set' } },
          'x-kubernetes-validations': [{ rule: 'self.size > 0', message: 'positive' }],
        },
        status: { 'type': 'object', 'additionalProperties': { type: 'string' }, 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
    expect(validateBuiltin(crd(node({ type: 'string', maxLength: 63, enum: ['a', 'b'] })))).toEqual([]);
    expect(validateBuiltin(crd(node({ type: 'string', maxLength: '63' })))).toEqual([
      { path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.items.maxLength', message: 'expected integer, got "63"' },
    ]);
    expect(validateBuiltin(crd(node({ type: 'string', maxLength: 2 ** 64 })))).toEqual([
      { rule: 'K8S-RANGE', path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.items.maxLength', message: 'expected an int64, got 18446744073709552000' },
    ]);
    expect(validateBuiltin(crd({ type: 'object' }, node({ 'type': 'string', 'x-kubernetes-validations': [{ message: 'no rule' }] })))).toEqual([
      { path: 'spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.tags.items.x-kubernetes-validations[0].rule', message: 'required field is missing' },
    ]);
    expect(validateBuiltin(crd(node({ type: 'string', additionalProperties: 'no' })))).toEqual([
      { path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.items.additionalProperties', message: 'expected boolean or object, got "no"' },
      { path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags.items.additionalProperties', message: 'expected object, got "no"' },
    ]);
  });

  test('fails when the kind is unknown', () => {
    expect(validateBuiltin({ apiVersion: 'v1', kind: 'Endpointz', metadata: { name: 'x' } })).toMatchObject([
      { path: '', message: 'no schema for Endpointz in v1: not among the built-in kinds this validator knows' },
    ]);
    // VolumeAttributesClass is beta in v1.32 (GA in v1.34).
    expect(validateBuiltin({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name: 'x' } })).toMatchObject([
      { path: '', message: 'no schema for VolumeAttributesClass in storage.k8s.io/v1: not among the built-in kinds this validator knows', rule: 'K8S-UNKNOWN-KIND' },
    ]);
  });

  test('isBuiltinKind knows the table', () => {
    expect(isBuiltinKind('apps/v1', 'Deployment')).toBe(true);
    expect(isBuiltinKind('autoscaling/v2', 'HorizontalPodAutoscaler')).toBe(true);
    expect(isBuiltinKind('apiregistration.k8s.io/v1', 'APIService')).toBe(true);
    expect(isBuiltinKind('serving.kserve.io/v1beta1', 'InferenceService')).toBe(false);
  });
});
