import { App } from 'cdk8s';
import { build, pinnable, problemsOf } from './helpers';
import { GatewayApiInferenceExtensionVersion } from '../../constructs/gateway-api-inference-extension';
import { KServe } from '../../constructs/kserve';
import { CertificateProvider } from '../../lib/certificates';
import { CERT_MANAGER } from '../../lib/component';
import { Platform } from '../../lib/platform';
import { applyOrder, objectCounts, wiringTable } from '../../lib/report';
import { ServingPlatform } from '../../platforms/serving';

const serving = build((app) => new ServingPlatform(app, 'serving'));
const objects = serving.model.objects.map((o) => o.json);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);

describe('serving platform', () => {
  test('writes each apply phase as the first path segment', () => {
    expect([...serving.files.keys()]).toEqual([
      '00-foundation/00-namespaces.yaml',
      '00-foundation/gateway-api-inference-extension.yaml',
      '00-foundation/kserve.yaml',
      '10-controllers/kserve.yaml',
      '20-webhooks/kserve.yaml',
      '30-resources/kserve.yaml',
      'REPORT.md',
      'kustomization.yaml',
    ]);
  });

  test('orders the extension before KServe, which requires its kinds', () => {
    expect(serving.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'kserve']);
  });

  test('emits the 12 KServe CRDs and the 5 inference extension CRDs of the v1.4 line, and no bundled copies', () => {
    const crds = ofKind('CustomResourceDefinition').map((c) => c.metadata.name);
    expect(crds.filter((n) => n.endsWith('serving.kserve.io'))).toHaveLength(12);
    expect(crds.filter((n) => n.includes('inference.networking'))).toEqual([
      'inferencepools.inference.networking.k8s.io',
      'inferencepools.inference.networking.x-k8s.io',
      'inferenceobjectives.inference.networking.x-k8s.io',
      'inferencemodelrewrites.inference.networking.x-k8s.io',
      'inferencepoolimports.inference.networking.x-k8s.io',
    ]);
    expect(new Set(crds).size).toBe(crds.length);
  });

  test('wires the LLMInferenceService conversion webhooks to the llmisvc webhook service with CA injection', () => {
    for (const name of ['llminferenceservices.serving.kserve.io', 'llminferenceserviceconfigs.serving.kserve.io']) {
      const crd = ofKind('CustomResourceDefinition').find((c) => c.metadata.name === name)!;
      expect(crd.spec.conversion).toEqual({
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { name: 'llmisvc-webhook-server-service', namespace: 'kserve', path: '/convert', port: 443 } },
          conversionReviewVersions: ['v1', 'v1beta1'],
        },
      });
      expect(crd.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kserve/llmisvc-serving-cert');
    }
  });

  test('ships every upstream webhook configuration: 10 configurations, 14 webhooks', () => {
    const configs = [...ofKind('ValidatingWebhookConfiguration'), ...ofKind('MutatingWebhookConfiguration')];
    expect(configs).toHaveLength(10);
    expect(configs.flatMap((c) => c.webhooks)).toHaveLength(14);
  });

  test('labels the kserve namespace so that the pod mutator never intercepts the controllers', () => {
    const ns = ofKind('Namespace').find((n) => n.metadata.name === 'kserve')!;
    expect(ns.metadata.labels['control-plane']).toBe('kserve-controller-manager');
  });

  test('runs three controllers and the node agent with the restricted pod security settings', () => {
    const workloads = [...ofKind('Deployment'), ...ofKind('DaemonSet')];
    expect(workloads.map((d) => d.metadata.name).sort()).toEqual([
      'kserve-controller-manager', 'kserve-localmodel-controller-manager', 'kserve-localmodelnode-agent', 'llmisvc-controller-manager',
    ]);
    for (const d of workloads) {
      const pod = d.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      for (const c of pod.containers) {
        expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true });
        expect(c.image).not.toMatch(/:latest$/);
      }
    }
  });

  test('no RBAC rule uses a wildcard', () => {
    for (const r of [...ofKind('ClusterRole'), ...ofKind('Role')].flatMap((x) => x.rules)) {
      expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
    }
  });

  test('flags the CRDs too large for client-side apply', () => {
    expect(serving.largeCrds.sort()).toEqual([
      'inferenceservices.serving.kserve.io',
      'llminferenceserviceconfigs.serving.kserve.io',
      'llminferenceservices.serving.kserve.io',
    ]);
  });

  test('webhook wiring', () => {
    expect(wiringTable(serving.model).join('\n')).toMatchSnapshot();
  });

  test('apply order', () => {
    expect(applyOrder(serving.model).join('\n')).toMatchSnapshot();
  });

  test('object counts by kind', () => {
    expect(objectCounts(serving.model)).toMatchSnapshot();
  });

  for (const component of ['gateway-api-inference-extension', 'kserve']) {
    test(`full output of ${component}`, () => {
      expect(serving.model.objects.filter((o) => o.component.componentName === component).map((o) => pinnable(o.json))).toMatchSnapshot();
    });
  }

  test('synthesizes byte-identical output twice', () => {
    const again = build((app) => new ServingPlatform(app, 'serving'));
    expect([...again.files.entries()]).toEqual([...serving.files.entries()]);
  });
});

describe('serving platform variants', () => {
  test('fails when the inference extension is removed, naming KServe, the missing kind and its provider', () => {
    const problems = problemsOf(() =>
      build((app) => {
        const p = new Platform(app, 'p', { name: 'serving', prerequisites: [CERT_MANAGER] });
        new KServe(p, 'kserve');
        return p;
      }),
    );
    expect(problems).toContain(
      "p/kserve: component 'kserve' (KServe) requires inference.networking.k8s.io/InferencePool (LLMInferenceService creates InferencePools for its router), " +
        "but no component of platform 'serving' provides it and no prerequisite declares it; add the GatewayApiInferenceExtension component to the platform, " +
        "or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool' }] }]",
    );
    expect(problems).toHaveLength(4);
  });

  test('KServe without LLMInferenceService needs no inference extension', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'kserve-only', prerequisites: [CERT_MANAGER] });
      new KServe(p, 'kserve', { llmInferenceService: false, localModel: false });
      return p;
    });
    expect(b.model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition')).toHaveLength(6);
  });

  test('fails when cert-manager is neither present nor provided', () => {
    const problems = problemsOf(() =>
      build((app) => {
        const p = new Platform(app, 'p', { name: 'serving' });
        new KServe(p, 'kserve', { llmInferenceService: false });
        return p;
      }),
    );
    expect(problems).toEqual([
      "p/kserve: component 'kserve' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    ]);
  });

  test('with the OpenShift service CA, webhooks get their CA from service-ca and no Certificate is emitted', () => {
    const b = build((app) => new ServingPlatform(app, 'serving', { certificates: CertificateProvider.openShiftServiceCa() }));
    expect(b.model.objects.filter((o) => o.json.apiVersion === 'cert-manager.io/v1')).toHaveLength(0);
    const table = wiringTable(b.model);
    expect(table.every((l) => l.includes('-> openshift service-ca ->'))).toBe(true);
    const svc = b.model.objects.find((o) => o.json.kind === 'Service' && o.json.metadata.name === 'kserve-webhook-server-service')!;
    expect(svc.json.metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'kserve-webhook-server-cert' });
  });

  test('a registry mirror rewrites every image', () => {
    const b = build((app) => new ServingPlatform(app, 'serving', { images: { registryMirror: 'mirror.example.com/ml' } }));
    const images = b.model.objects.flatMap((o) => (o.json.spec?.template?.spec?.containers ?? o.json.spec?.containers ?? []).map((c: any) => c.image));
    expect(images.length).toBeGreaterThan(10);
    for (const i of images) expect(i.startsWith('mirror.example.com/ml/')).toBe(true);
    expect(images).toContain('mirror.example.com/ml/kserve/kserve-controller:v0.20.0');
    expect(images).toContain('mirror.example.com/ml/nvidia/tritonserver:23.05-py3');
  });

  test('the v1.6 line of the extension ships two CRDs, so KServe with LLMInferenceService fails on the kinds that moved to llm-d', () => {
    const problems = problemsOf(() => build((app) => new ServingPlatform(app, 'serving', { inferenceExtension: { version: GatewayApiInferenceExtensionVersion.V1_6 } })));
    expect(problems.map((p) => p.replace(/ \(.*$/, ''))).toEqual([
      "serving/kserve: component 'kserve'",
      "serving/kserve: component 'kserve'",
      "serving/kserve: component 'kserve'",
    ]);
    expect(problems.join('\n')).toContain('requires inference.networking.x-k8s.io/InferenceObjective');
  });

  test('an inference pool gets its endpoint picker, wired by endpointPickerRef and validated against the pool CRD', () => {
    const b = build((app) => {
      const p = new ServingPlatform(app, 'serving');
      p.inferenceExtension.addInferencePool('Pool', { namespace: 'kserve', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000] });
      return p;
    });
    const pool = b.model.objects.find((o) => o.json.kind === 'InferencePool')!;
    expect(pool.phase).toBe('30-resources');
    expect(pool.json.spec.endpointPickerRef).toEqual({ group: '', kind: 'Service', name: 'epp-llama', port: { number: 9002 }, failureMode: 'FailClose' });
    const svc = b.model.objects.find((o) => o.json.kind === 'Service' && o.json.metadata.name === 'epp-llama')!;
    expect(svc.json.spec.ports[0]).toMatchObject({ port: 9002, targetPort: 'grpc' });
  });

  test('fails when an inference pool repeats a target port (the CRD CEL rule)', () => {
    const problems = problemsOf(() =>
      build((app) => {
        const p = new ServingPlatform(app, 'serving');
        p.inferenceExtension.addInferencePool('Pool', { namespace: 'kserve', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000, 8000] });
        return p;
      }),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\[MLP002\] serving\/gateway-api-inference-extension\/Pool: InferencePool llama: spec\.targetPorts: /);
  });

  test('fails when a KServe config override is invalid, naming the construct path and the prop', () => {
    expect(() => new ServingPlatform(new App(), 'serving', { kserve: { config: { deploy: { defaultDeploymentMode: 'Sideways' as any } } } })).toThrow(
      /^serving\/kserve: config: inferenceservice-config: deploy\.defaultDeploymentMode is "Sideways"/,
    );
  });

  test('fails when an unknown serving runtime is asked for', () => {
    expect(() => new ServingPlatform(new App(), 'serving', { kserve: { servingRuntimes: ['kserve-nope'] } })).toThrow(
      /^serving\/kserve: servingRuntimes: unknown runtime 'kserve-nope'; choose from kserve-/,
    );
  });
});
