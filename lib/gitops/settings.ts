/**
 * Where the synthesized output lives in git and how GitOps engines reach it. `repoURL` is
 * required: a GitOps definition pointing at a placeholder repository would sync nothing.
 * (PlatformApp uses EXAMPLE_GITOPS_SETTINGS only for the example written to dist/.)
 */
export interface GitOpsSettings {
  /** The git repository that holds the synthesized output, e.g. https://git.example.com/platform.git. */
  readonly repoURL: string;
  /**
   * Branch, tag or commit Argo CD syncs.
   * @default 'HEAD'
   */
  readonly targetRevision?: string;
  /**
   * Folder of the repository that holds the platform folders (what `cdk8s synth` writes as dist/).
   * @default 'dist'
   */
  readonly path?: string;
  readonly argocd?: ArgoCdSettings;
  readonly flux?: FluxSettings;
  readonly helm?: HelmSettings;
}

export interface ArgoCdSettings {
  /** Namespace Argo CD runs in (Applications live there). @default 'argocd' */
  readonly namespace?: string;
  /** AppProject of every Application. @default 'default' */
  readonly project?: string;
  /** Destination cluster API server. @default 'https://kubernetes.default.svc' (the cluster Argo CD runs in) */
  readonly server?: string;
}

export interface FluxSettings {
  /** Namespace of the Flux Kustomizations. @default 'flux-system' */
  readonly namespace?: string;
  /**
   * The GitRepository that serves `repoURL` (namespace: `namespace`).
   * @default 'flux-system' (the one `flux bootstrap` creates for its own repository)
   */
  readonly sourceName?: string;
  /** How often Flux reconciles. @default '10m' */
  readonly interval?: string;
  /** How long Flux waits for a phase to become ready. @default '10m' */
  readonly timeout?: string;
}

export interface HelmSettings {
  /** The chart's version (SemVer). @default '0.1.0' */
  readonly chartVersion?: string;
}

/** The settings of the example GitOps output `cdk8s synth` writes next to each platform. */
export const EXAMPLE_GITOPS_SETTINGS: GitOpsSettings = {
  repoURL: 'https://git.example.com/platform.git',
};

/** Settings with every default filled in. */
export interface ResolvedGitOpsSettings {
  readonly repoURL: string;
  readonly targetRevision: string;
  readonly path: string;
  readonly argocd: Required<ArgoCdSettings>;
  readonly flux: Required<FluxSettings>;
  readonly helm: Required<HelmSettings>;
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DURATION = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Fills in defaults and checks every setting; throws one error naming `where` (a construct
 * path or function), each bad setting, its value and the fix.
 */
export function resolveGitOpsSettings(where: string, s: GitOpsSettings): ResolvedGitOpsSettings {
  const errors: string[] = [];
  const bad = (prop: string, value: unknown, fix: string) => errors.push(`${prop} ${JSON.stringify(value)} ${fix}`);
  if (typeof s?.repoURL !== 'string' || !s.repoURL || /\s/.test(s.repoURL)) {
    bad('repoURL', s?.repoURL, 'must be the URL of the git repository that holds the output (e.g. https://git.example.com/platform.git)');
  }
  const targetRevision = s?.targetRevision ?? 'HEAD';
  if (!targetRevision || /\s/.test(targetRevision)) bad('targetRevision', targetRevision, 'must be a branch, tag or commit without spaces');
  const path = (s?.path ?? 'dist').replace(/\/+$/, '');
  if (!path || path.startsWith('/') || path.split('/').some((p) => p === '..' || p === '')) {
    bad('path', s?.path, "must be a relative folder inside the repository without '..' (e.g. 'dist' or 'clusters/prod')");
  }
  const argocd = { namespace: 'argocd', project: 'default', server: 'https://kubernetes.default.svc', ...definedOnly(s?.argocd) };
  const flux = { namespace: 'flux-system', sourceName: 'flux-system', interval: '10m', timeout: '10m', ...definedOnly(s?.flux) };
  const helm = { chartVersion: '0.1.0', ...definedOnly(s?.helm) };
  for (const [prop, v] of [['argocd.namespace', argocd.namespace], ['argocd.project', argocd.project], ['flux.namespace', flux.namespace], ['flux.sourceName', flux.sourceName]] as const) {
    if (!LABEL.test(v) || v.length > 63) bad(prop, v, 'must be a lower-case DNS label');
  }
  if (!/^https?:\/\/\S+$/.test(argocd.server)) bad('argocd.server', argocd.server, 'must be the https URL of the destination API server (e.g. https://kubernetes.default.svc)');
  for (const [prop, v] of [['flux.interval', flux.interval], ['flux.timeout', flux.timeout]] as const) {
    if (!DURATION.test(v)) bad(prop, v, "must be a Go duration (e.g. '10m', '1h30m')");
  }
  if (!SEMVER.test(helm.chartVersion)) bad('helm.chartVersion', helm.chartVersion, "must be a SemVer version (e.g. '0.1.0'); Helm rejects anything else");
  if (errors.length) throw new Error(`${where}: GitOps settings: ${errors.join('; ')}`);
  return { repoURL: s.repoURL, targetRevision, path, argocd, flux, helm };
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
