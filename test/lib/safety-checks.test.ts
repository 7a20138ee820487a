import { ApiObject } from 'cdk8s';
import { container, largeWidgetDef, manager, NOT_OWN_PODS, NS, POD_RULE, rawDeployment, SAFETY_CASES, server } from './safety-cases';
import { build, newPlatform, problemsOf, RESTRICTED_POD, TestComponent, widgetDef } from './support';
import { podSecurityViolations, unpinnedImage } from '../../lib/checks';
import { Platform, PlatformProps } from '../../lib/platform';
import { Rbac, roleObject } from '../../lib/rbac';
import { securityExceptionLines } from '../../lib/report';
import { declareSecurityExceptions } from '../../lib/security';
import { SERVER_SIDE_APPLY_BYTES } from '../../lib/synth';
import { excludingNamespaces } from '../../lib/webhook-server';
import { Workload } from '../../lib/workload';

function platformWith(body: (c: TestComponent) => void, props: Partial<PlatformProps> = {}): Platform {
  const platform = newPlatform(props);
  new TestComponent(platform, 'test', NS, (self) => {
    self.namespaceObject();
    body(self);
  });
  return platform;
}

const problems = (body: (c: TestComponent) => void, props: Partial<PlatformProps> = {}) => problemsOf(platformWith(body, props));

describe('safety rules fire', () => {
  test.each(SAFETY_CASES.filter((c) => !c.warnings).map((c) => [c.rule, c.what, c] as const))('%s fires for %s', (_rule, _what, c) => {
    expect(problems(c.body, c.platform)).toEqual(c.expected);
  });

  test('MLP041 warns about a Secret a workload reads that nothing emits or declares; synth succeeds with the warning in REPORT.md', () => {
    const c = SAFETY_CASES.find((x) => x.rule === 'MLP041')!;
    const b = build(platformWith(c.body));
    expect(b.warnings.map((w) => [w.rule, w.severity, w.message])).toEqual(c.warnings!.map((m) => ['MLP041', 'warning', m]));
    expect(b.files.get('REPORT.md')).toContain(`- [MLP041] ${b.warnings[0].path}: ${c.warnings![0]}\n`);
  });

  test('MLP055 warns about a CRD over 256 KiB, and synth still succeeds with the warning in REPORT.md', () => {
    const b = build(platformWith((c) => c.crd(largeWidgetDef())));
    const crd = b.model.objects.find((o) => o.json.kind === 'CustomResourceDefinition')!;
    const size = JSON.stringify(crd.json).length;
    expect(size).toBeGreaterThan(SERVER_SIDE_APPLY_BYTES);
    const message = `CRD widgets.example.com is ${size} bytes, over the 262144 of kubectl's last-applied annotation: apply it with kubectl apply --server-side (Argo CD: ServerSideApply=true)`;
    expect(b.warnings).toEqual([{ rule: 'MLP055', severity: 'warning', path: 'p/test/Widget/Resource', message }]);
    expect(b.largeCrds).toEqual(['widgets.example.com']);
    expect(b.files.get('REPORT.md')).toContain(`## Warnings\n\nChecks that do not fail synth:\n\n- [MLP055] p/test/Widget/Resource: ${message}\n`);
  });

  test('a small CRD raises no warning', () => {
    const b = build(platformWith((c) => c.crd(widgetDef())));
    expect(b.warnings).toEqual([]);
    expect(b.files.get('REPORT.md')).toContain('## Warnings\n\nNo warnings.\n');
  });
});

describe('safety rules pass', () => {
  test('a Controller and a Workload with the framework defaults pass every safety rule', () => {
    expect(problems((c) => {
      manager(c, { ports: {} });
      new Workload(c, 'Ui', { name: 'widget-ui', image: c.image('manager'), selectorLabels: { app: 'widget-ui' } });
    })).toEqual([]);
  });

  test('MLP050: a hostPath declared with a reason on the Controller passes and is listed in REPORT.md', () => {
    const reason = 'the agent caches models on the node disk';
    const b = build(platformWith((c) => {
      manager(c, { ports: {}, volumes: [{ name: 'host', hostPath: { path: '/var/lib/widgets' } }], volumeMounts: [{ name: 'host', mountPath: '/data' }], securityExceptions: [{ check: 'hostPath', reason }] });
    }));
    expect(securityExceptionLines(b.model)).toEqual([`Deployment test-system/widget-controller: hostPath: ${reason}`]);
    expect(b.files.get('REPORT.md')).toContain(`## Safety exceptions\n\nEvery pod passes Pod Security "restricted", RBAC has no wildcards and fail-closed webhooks on built-in kinds skip kube-system and their own namespace, except (with upstream's reason):\n\n- Deployment test-system/widget-controller: hostPath: ${reason}\n`);
  });

  test('MLP050: an exception covers only the check it names', () => {
    expect(problems((c) => {
      manager(c, { ports: {}, volumes: [{ name: 'host', hostPath: { path: '/x' } }], securityExceptions: [{ check: 'hostNetwork', reason: 'not the one' }] });
    })).toHaveLength(1);
  });

  test('MLP050: declareSecurityExceptions excuses a hand-written DaemonSet', () => {
    expect(problems((c) => {
      const d = rawDeployment(c, 'agent', { securityContext: RESTRICTED_POD, containers: [container('agent', 'example/agent:v1')], volumes: [{ name: 'h', hostPath: { path: '/x' } }] });
      declareSecurityExceptions(d, [{ check: 'hostPath', reason: 'node cache' }]);
    })).toEqual([]);
  });

  test('MLP050: a container-level seccompProfile and runAsNonRoot pass without a pod-level one', () => {
    expect(podSecurityViolations({
      containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }, runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } } }],
      volumes: [{ name: 'a', emptyDir: {} }, { name: 'b', projected: { sources: [] } }, { name: 'c', csi: { driver: 'x' } }, { name: 'd', ephemeral: {} }],
    })).toEqual(new Map());
  });

  test('MLP050: runAsNonRoot false on a container fails even when the pod sets true', () => {
    const v = podSecurityViolations({ securityContext: RESTRICTED_POD, containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: false } }] });
    expect([...v.keys()]).toEqual(['runAsNonRoot']);
  });

  test('MLP050: a seccompProfile Unconfined on the pod fails', () => {
    const v = podSecurityViolations({ securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Unconfined' } }, containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] });
    expect(v.get('seccompProfile')).toEqual(['pod seccompProfile Unconfined']);
  });

  test("MLP051: a role with '*' declared with a reason passes and is listed in REPORT.md", () => {
    const b = build(platformWith((c) => {
      roleObject(c, 'Admin', { name: 'widget-admin', rules: [{ apiGroups: ['example.com'], resources: ['*'], verbs: ['*'] }], securityExceptions: [{ check: 'wildcardRbac', reason: 'upstream manages arbitrary kinds of its group' }] });
    }));
    expect(securityExceptionLines(b.model)).toEqual(['ClusterRole widget-admin: wildcardRbac: upstream manages arbitrary kinds of its group']);
  });

  test("MLP051: a Controller's declared wildcard reaches its ClusterRole, which carries the exception", () => {
    const b = build(platformWith((c) => {
      manager(c, { ports: {}, rules: [{ apiGroups: ['example.com'], resources: ['*'], verbs: ['get', 'list', 'watch'] }], securityExceptions: [{ check: 'wildcardRbac', reason: 'watches every kind of its group' }] });
    }));
    const role = b.model.objects.find((o) => o.json.kind === 'ClusterRole' && o.json.metadata.name === 'widget-controller-role')!;
    expect(role.json.rules).toContainEqual({ apiGroups: ['example.com'], resources: ['*'], verbs: ['get', 'list', 'watch'] });
    expect(securityExceptionLines(b.model)).toEqual(['ClusterRole widget-controller-role: wildcardRbac: watches every kind of its group']);
  });

  test('MLP052: tags, registry ports and digests that are pinned', () => {
    expect(unpinnedImage('example/app:v1.2.3')).toBeUndefined();
    expect(unpinnedImage('localhost:5000/app:v1')).toBeUndefined();
    expect(unpinnedImage(`quay.io/org/app@sha256:${'0'.repeat(64)}`)).toBeUndefined();
    expect(unpinnedImage(`quay.io/org/app:v1@sha256:${'0'.repeat(64)}`)).toBeUndefined();
    expect(unpinnedImage('localhost:5000/app')).toBe('it has no tag or digest');
    expect(unpinnedImage('app:-bad')).toBe("tag '-bad' is malformed");
  });

  test('MLP053: excludingNamespaces on the pod webhook passes', () => {
    expect(problems((c) => {
      server(c).addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE, objectSelector: NOT_OWN_PODS, namespaceSelector: excludingNamespaces(['kube-system', NS]) });
    })).toEqual([]);
  });

  test('MLP053: an opt-in webhook (its objectSelector requires a label) passes; one that only excludes labels does not', () => {
    expect(problems((c) => {
      server(c).addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE, objectSelector: { matchLabels: { 'example.com/inject': 'true' } } });
    })).toEqual([]);
    expect(problems((c) => {
      server(c).addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE, objectSelector: { matchExpressions: [{ key: 'example.com/skip', operator: 'DoesNotExist' }] } });
    }).map((p) => p.split(':')[0])).toContain('[MLP053] p/test/Webhooks/Mutating-pod-defaulter');
  });

  test('MLP053: a declared exception on the webhook passes and is listed with the webhook name', () => {
    const b = build(platformWith((c) => {
      server(c).addMutatingWebhook('pod-defaulter', {
        name: 'pods.example.com',
        path: '/mutate',
        rules: POD_RULE,
        objectSelector: NOT_OWN_PODS,
        securityExceptions: [{ check: 'webhookNamespaces', reason: 'must see every pod it labels' }],
      });
    }));
    expect(securityExceptionLines(b.model)).toEqual(['MutatingWebhookConfiguration pod-defaulter (webhook pods.example.com): webhookNamespaces: must see every pod it labels']);
  });

  test('MLP053: fail-closed webhooks on the platform\'s own custom resources, and fail-open ones on pods, are not flagged', () => {
    expect(problems((c) => {
      c.crd(widgetDef());
      const srv = server(c);
      srv.addValidatingWebhook('widget-validator', { name: 'vwidget.example.com', path: '/validate', rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] });
      srv.addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE, objectSelector: NOT_OWN_PODS, failurePolicy: 'Ignore' });
    })).toEqual([]);
  });

  test('MLP053 does not repeat MLP022: a webhook on its own backend\'s pods is reported once for that, and for kube-system', () => {
    const found = problems((c) => server(c).addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE }));
    expect(found.map((p) => p.slice(0, 8))).toEqual(['[MLP022]', '[MLP053]']);
    expect(found[1]).toContain('intercepts pods in namespace kube-system: ');
  });
});

describe('safety exceptions: bad input', () => {
  test('fails when an exception names an unknown check', () => {
    expect(() => platformWith((c) => manager(c, { ports: {}, securityExceptions: [{ check: 'hostpath' as any, reason: 'x' }] })))
      .toThrow(/^p\/test\/Manager: securityExceptions: 'hostpath' does not apply here; use one of hostPath, hostNetwork, hostPID, hostIPC, hostPorts, privileged, runAsNonRoot, allowPrivilegeEscalation, capabilities, seccompProfile, volumeTypes, wildcardRbac$/);
  });

  test('fails when an exception has no reason', () => {
    expect(() => platformWith((c) => manager(c, { ports: {}, securityExceptions: [{ check: 'hostPath', reason: ' ' }] })))
      .toThrow(new Error("p/test/Manager: securityExceptions: the exception for 'hostPath' has no reason; say why upstream needs it"));
  });

  test("fails when a role uses '*' without a declared exception", () => {
    expect(() => platformWith((c) => roleObject(c, 'Admin', { name: 'a', rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['*'] }] })))
      .toThrow(new Error('p/test/Admin: RBAC rule {"apiGroups":["example.com"],"resources":["widgets"],"verbs":["*"]} uses \'*\' in verbs; list the verbs the controller needs, or declare securityExceptions: [{ check: \'wildcardRbac\', reason: \'...\' }] with upstream\'s reason'));
  });

  test('fails when a webhook declares a pod exception', () => {
    expect(() => platformWith((c) => server(c).addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE, securityExceptions: [{ check: 'hostPath', reason: 'x' }] })))
      .toThrow(new Error("p/test/Webhooks: webhook 'pods.example.com': securityExceptions: 'hostPath' does not apply here; use one of webhookNamespaces"));
  });

  test('fails when declareSecurityExceptions is given an unknown check', () => {
    expect(() => platformWith((c) => declareSecurityExceptions(new ApiObject(c, 'X', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: NS } }), [{ check: 'nope' as any, reason: 'r' }])))
      .toThrow(/^p\/test\/X: securityExceptions: unknown check 'nope'; use one of hostPath, .*, webhookNamespaces$/);
  });

  test('Rbac helpers never produce wildcards', () => {
    expect(JSON.stringify([Rbac.read('a', 'b'), Rbac.manage('a', 'b'), ...Rbac.own('a', 'b')])).not.toContain('"*"');
  });
});
