import { Construct, IConstruct } from 'constructs';
import { CertificateProvider } from '../certificates';
import { Platform } from '../platform';
import type { PlatformBuild } from '../synth';
import { toYamlDocument } from '../yaml-writer';
import { GitOpsContext, GitOpsSettings, repositoryPath, resolveGitOpsSettings, ResolvedGitOpsSettings } from './settings';

/** What differs between the clusters of a fleet. */
export interface ClusterSettings {
  /** The cluster's API server, as Argo CD knows it (the Applications' destination). */
  readonly server: string;
  /** Registry mirror of the cluster (pass it to the platform's `images.registryMirror`). @default - upstream registries */
  readonly registryMirror?: string;
  /** Certificate provider of the cluster (pass it to the platform's `certificates`). @default - the platform's default */
  readonly certificates?: CertificateProvider;
  /** Controller replicas, for components with a typed `replicas` prop (e.g. KServe). @default - the components' defaults */
  readonly replicas?: number;
}

/** Makes the platform of one cluster inside `scope`. */
export type PlatformFactory = (scope: Construct, clusterName: string, settings: ClusterSettings) => Platform;

export interface FleetProps {
  /** The fleet's name: its folder under dist/fleet/ and its ApplicationSet's name (a DNS label). */
  readonly name: string;
  /** Cluster name (a DNS label) -> its settings, in the order clusters are listed. */
  readonly clusters: Record<string, ClusterSettings>;
  /** One platform definition, rendered once per cluster. */
  readonly platform: PlatformFactory;
  /** Where the fleet's output lives in git (argocd.server is taken from each cluster). */
  readonly gitops: GitOpsSettings;
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * One platform definition rendered for several clusters: the factory runs once per cluster
 * with that cluster's settings, each platform is built and checked on its own and written to
 * dist/fleet/<fleet>/<cluster>/<platform>/ (phases, GitOps files), and an Argo CD
 * ApplicationSet with a list generator over the clusters deploys each cluster's app of apps.
 */
export class Fleet extends Construct {
  /** The fleet containing a platform, with the cluster name; undefined outside fleets. */
  public static of(platform: IConstruct): { fleet: Fleet; cluster: string } | undefined {
    for (let s: IConstruct | undefined = platform.node.scope; s; s = s.node.scope) {
      if (s instanceof Fleet) {
        const cluster = [...s.platforms.entries()].find(([, p]) => p === platform)?.[0];
        return cluster === undefined ? undefined : { fleet: s, cluster };
      }
    }
    return undefined;
  }

  public readonly name: string;
  public readonly clusters: Readonly<Record<string, ClusterSettings>>;
  /** Cluster name -> its platform, in cluster order. */
  public readonly platforms = new Map<string, Platform>();
  private readonly gitops: GitOpsSettings;

  constructor(scope: Construct, id: string, props: FleetProps) {
    super(scope, id);
    if (!LABEL.test(props.name) || props.name.length > 63) throw new Error(`${this.node.path}: name '${props.name}' must be a lower-case DNS label (it names dist/fleet/<name>/ and the ApplicationSet)`);
    const names = Object.keys(props.clusters ?? {});
    if (!names.length) throw new Error(`${this.node.path}: clusters is empty; give at least one cluster, e.g. clusters: { east: { server: 'https://east.example.com:6443' } }`);
    for (const [cluster, s] of Object.entries(props.clusters)) {
      if (!LABEL.test(cluster) || cluster.length > 40) throw new Error(`${this.node.path}: cluster name '${cluster}' must be a lower-case DNS label of at most 40 characters (it prefixes Application names)`);
      if (typeof s?.server !== 'string' || !/^https?:\/\/\S+$/.test(s.server)) throw new Error(`${this.node.path}: clusters.${cluster}.server '${s?.server}' must be the https URL of the cluster's API server as registered in Argo CD`);
      if (s.replicas !== undefined && (!Number.isInteger(s.replicas) || s.replicas < 1)) throw new Error(`${this.node.path}: clusters.${cluster}.replicas ${s.replicas} must be a positive integer`);
    }
    resolveGitOpsSettings(this.node.path, props.gitops); // fail early, at construction
    this.name = props.name;
    this.clusters = props.clusters;
    this.gitops = props.gitops;
    for (const cluster of names) {
      const scopeOf = new Construct(this, cluster);
      const platform = props.platform(scopeOf, cluster, props.clusters[cluster]);
      if (!(platform instanceof Platform) || platform.node.scope !== scopeOf) {
        throw new Error(`${this.node.path}: the platform factory must create a Platform directly in the scope it is given (cluster '${cluster}'), e.g. (scope, cluster, s) => new ServingPlatform(scope, 'platform', { ... })`);
      }
      this.platforms.set(cluster, platform);
    }
  }

  /** The folder of one cluster, relative to the output folder: fleet/<fleet>/<cluster>. */
  public folderOf(cluster: string): string {
    return `fleet/${this.name}/${cluster}`;
  }

  /** The resolved GitOps settings of one cluster (its server as Argo CD destination); `context.outdir` places `path`. */
  public settingsOf(cluster: string, context: GitOpsContext = {}): ResolvedGitOpsSettings {
    const s = this.gitops;
    return resolveGitOpsSettings(`${this.node.path}/${cluster}`, { ...s, argocd: { ...s.argocd, server: this.clusters[cluster].server } }, context);
  }

  /**
   * The ApplicationSet: a list generator with one element per cluster, each generating the
   * cluster's root Application, which syncs the cluster's phase Applications (sync waves).
   */
  public applicationSet(context: GitOpsContext = {}): any {
    const s = resolveGitOpsSettings(this.node.path, this.gitops, context);
    const elements = [...this.platforms.entries()].map(([cluster, p]) => ({
      cluster,
      server: this.clusters[cluster].server,
      platform: p.name,
      path: repositoryPath(s.path, this.folderOf(cluster), p.name, 'argocd', 'apps'),
    }));
    return {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: this.name, namespace: s.argocd.namespace },
      spec: {
        goTemplate: true,
        goTemplateOptions: ['missingkey=error'],
        generators: [{ list: { elements } }],
        template: {
          metadata: { name: '{{.cluster}}-{{.platform}}', labels: { 'app.kubernetes.io/part-of': this.name } },
          spec: {
            project: s.argocd.project,
            source: { repoURL: s.repoURL, targetRevision: s.targetRevision, path: '{{.path}}' },
            // The phase Applications are created where Argo CD runs; they deploy to the cluster.
            destination: { server: 'https://kubernetes.default.svc', namespace: s.argocd.namespace },
            syncPolicy: { automated: { prune: true, selfHeal: true } },
          },
        },
      },
    };
  }

  /** The fleet's own files, relative to the output folder. */
  public files(context: GitOpsContext = {}): Map<string, string> {
    return new Map([[`fleet/${this.name}/applicationset.yaml`, toYamlDocument(this.applicationSet(context))]]);
  }
}

/** The cluster folder and GitOps settings of a built platform that belongs to a fleet. */
export function fleetPlacement(build: PlatformBuild, context: GitOpsContext = {}): { folder: string; cluster: string; settings: ResolvedGitOpsSettings } | undefined {
  const f = Fleet.of(build.model.platform);
  return f && { folder: f.fleet.folderOf(f.cluster), cluster: f.cluster, settings: f.fleet.settingsOf(f.cluster, context) };
}
