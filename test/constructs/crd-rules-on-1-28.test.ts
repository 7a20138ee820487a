/**
 * Our own CRD rules that a v1.28 API server rejected (issue 15), fixed to compile there while
 * keeping what they check (test/apiserver/ applies them to a real server). The Catalog CRD
 * whose rule used the quantity library left with model-registry-operator's re-modelling on
 * v0.3.8, which has no such CRD.
 */
import { run } from '@bufbuild/cel';
import { at, schemaOf } from './support/schema';
import { multiKueueConfigCrd } from '../../constructs/kueue/crds';
import { mlflowConfigCrd } from '../../constructs/mlflow-operator/crds/mlflow-config';
import { clusterTrainingRuntimeCrd } from '../../constructs/trainer/crds';

const ruleAt = (schema: any, path: string, i = 0) => (path ? at(schema, path) : schema)['x-kubernetes-validations'][i].rule as string;

describe('CRD rules that compile on Kubernetes 1.28', () => {
  test('MLflowConfig: the Secret name regex is a raw string, so \\. reaches the regex (no CEL escape error)', () => {
    const rule = ruleAt(schemaOf(mlflowConfigCrd), 'spec.artifactRootSecret');
    expect(rule.startsWith("self.matches(r'")).toBe(true);
    expect(run(rule, { self: 'team.s3-creds' })).toBe(true);
    expect(run(rule, { self: 'Team_S3' })).toBe(false);
    expect(run(rule, { self: 'a..b' })).toBe(false);
  });

  test('MultiKueueConfig v1beta2: cluster names are bounded (upstream\'s maxLength 256) and must not repeat (upstream\'s rule)', () => {
    const clusters = at(schemaOf(multiKueueConfigCrd, 1), 'spec.clusters');
    expect((clusters.items as any).maxLength).toBe(256);
    const rule = ruleAt(clusters, '');
    expect(run(rule, { self: ['a', 'b'] })).toBe(true);
    expect(run(rule, { self: ['a', 'b', 'a'] })).toBe(false);
  });
});

test('ClusterTrainingRuntime: env injection container names are bounded (maxLength 63) and never name the node container', () => {
  const names = at(schemaOf(clusterTrainingRuntimeCrd), 'spec.mlPolicy.torch.envInjection.targets.[].containerNames');
  expect((names.items as any).maxLength).toBe(63);
  expect(run(ruleAt(names, ''), { self: ['node'] })).toBe(false);
});
