/**
 * A platform (a default one, or one a factory builds: the opendatahub platform from a
 * DataScienceCluster), applied to a real kube-apiserver (KUBEBUILDER_ASSETS): Namespaces
 * and CRDs for real (each CRD waited for until Established), every later phase for real
 * where nothing needs a running controller, webhook configurations and APIServices as a
 * server-side dry run (test/support/apply.ts says why). Every object must be accepted, or be
 * explained by the model: its component declares a minimum Kubernetes newer than the
 * server's (a rejected CRD takes the custom resources of its kind with it). Those are
 * upstream's own: JobSet and the Trainer runtimes. (Upstream's Kueue Workload CRD is accepted
 * by v1.28.7, checked: it was our own Workload rule the server rejected.) And our compilation of
 * CRD rules for the server's version (`mlplatform validate --kubernetes-version`) flags
 * exactly the CRDs the server rejects.
 */
import { App } from 'cdk8s';
import { ApiServer, describeWithApiServer } from './apiserver';
import { ApplyOutcome, applyObjects, objectId } from './apply';
import { tooNewComponents } from './motion';
import { Json } from './watch';
import { KubeClient } from '../../lib/cluster/client';
import { compareKubernetesVersions } from '../../lib/kubernetes-version';
import { Platform, PlatformObject } from '../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../lib/synth';
import { compileCelRules } from '../../lib/validation';
import type { DefaultPlatform } from '../../platforms/defaults';

/** The CRDs a 1.28 server rejects exactly as it rejects upstream's own (what the components' minimums explain). */
const UPSTREAM_REJECTED_ON_1_28 = ['clustertrainingruntimes.trainer.kubeflow.org', 'jobsets.jobset.x-k8s.io', 'trainingruntimes.trainer.kubeflow.org'];

interface Explained {
  /** Rejections the model explains: object, the server's message, the component's minimum. */
  readonly explained: string[];
  /** Rejections it does not. */
  readonly unexplained: string[];
}

/** Sorts the rejected objects into those the components' declared minimum Kubernetes explains and the rest. */
function explain(outcomes: ApplyOutcome[], objects: readonly PlatformObject[], serverVersion: string): Explained {
  const componentOf = new Map(objects.map((o) => [o.component.componentName, o.component]));
  // group/kind -> the component whose CRD serves it.
  const crdOwner = new Map(objects.filter((o) => o.json.kind === 'CustomResourceDefinition')
    .map((o) => [`${o.json.spec.group}/${o.json.spec.names.kind}`, o.component]));
  const explained: string[] = [];
  const unexplained: string[] = [];
  for (const o of outcomes.filter((x) => x.error)) {
    const owner = o.kind === 'CustomResourceDefinition' ? componentOf.get(o.component) : crdOwner.get(`${o.apiVersion.split('/')[0]}/${o.kind}`);
    const min = owner?.kubernetes.min;
    const line = `${objectId(o)} (${o.component}, ${o.phase}): ${o.error}`;
    if (owner && min && compareKubernetesVersions(min, serverVersion) > 0) {
      explained.push(`${line} -- explained: ${owner.componentName} needs Kubernetes ${min} (${owner.kubernetes.feature})`);
    } else {
      unexplained.push(line);
    }
  }
  return { explained, unexplained };
}

/**
 * The verdicts of a platform's objects on a server: every object accepted, or its rejection
 * explained by its component's minimum Kubernetes; the CRDs rejected exactly upstream's own,
 * and exactly those our compilation for the server's version flags. Returns the rejected CRDs
 * and the explained lines.
 */
function expectVerdicts(outcomes: ApplyOutcome[], objects: readonly PlatformObject[], version: string): { rejectedCrds: string[]; explained: string[] } {
  expect(outcomes.length).toBe(objects.length);
  const { explained, unexplained } = explain(outcomes, objects, version);
  expect(unexplained).toEqual([]);
  // Each explained rejection names the object, the server's message and the minimum.
  for (const line of explained) expect(line).toMatch(/^\S+ \S+ \S+ \(.+\): .+ -- explained: \S+ needs Kubernetes \d+\.\d+ \(.+\)$/s);
  const crds = objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
  const rejectedCrds = outcomes.filter((o) => o.kind === 'CustomResourceDefinition' && o.error).map((o) => o.name).sort();
  // The same as upstream's own CRDs on this server, no more.
  expect(rejectedCrds).toEqual(UPSTREAM_REJECTED_ON_1_28.filter((n) => crds.some((c) => c.json.metadata.name === n)));
  // What we flag when compiling for the server's version is what the server rejects.
  const flagged = crds.filter((c) => compileCelRules(c.json, version).length > 0).map((c) => c.json.metadata.name as string).sort();
  expect(flagged).toEqual(rejectedCrds);
  return { rejectedCrds, explained };
}

/**
 * The same verdicts for a platform whose CRDs a bring-up in motion applied for real on this
 * server (`appliedCrds`: the CRD objects that bring-up created or took over), without
 * storing anything: each of the platform's CRDs that is one of `appliedCrds` (the same JSON)
 * and live on the server has had the server's verdict already (it was applied for real) and
 * is not sent again (a dry run of a large CRD costs the server nearly what its creation did);
 * every other object is a server-side dry run, its custom resources checked against the
 * CRDs the server stores and admitted by the running webhooks. A CRD the bring-up did not
 * apply must come from a component too new for the server (`tooNewComponents`, which
 * test/apiserver/platform-version-gates.test.ts applies for real): its dry run is its
 * verdict.
 */
export async function expectPlatformDryRunOnApiServer(server: ApiServer, platform: Platform, appliedCrds: readonly Json[]):
Promise<{ build: PlatformBuild; outcomes: ApplyOutcome[]; explained: string[] }> {
  const build = buildPlatform(platform);
  const objects = build.model.objects;
  const applied = new Map(appliedCrds.map((c) => [c.metadata.name as string, JSON.stringify(c)]));
  const live = new Set((await new KubeClient(server.kubeConfig).list('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { metadataOnly: true })).map((c) => c.metadata.name as string));
  const isApplied = (o: PlatformObject) => o.json.kind === 'CustomResourceDefinition' && applied.get(o.json.metadata.name) === JSON.stringify(o.json) && live.has(o.json.metadata.name);
  const sent = objects.filter((o) => !isApplied(o));
  const dryRun = await applyObjects(server.kubeConfig, sent, build.model.externalKinds, build.model.platform.existingNamespaces, { dryRun: true });
  expect(dryRun.length).toBe(sent.length);
  expect(dryRun.every((o) => o.mode === 'dry-run')).toBe(true);
  // The CRDs the bring-up applied count as applied, with the server's verdict then: accepted.
  const outcomes: ApplyOutcome[] = [...dryRun, ...objects.filter(isApplied).map((o) => ({ apiVersion: o.json.apiVersion, kind: o.json.kind, name: o.json.metadata.name, component: o.component.componentName, phase: o.phase, mode: 'apply' as const }))];
  const { rejectedCrds, explained } = expectVerdicts(outcomes, objects, server.version);
  // Most of the platform accepted, and most of its CRDs applied for real by the bring-up.
  expect(outcomes.filter((o) => !o.error).length).toBeGreaterThan(outcomes.length / 2);
  const crds = objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
  expect(crds.filter(isApplied).length).toBeGreaterThan(crds.length / 2);
  // Every other CRD accepted is of a component too new for the server, which the bring-up left out.
  const tooNew = tooNewComponents(build.model, server.version);
  expect(crds.filter((c) => !isApplied(c) && !rejectedCrds.includes(c.json.metadata.name) && !tooNew.has(c.component.componentName)).map((c) => c.json.metadata.name)).toEqual([]);
  return { build, outcomes, explained };
}

/**
 * What the motion tests do not apply of a default platform, on a plain API server: the
 * motion bring-ups (test/apiserver/motion-*.test.ts, with `checkBringUp`'s "every object
 * created") apply every object of the platform for real except the components this server's
 * version cannot take (`tooNewComponents`: JobSet, the Trainer). Those are applied here, with
 * every CRD our compilation flags for the server's version (of any component) and the
 * Namespaces they go in: each object accepted or its rejection explained by its component's
 * minimum Kubernetes; the rejected CRDs exactly upstream's own; what our compilation flags
 * exactly what the server rejects. Together with the bring-ups this is the proof that applying
 * each whole platform to a server of its own once gave, at the cost of a few dozen objects
 * rather than a whole platform per file.
 */
export function testVersionGatesOnApiServer(platforms: readonly Pick<DefaultPlatform, 'name' | 'create'>[]): void {
  describeWithApiServer('the components a 1.28 server cannot take, and the CRDs our compilation flags, on a real API server', (server: () => ApiServer) => {
    for (const platform of platforms) {
      test(`${platform.name}: each object of a too-new component, and each flagged CRD, accepted or rejected as its component's minimum Kubernetes explains`, async () => {
        const build = buildPlatform(platform.create(new App({ outdir: '/nonexistent' })));
        const version = server().version;
        const objects = build.model.objects;
        const crds = objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
        const flagged = crds.filter((c) => compileCelRules(c.json, version).length > 0);
        const gated = tooNewComponents(build.model, version);
        const picked = objects.filter((o) => gated.has(o.component.componentName) || flagged.includes(o));
        // With what they need of the rest: their Namespaces, and the CRDs (another component's, e.g. cert-manager's) of the kinds they use.
        const namespaces = new Set(picked.map((o) => o.json.metadata.namespace as string | undefined).filter((n): n is string => !!n));
        const kinds = new Set(picked.map((o) => `${String(o.json.apiVersion).split('/')[0]}/${o.json.kind}`));
        const subset = objects.filter((o) => picked.includes(o) || (o.json.kind === 'Namespace' && namespaces.has(o.json.metadata.name))
          || (o.json.kind === 'CustomResourceDefinition' && kinds.has(`${o.json.spec.group}/${o.json.spec.names.kind}`)));
        const outcomes = await applyObjects(server().kubeConfig, subset, build.model.externalKinds, build.model.platform.existingNamespaces);
        expect(outcomes.length).toBe(subset.length);
        const { explained, unexplained } = explain(outcomes, objects, version);
        expect(unexplained).toEqual([]);
        for (const line of explained) expect(line).toMatch(/^\S+ \S+ \S+ \(.+\): .+ -- explained: \S+ needs Kubernetes \d+\.\d+ \(.+\)$/s);
        const rejectedCrds = outcomes.filter((o) => o.kind === 'CustomResourceDefinition' && o.error).map((o) => o.name).sort();
        // The same as upstream's own CRDs on this server, no more (every other CRD is created by the platform's bring-up in motion).
        expect(rejectedCrds).toEqual(UPSTREAM_REJECTED_ON_1_28.filter((n) => crds.some((c) => c.json.metadata.name === n)));
        // What we flag when compiling for the server's version is what the server rejects.
        expect(flagged.map((c) => c.json.metadata.name as string).sort()).toEqual(rejectedCrds);
        // Each too-new component went in for real, but for what its CRDs take with them.
        expect([...new Set(outcomes.filter((o) => !o.error && o.mode === 'apply').map((o) => o.component))].filter((c) => gated.has(c)).sort()).toEqual([...gated].sort());
      }, 120_000);
    }
  });
}
