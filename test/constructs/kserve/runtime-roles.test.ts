import { App } from 'cdk8s';
import { RBAC_LEFT_OUT } from '../../../constructs/kserve/rbac';
import { PlatformError } from '../../../lib/platform';
import { PolicyRule, uncoveredRules } from '../../../lib/rbac';
import { buildPlatform } from '../../../lib/synth';
import { ServingPlatform, ServingPlatformProps } from '../../../platforms/serving';

const serving = (props: ServingPlatformProps = {}) => new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving', props);
const built = buildPlatform(serving());
const llmisvc = built.model.platform.node.findAll().find((c) => (c as { name?: string }).name === 'llmisvc-controller-manager' && 'grants' in c) as unknown as { grants: Array<{ kind: string; name: string; rules?: PolicyRule[] }> };
const clusterRole = built.model.objects.find((o) => o.json.kind === 'ClusterRole' && o.json.metadata.name === 'llmisvc-controller-manager-role')!.json;

/** What the scheduler's Role grants on the inference extension's groups (scheduler.go at v0.20.0), whether or not a CRD serves it. */
const EPP_INFERENCE_READS: PolicyRule[] = [
  { apiGroups: ['inference.networking.k8s.io'], resources: ['inferencemodels', 'inferenceobjectives', 'inferencepools'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferencemodelrewrites', 'inferencemodels', 'inferenceobjectives', 'inferencepoolimports', 'inferencepools'], verbs: ['get', 'list', 'watch'] },
];

describe('KServe v0.20.0: what the LLMInferenceService controller creates at run time', () => {
  test('KSERVE-EPP-ROLE: the controller holds every rule of the <llmisvc>-epp-role it creates for the scheduler, inferencemodels included', () => {
    const epp = llmisvc.grants.find((g) => g.name === '<llmisvc>-epp-role');
    expect(epp?.kind).toBe('Role');
    // The Role is declared with upstream's rules, the ones on resources no CRD serves included.
    expect(uncoveredRules(epp!.rules!, EPP_INFERENCE_READS)).toEqual([]);
    // Its ServiceAccount holds them, so the API server's escalation check lets it create the Role.
    expect(uncoveredRules(clusterRole.rules, epp!.rules!)).toEqual([]);
    expect(uncoveredRules(clusterRole.rules, EPP_INFERENCE_READS)).toEqual([]);
    // And no left-out entry takes away a verb the Role grants ("no such resources" was false: the check does not ask).
    const left = RBAC_LEFT_OUT.filter((l) => l.serviceAccount === 'llmisvc-controller-manager' && l.group.startsWith('inference.networking'));
    for (const l of left) expect([l.group, l.verbs?.filter((v) => ['get', 'list', 'watch'].includes(v)) ?? 'every verb']).toEqual([l.group, []]);
  });

  test('every role and binding of scheduler.go and the workloads is declared', () => {
    expect(llmisvc.grants.map((g) => `${g.kind} ${g.name}`)).toEqual([
      'Role <llmisvc>-epp-role', 'RoleBinding <llmisvc>-epp-rb', 'ClusterRoleBinding <namespace>-<llmisvc>-epp-auth-rb',
      'Role <llmisvc>-kserve-role', 'RoleBinding <llmisvc>-kserve-rb', 'Role <llmisvc>-kserve-mn-role', 'RoleBinding <llmisvc>-kserve-mn-rb',
    ]);
  });

  test('a patch that narrows the controller\'s ClusterRole below the Role fails synth with MLP031, naming component, ServiceAccount, Role and rule', () => {
    const rules = (clusterRole.rules as PolicyRule[]).map((r) => (r.apiGroups?.includes('inference.networking.k8s.io')
      ? { ...r, resources: r.resources!.filter((x) => x !== 'inferencemodels') }
      : r));
    let problems: string[] = [];
    try {
      buildPlatform(serving({ patches: [{ target: { kind: 'ClusterRole', name: 'llmisvc-controller-manager-role' }, ops: [{ op: 'replace', path: '/rules', value: rules }] }] }));
    } catch (e) {
      if (!(e instanceof PlatformError)) throw e;
      problems = e.problems;
    }
    // The controller's rules merge both groups' reads into one rule: the patch drops inferencemodels of both.
    const lacking = ['inference.networking.k8s.io', 'inference.networking.x-k8s.io'].flatMap((g) => ['get', 'list', 'watch'].map((v) => `${v} inferencemodels (${g})`)).join('; ');
    const any = 'which it does not hold cluster-wide (it creates it in the namespace of the object it serves, any namespace)';
    const fix = 'Keep the %s in the Controller\'s grants (the rules of roles, and of bindings that carry them, are derived from them), grant what it lacks in the component\'s RBAC, and do not leave it out or patch it away';
    expect(problems).toEqual([
      '[MLP031] serving/kserve/LLMInferenceServiceController: component kserve: controller llmisvc-controller-manager creates Role <llmisvc>-epp-role at run time ' +
        '(per LLMInferenceService with a managed scheduler, for the endpoint picker (scheduler.go expectedSchedulerRole)) as ServiceAccount kserve/llmisvc-controller-manager, ' +
        `and the API server refuses it: it grants ${lacking}, ${any}, nor escalate on roles. ${fix.replace('%s', 'Role')}`,
      '[MLP031] serving/kserve/LLMInferenceServiceController: component kserve: controller llmisvc-controller-manager creates RoleBinding <llmisvc>-epp-rb at run time ' +
        '(per LLMInferenceService with a managed scheduler, binding the endpoint picker\'s ServiceAccount (scheduler.go expectedSchedulerRoleBinding)) as ServiceAccount kserve/llmisvc-controller-manager, ' +
        `and the API server refuses it: it binds Role <llmisvc>-epp-role, granting ${lacking}, ${any}, nor bind on roles/<llmisvc>-epp-role. ${fix.replace('%s', 'RoleBinding')}`,
    ]);
  });
});
