import * as fs from 'fs';
import * as nodePath from 'path';

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
   * Folder of the repository that holds the platform folders, relative to the repository's root.
   * @default - where the files are written: the output folder relative to `repositoryRoot`
   *   ('dist' for `cdk8s synth` in a clone); 'dist' when no output folder is known
   */
  readonly path?: string;
  /**
   * The root of the GitOps repository's checkout on this machine, for deriving `path` from the
   * output folder (e.g. '../gitops' when synth writes into another repository's folder).
   * @default - the nearest folder holding `.git` at or above the output folder; without one,
   *   the working directory when the output folder is inside it, else the output folder itself
   */
  readonly repositoryRoot?: string;
  /**
   * Put in front of the names of the Argo CD Applications and Flux Kustomizations
   * (`<namePrefix>-<platform>-<phase>`), so that two environments' output (clusters/prod,
   * clusters/staging) can be synced by one Argo CD or Flux without their names colliding.
   * '' for none.
   * @default - from `path` when it is not the default: 'clusters/prod' gives 'clusters-prod';
   *   none for 'dist' and '.'
   */
  readonly namePrefix?: string;
  /** Which GitOps formats to write. @default { argocd: true, flux: true, helm: false, configManagementPlugin: false } */
  readonly formats?: GitOpsFormats;
  readonly argocd?: ArgoCdSettings;
  readonly flux?: FluxSettings;
  readonly helm?: HelmSettings;
}

/** The GitOps formats written next to each platform, each chosen on its own. */
export interface GitOpsFormats {
  /** argocd/: the app of apps and the Application health check. @default true */
  readonly argocd?: boolean;
  /** flux/kustomizations.yaml. @default true */
  readonly flux?: boolean;
  /** helm/: a chart (it repeats every object of the platform: several MB). @default false */
  readonly helm?: boolean;
  /**
   * argocd/cmp-plugin.yaml and argocd/cmp-application.yaml: Argo CD runs the synth itself. It runs
   * this repository's `scripts/cmp-generate.ts` for a default platform, so it works only with a
   * clone of cdk8s-mlplatform as the repository.
   * @default false
   */
  readonly configManagementPlugin?: boolean;
}

/** The Argo CD distribution: upstream Argo CD, or the OpenShift GitOps operator's. */
export enum ArgoCdFlavor {
  /** Upstream Argo CD: settings in the argocd-cm ConfigMap. */
  ARGOCD = 'argocd',
  /**
   * OpenShift GitOps: the operator owns argocd-cm, so settings go into the ArgoCD custom
   * resource (spec.resourceHealthChecks); its default instance runs in openshift-gitops.
   */
  OPENSHIFT_GITOPS = 'openshift-gitops',
}

export interface ArgoCdSettings {
  /** Which Argo CD runs the Applications. @default ArgoCdFlavor.ARGOCD */
  readonly flavor?: ArgoCdFlavor;
  /** Namespace Argo CD runs in (Applications live there). @default 'argocd'; 'openshift-gitops' for ArgoCdFlavor.OPENSHIFT_GITOPS */
  readonly namespace?: string;
  /** Name of the ArgoCD custom resource (OpenShift GitOps only). @default 'openshift-gitops' (the operator's default instance) */
  readonly instance?: string;
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
  /** The platform folders' folder in the repository ('.' for its root). */
  readonly path: string;
  /** Put with '-' in front of Application and Kustomization names ('' for none). */
  readonly namePrefix: string;
  readonly formats: Required<GitOpsFormats>;
  readonly argocd: Required<ArgoCdSettings>;
  readonly flux: Required<FluxSettings>;
  readonly helm: Required<HelmSettings>;
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DURATION = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** Where the settings are used: the folder the platform folders are written to. */
export interface GitOpsContext {
  /** The output folder (as the app was given it, relative to the working directory). */
  readonly outdir?: string;
}

/** The nearest folder at or above `dir` that holds `.git` (a folder, or a worktree's file). */
function gitRootOf(dir: string): string | undefined {
  for (let d = dir; ; d = nodePath.dirname(d)) {
    if (fs.existsSync(nodePath.join(d, '.git'))) return d;
    if (nodePath.dirname(d) === d) return undefined;
  }
}

/** The repository folder of an output folder, relative to the repository's root, '/'-separated ('.' for the root). */
function repositoryPathOf(outdir: string, root: string | undefined): { path?: string; root: string } {
  const out = nodePath.resolve(outdir);
  const cwd = process.cwd();
  const base = root !== undefined ? nodePath.resolve(root)
    : gitRootOf(out) ?? (out === cwd || out.startsWith(cwd + nodePath.sep) ? cwd : out);
  const rel = nodePath.relative(base, out);
  if (rel.startsWith('..') || nodePath.isAbsolute(rel)) return { root: base };
  return { path: rel ? rel.split(nodePath.sep).join('/') : '.', root: base };
}

/** Joins repository folders with '/', leaving out '.' (the repository's root). */
export function repositoryPath(...parts: string[]): string {
  return nodePath.posix.join(...parts);
}

/**
 * Fills in defaults and checks every setting; throws one error naming `where` (a construct
 * path or function), each bad setting, its value and the fix. With `context.outdir`, `path`
 * defaults to that folder relative to the repository's root.
 */
export function resolveGitOpsSettings(where: string, s: GitOpsSettings, context: GitOpsContext = {}): ResolvedGitOpsSettings {
  const errors: string[] = [];
  const bad = (prop: string, value: unknown, fix: string) => errors.push(`${prop} ${JSON.stringify(value)} ${fix}`);
  if (typeof s?.repoURL !== 'string' || !s.repoURL || /\s/.test(s.repoURL)) {
    bad('repoURL', s?.repoURL, 'must be the URL of the git repository that holds the output (e.g. https://git.example.com/platform.git)');
  }
  const targetRevision = s?.targetRevision ?? 'HEAD';
  if (!targetRevision || /\s/.test(targetRevision)) bad('targetRevision', targetRevision, 'must be a branch, tag or commit without spaces');
  let path = (s?.path ?? 'dist').replace(/\/+$/, '');
  if (s?.path === undefined && context.outdir !== undefined) {
    const derived = repositoryPathOf(context.outdir, s?.repositoryRoot);
    if (derived.path === undefined) {
      bad('repositoryRoot', s?.repositoryRoot ?? derived.root,
        `does not contain the output folder ${nodePath.resolve(context.outdir)}; set repositoryRoot to the checkout of the GitOps repository the output is written into, or set path (the output's folder in that repository)`);
    } else {
      path = derived.path;
    }
  }
  if (!path || path.startsWith('/') || (path !== '.' && path.split('/').some((p) => p === '..' || p === '' || p === '.'))) {
    bad('path', s?.path, "must be a relative folder inside the repository without '..' (e.g. 'dist' or 'clusters/prod'; '.' for its root)");
  }
  const namePrefix = s?.namePrefix ?? namePrefixOf(path);
  if (typeof namePrefix !== 'string' || (namePrefix !== '' && (!LABEL.test(namePrefix) || namePrefix.length > 40))) {
    bad('namePrefix', s?.namePrefix, "must be a lower-case DNS label of at most 40 characters (e.g. 'prod'), or '' for none");
  }
  const flavor = s?.argocd?.flavor ?? ArgoCdFlavor.ARGOCD;
  if (!Object.values(ArgoCdFlavor).includes(flavor)) bad('argocd.flavor', flavor, `must be one of ${Object.values(ArgoCdFlavor).join(', ')}`);
  const openshift = flavor === ArgoCdFlavor.OPENSHIFT_GITOPS;
  const argocd = {
    flavor,
    namespace: openshift ? 'openshift-gitops' : 'argocd',
    instance: 'openshift-gitops',
    project: 'default',
    server: 'https://kubernetes.default.svc',
    ...definedOnly(s?.argocd),
  };
  const formats = { argocd: true, flux: true, helm: false, configManagementPlugin: false, ...definedOnly(s?.formats) };
  for (const [k, v] of Object.entries(formats)) if (typeof v !== 'boolean') bad(`formats.${k}`, v, 'must be true or false');
  if (formats.configManagementPlugin && !formats.argocd) bad('formats.configManagementPlugin', true, 'needs formats.argocd (the plugin is an Argo CD plugin)');
  const flux = { namespace: 'flux-system', sourceName: 'flux-system', interval: '10m', timeout: '10m', ...definedOnly(s?.flux) };
  const helm = { chartVersion: '0.1.0', ...definedOnly(s?.helm) };
  for (const [prop, v] of [['argocd.namespace', argocd.namespace], ['argocd.instance', argocd.instance], ['argocd.project', argocd.project], ['flux.namespace', flux.namespace], ['flux.sourceName', flux.sourceName]] as const) {
    if (!LABEL.test(v) || v.length > 63) bad(prop, v, 'must be a lower-case DNS label');
  }
  if (!/^https?:\/\/\S+$/.test(argocd.server)) bad('argocd.server', argocd.server, 'must be the https URL of the destination API server (e.g. https://kubernetes.default.svc)');
  for (const [prop, v] of [['flux.interval', flux.interval], ['flux.timeout', flux.timeout]] as const) {
    if (!DURATION.test(v)) bad(prop, v, "must be a Go duration (e.g. '10m', '1h30m')");
  }
  if (!SEMVER.test(helm.chartVersion)) bad('helm.chartVersion', helm.chartVersion, "must be a SemVer version (e.g. '0.1.0'); Helm rejects anything else");
  if (errors.length) throw new Error(`${where}: GitOps settings: ${errors.join('; ')}`);
  return { repoURL: s.repoURL, targetRevision, path, namePrefix, formats, argocd, flux, helm };
}

/** The default name prefix of a repository folder: none for 'dist' and '.', else the folder as a DNS label ('clusters/prod' -> 'clusters-prod'). */
export function namePrefixOf(path: string): string {
  if (path === 'dist' || path === '.') return '';
  return path.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
}

/** A name with the settings' prefix in front ('prod' + 'serving' -> 'prod-serving'). */
export function prefixedName(settings: { namePrefix: string }, name: string): string {
  return settings.namePrefix ? `${settings.namePrefix}-${name}` : name;
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
