import { CelInput, run } from '@bufbuild/cel';
import { CRDS, jobSetCrd } from '../../../constructs/jobset/crds';
import { CrdScope, crdName } from '../../../lib/crd';
import { at, celRules, schemaOf } from '../support/schema';

const root = schemaOf(jobSetCrd);
const spec = at(root, 'spec');

describe('JobSet CRD (v0.12.0)', () => {
  test('one namespaced CRD, jobsets.jobset.x-k8s.io, serving and storing v1alpha2 with status', () => {
    expect(CRDS.map(crdName)).toEqual(['jobsets.jobset.x-k8s.io']);
    expect(jobSetCrd.scope).toBe(CrdScope.NAMESPACED);
    expect(jobSetCrd.shortNames).toBeUndefined();
    expect(jobSetCrd.versions.map((v) => [v.name, v.served ?? true, v.storage])).toEqual([['v1alpha2', true, true]]);
    expect(jobSetCrd.versions[0].subresources).toEqual({ status: true });
  });

  test('converts through the webhook at /convert with review version v1, as upstream installs it', () => {
    expect(jobSetCrd.conversion).toEqual({ strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] });
  });

  test('printer columns: terminal state, restarts, completed, suspended, age', () => {
    expect(jobSetCrd.versions[0].printerColumns!.map((c) => `${c.name}:${c.type}:${c.jsonPath}`)).toEqual([
      'TerminalState:string:.status.terminalState',
      'Restarts:string:.status.restarts',
      'Completed:string:.status.conditions[?(@.type=="Completed")].status',
      'Suspended:string:.spec.suspend',
      'Age:date:.metadata.creationTimestamp',
    ]);
  });

  test('has the 8 CEL rules of the version: 6 immutable policies, the startup exclusion and the claim namespace rule', () => {
    const rules = celRules(root);
    expect(rules).toHaveLength(8);
    expect(rules.filter((r) => r.rule === 'self == oldSelf').map((r) => r.path).sort()).toEqual([
      'spec.failurePolicy', 'spec.network', 'spec.replicatedJobs.[].dependsOn', 'spec.startupPolicy', 'spec.successPolicy', 'spec.volumeClaimPolicies',
    ]);
  });

  test('startupPolicy InOrder and dependsOn are mutually exclusive', () => {
    const [rule] = spec['x-kubernetes-validations']!;
    const jobs = [{ name: 'a' }, { name: 'b', dependsOn: [{ name: 'a', status: 'Ready' }] }] as CelInput;
    expect(run(rule.rule, { self: { startupPolicy: { startupPolicyOrder: 'InOrder' }, replicatedJobs: jobs } })).toBe(false);
    expect(run(rule.rule, { self: { startupPolicy: { startupPolicyOrder: 'AnyOrder' }, replicatedJobs: jobs } })).toBe(true);
    expect(run(rule.rule, { self: { startupPolicy: { startupPolicyOrder: 'InOrder' }, replicatedJobs: [{ name: 'a' }] } })).toBe(true);
    expect(run(rule.rule, { self: { startupPolicy: { startupPolicyOrder: 'InOrder' } } })).toBe(true);
  });

  test('volume claim templates may not set a namespace', () => {
    const [rule] = at(spec, 'volumeClaimPolicies.[]')['x-kubernetes-validations']!;
    expect(run(rule.rule, { self: { templates: [{ metadata: { name: 'cache' } }] } })).toBe(true);
    expect(run(rule.rule, { self: { templates: [{ metadata: { name: 'cache', namespace: 'other' } }] } })).toBe(false);
    expect(run(rule.rule, { self: {} })).toBe(true);
  });

  test('replicated jobs are a list map by name with Job templates from the core table', () => {
    const jobs = at(spec, 'replicatedJobs');
    expect(jobs['x-kubernetes-list-type']).toBe('map');
    expect(jobs['x-kubernetes-list-map-keys']).toEqual(['name']);
    const item = at(jobs, '[]');
    expect(item.required).toEqual(['name', 'template']);
    expect(item.properties!.replicas).toEqual({ type: 'integer', format: 'int32', default: 1, description: expect.any(String) });
    expect(item.properties!.groupName.default).toBe('default');
    expect(at(item, 'template.spec').required).toEqual(['template']);
    expect(Object.keys(at(item, 'template.metadata').properties!)).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
    expect(at(item, 'dependsOn').maxItems).toBe(5);
  });

  test('failure policy actions and restart strategies are enums of the version', () => {
    expect(at(spec, 'failurePolicy.rules.[].action').enum).toEqual([
      'FailJobSet', 'RestartJobSet', 'RestartJobSetAndIgnoreMaxRestarts', 'RestartJob', 'RestartJobAndIgnoreMaxRestarts',
    ]);
    expect(at(spec, 'failurePolicy.restartStrategy')).toMatchObject({ enum: ['Recreate', 'BlockingRecreate', 'InPlaceRestart'], default: 'Recreate' });
  });

  test('status keeps restart counters and in-place restart attempts', () => {
    const status = at(root, 'status');
    expect(Object.keys(status.properties!)).toEqual([
      'conditions', 'currentInPlaceRestartAttempt', 'previousInPlaceRestartAttempt', 'replicatedJobsStatus', 'restarts', 'restartsCountTowardsMax', 'terminalState',
    ]);
    expect(at(status, 'replicatedJobsStatus.[]').required).toEqual(['active', 'failed', 'name', 'ready', 'succeeded', 'suspended']);
  });
});
