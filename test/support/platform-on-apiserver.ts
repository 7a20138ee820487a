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
import { Construct } from 'constructs';
import { ApiServer, startApiServer, skipReason } from './apiserver';
import { ApplyOutcome, applyObjects, objectId } from './apply';
import { compareKubernetesVersions } from '../../lib/kubernetes-version';
import { Platform, PlatformObject } from '../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../lib/synth';
import { compileCelRules } from '../../lib/validation';
import { DEFAULT_PLATFORMS } from '../../platforms';

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

/** A platform to build for the test: its name in the test's title, and how to create it. */
export interface PlatformFactory {
  readonly name: string;
  create(scope: Construct): Platform;
}

/**
 * Applies the platform to the server and expects every object accepted, or its rejection
 * explained by its component's minimum Kubernetes (the CRDs rejected exactly those our
 * compilation for the server's version flags). Returns the outcomes. The server may hold
 * objects of an earlier platform: objects of both are applied with one field manager.
 */
export async function expectPlatformOnApiServer(server: ApiServer, platform: Platform): Promise<{ build: PlatformBuild; outcomes: ApplyOutcome[]; explained: string[] }> {
  const build = buildPlatform(platform);
  const outcomes = await applyObjects(server.kubeConfig, build.model.objects, build.model.externalKinds, build.model.platform.existingNamespaces);
  expect(outcomes.length).toBe(build.model.objects.length);
  const { explained, unexplained } = explain(outcomes, build.model.objects, server.version);
  expect(unexplained).toEqual([]);
  // Each explained rejection names the object, the server's message and the minimum.
  for (const line of explained) expect(line).toMatch(/^\S+ \S+ \S+ \(.+\): .+ -- explained: \S+ needs Kubernetes \d+\.\d+ \(.+\)$/s);
  const crds = build.model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
  const rejectedCrds = outcomes.filter((o) => o.kind === 'CustomResourceDefinition' && o.error).map((o) => o.name).sort();
  // The same as upstream's own CRDs on this server, no more.
  expect(rejectedCrds).toEqual(UPSTREAM_REJECTED_ON_1_28.filter((n) => crds.some((c) => c.json.metadata.name === n)));
  // What we flag when compiling for the server's version is what the server rejects.
  const flagged = crds.filter((c) => compileCelRules(c.json, server.version).length > 0).map((c) => c.json.metadata.name as string).sort();
  expect(flagged).toEqual(rejectedCrds);
  // Most of the platform went in for real.
  expect(outcomes.filter((o) => !o.error && o.mode === 'apply').length).toBeGreaterThan(outcomes.length / 2);
  return { build, outcomes, explained };
}

/**
 * The test of one platform on its own API server: a default platform by name, or any
 * platform a factory builds (test/apiserver/platform-<name>.test.ts: a file each, so that
 * jest spreads them over its workers rather than running all five, some 20 s of
 * kube-apiserver CPU each, in one file).
 */
export function testPlatformOnApiServer(platform: string | PlatformFactory): void {
  const reason = skipReason();
  const factory = typeof platform === 'string' ? DEFAULT_PLATFORMS.find((p) => p.name === platform) : platform;
  if (!factory) throw new Error(`no default platform ${platform}: ${DEFAULT_PLATFORMS.map((p) => p.name).join(', ')}`);
  const name = factory.name;
  (reason ? describe.skip : describe)('default platforms on a real API server', () => {
    test(`${name}: every object accepted, or rejected as its component's minimum Kubernetes explains`, async () => {
      const created = factory.create(new App({ outdir: '/nonexistent' }));
      const server = await startApiServer();
      try {
        await expectPlatformOnApiServer(server, created);
      } finally {
        await server.stop();
      }
    }, 300_000);
  });

  if (reason) test.skip(`${reason}: the platform ${name} is not applied to a real API server`, () => undefined);
}
