import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App, AppProps } from 'cdk8s';
import { architectureOf } from './architecture';
import { architectureComparisonMarkdown, compareArchitecture } from './architecture-compare';
import { CertificateProviderKind } from './certificates';
import { contentDigestsOf, Finding, isError, largeCrds as largeCrdObjects, runChecks, SERVER_SIDE_APPLY_BYTES } from './checks';
import { Component } from './component';
import { ArgoCdFlavor, EXAMPLE_GITOPS_SETTINGS, Fleet, fleetPlacement, GitOpsSettings, gitopsFiles, repositoryPath, ResolvedGitOpsSettings, resolveGitOpsSettings } from './gitops';
import { PHASES } from './phases';
import { Platform, PlatformError, PlatformModel, PlatformObject, platformsOf } from './platform';
import { collectProblemsUnder, recordedProblems } from './problems';
import { RenderedFiles } from './rendered';
import { platformReport } from './report';
import { versionDrift, versionDriftReport, VersionsTable } from './versions';
import { toYamlDocuments } from './yaml-writer';

export { SERVER_SIDE_APPLY_BYTES };

export interface PlatformBuild {
  readonly model: PlatformModel;
  /** Relative file path -> YAML text, in apply order. */
  readonly files: Map<string, string>;
  /** CRDs too large for client-side apply. */
  readonly largeCrds: string[];
  /** Findings of severity warning (e.g. MLP055): they do not fail synth and are listed in REPORT.md. */
  readonly warnings: Finding[];
  /**
   * The objects of each phase file of `files` (`<phase>/<component>.yaml`), as written,
   * for writers that render them again with changes (the Helm chart's hooks).
   * @default - none: such writers read the objects back from the YAML text
   */
  readonly documents?: ReadonlyMap<string, readonly any[]>;
}

/** The steps of a build, in order, as reported to `BuildOptions.onStep`. */
export type BuildStep = 'validate' | 'resolve' | 'check' | 'render';

export interface BuildOptions {
  /** Called as each step starts (with the object count once the platform is resolved) and once at the end ('done'). */
  readonly onStep?: (step: BuildStep | 'done', objects?: number) => void;
  /**
   * Keep the YAML of each phase file for the next synth, and use what an earlier one kept
   * (lib/rendered.ts; off with MLP_SYNTH_CACHE=0): what synth's writers ask for.
   * @default false
   */
  readonly keepRendered?: boolean;
}

/**
 * Resolves, checks and renders one platform. Throws a PlatformError that lists every
 * problem (construct validations, graph problems, check findings), each with its
 * construct path.
 */
export function buildPlatform(platform: Platform, options: BuildOptions = {}): PlatformBuild {
  const step = options.onStep ?? (() => undefined);
  step('validate');
  const problems = platform.node
    .findAll()
    .flatMap((c) => c.node.validate().map((e) => (e.startsWith(c.node.path) ? e : `${c.node.path}: ${e}`)));
  // cdk8s orders a chart's objects by addDependency; a platform orders by phase and component
  // requirements, so such a dependency would be ignored (cycles included): it is an error.
  for (const c of [platform, ...platform.node.findAll()]) {
    for (const d of c.node.dependencies) {
      problems.push(`${c.node.path}: addDependency(${d.node.path}) is not honoured: a platform orders objects by phase and by the kinds components require; ` +
        'remove it, and declare what the component needs (a required kind orders it after the component that serves it)');
    }
  }
  if (problems.length) throw new PlatformError(problems);
  step('resolve');
  const model = platform.resolve();
  step('check', model.objects.length);
  const findings: Finding[] = runChecks(model);
  const errors = findings.filter(isError);
  if (errors.length) throw new PlatformError(errors.map((f) => `[${f.rule}] ${f.path}: ${f.message}`));
  const warnings = findings.filter((f) => !isError(f));

  step('render', model.objects.length);
  const files = new Map<string, string>();
  const documents = new Map<string, any[]>();
  // A phase file whose objects are as a synth before rendered them is not rendered again (lib/rendered.ts).
  const rendered = options.keepRendered ? RenderedFiles.fromEnvironment() : undefined;
  const digests = rendered && contentDigestsOf(model);
  const setDocuments = (file: string, docs: any[]) => {
    documents.set(file, docs);
    files.set(file, digests ? rendered.text(docs.map((d) => digests.get(d)), () => toYaml(docs)) : toYaml(docs));
  };
  // Apply order, as the files list them (MLP055 measured the objects once for the checks).
  const largeCrds = largeCrdObjects(model).map((o) => o.json.metadata.name as string);
  // Objects by phase, then by component, in apply order (one pass instead of one scan per pair).
  const byPhase = new Map<string, PlatformObject[]>(PHASES.map((p) => [p, []]));
  for (const o of model.objects) byPhase.get(o.phase)!.push(o);
  for (const phase of PHASES) {
    const inPhase = byPhase.get(phase)!;
    const byComponent = new Map<Component, PlatformObject[]>();
    for (const o of inPhase) {
      if (o.json.kind === 'Namespace') continue;
      let list = byComponent.get(o.component);
      if (!list) byComponent.set(o.component, list = []);
      list.push(o);
    }
    const namespaces = inPhase.filter((o) => o.json.kind === 'Namespace');
    if (namespaces.length) {
      // One Namespace per name, first: every namespaced object of the platform follows.
      const seen = new Set<string>();
      const unique = namespaces.filter((o) => !seen.has(o.json.metadata.name) && seen.add(o.json.metadata.name));
      setDocuments(`${phase}/00-namespaces.yaml`, unique.map((o) => o.json));
    }
    for (const c of model.components) {
      const objs = byComponent.get(c);
      if (!objs) continue;
      // Named by component, not by position: turning a component off renames no other file.
      // The order is the kustomizations' (fifo) and the sync waves'.
      setDocuments(`${phase}/${c.componentName}.yaml`, objs.map((o) => o.json));
    }
  }
  const drift = versionDrift(model.components, platform.imageSettings.versions ?? VersionsTable.DEFAULT);
  const toCompare = platform.architectureToCompare;
  const comparison = toCompare ? `\n${architectureComparisonMarkdown(compareArchitecture(architectureOf(model, largeCrds), toCompare, platform.architectureDeclarations))}` : '';
  files.set('REPORT.md', platformReport(model, largeCrds, warnings) + versionDriftReport(drift) + comparison);
  // The phase files; with GitOps files, platformOutput lists the phase folders instead.
  files.set('kustomization.yaml', platformKustomization([...files.keys()].filter((f) => f.endsWith('.yaml'))));
  step('done', model.objects.length);
  return { model, files, largeCrds, warnings, documents };
}

/** The platform folder's kustomization.yaml: its resources (phase files, or phase folders) rendered in the listed order. */
function platformKustomization(resources: string[]): string {
  // sortOptions fifo (kustomize v5): render in the listed order, not kustomize's kind order,
  // which would move Namespaces ahead of every CRD and webhooks ahead of their backends.
  return toYaml([{ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', sortOptions: { order: 'fifo' }, resources }]);
}

function toYaml(docs: unknown[]): string {
  return toYamlDocuments(docs);
}

/**
 * GitOps settings from the environment, for apps that leave them unset: MLP_REPO_URL
 * (repoURL), MLP_TARGET_REVISION (targetRevision), MLP_GITOPS_PATH (path),
 * MLP_REPOSITORY_ROOT (repositoryRoot) and MLP_GITOPS_FORMATS (a comma-separated list of
 * argocd, flux, helm, cmp: exactly those are written).
 */
export function gitopsSettingsFromEnvironment(env: Record<string, string | undefined> = process.env): Partial<GitOpsSettings> {
  const formats = env.MLP_GITOPS_FORMATS?.split(',').map((f) => f.trim()).filter((f) => f);
  const known = ['argocd', 'flux', 'helm', 'cmp'];
  const unknown = (formats ?? []).filter((f) => !known.includes(f));
  if (unknown.length) throw new Error(`MLP_GITOPS_FORMATS: unknown format ${unknown.join(', ')}; list some of ${known.join(', ')} (comma-separated)`);
  return definedOnly({
    repoURL: env.MLP_REPO_URL || undefined,
    targetRevision: env.MLP_TARGET_REVISION || undefined,
    path: env.MLP_GITOPS_PATH || undefined,
    repositoryRoot: env.MLP_REPOSITORY_ROOT || undefined,
    formats: formats && {
      argocd: formats.includes('argocd'), flux: formats.includes('flux'), helm: formats.includes('helm'), configManagementPlugin: formats.includes('cmp'),
    },
  });
}

/**
 * The GitOps settings an app writes with: the example repository, then the environment
 * (gitopsSettingsFromEnvironment), then the app's own settings; undefined for `false`.
 */
export function effectiveGitOpsSettings(gitops: Partial<GitOpsSettings> | false | undefined, env: Record<string, string | undefined> = process.env): GitOpsSettings | undefined {
  if (gitops === false) return undefined;
  return { ...EXAMPLE_GITOPS_SETTINGS, ...gitopsSettingsFromEnvironment(env), ...definedOnly(gitops ?? {}) };
}

function definedOnly<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** What one platform writes: its folder and every file in it (phases, REPORT.md, GitOps files). */
export interface PlatformOutput {
  /** outdir/<platform>, or outdir/fleet/<fleet>/<cluster>/<platform> for a fleet's platform. */
  readonly dir: string;
  readonly files: Map<string, string>;
}

/**
 * The one output of a built platform, whichever entry point writes it (PlatformApp's synth,
 * `mlplatform synth`, writePlatform): its files and, unless `gitops` is undefined, its GitOps
 * files with paths relative to the repository root (a fleet's platform uses the fleet's settings).
 */
export function platformOutput(build: PlatformBuild, outdir: string, gitops: ResolvedGitOpsSettings | undefined): PlatformOutput {
  const name = build.model.platform.name;
  const placement = gitops ? fleetPlacement(build, { outdir }) : undefined;
  const dir = path.join(placement ? path.join(outdir, placement.folder) : outdir, name);
  const files = new Map(build.files);
  const extra = placement
    ? gitopsFiles(build, placement.settings, { base: repositoryPath(placement.settings.path, placement.folder), namePrefix: `${placement.cluster}-` })
    : gitops ? gitopsFiles(build, gitops) : undefined;
  for (const [f, t] of extra ?? []) files.set(f, t);
  // With phase kustomizations (GitOps files on), the platform's kustomization.yaml lists the
  // phase folders, in apply order: rendering the platform then applies each phase's patches
  // (CRDs and Namespaces never pruned), as Argo CD and Flux syncing the folders do.
  const phases = PHASES.filter((p) => files.has(`${p}/kustomization.yaml`));
  if (phases.length) files.set('kustomization.yaml', platformKustomization(phases));
  return { dir, files };
}

/**
 * The settings one platform is written with: a platform whose webhook certificates come from
 * OpenShift's service CA (opendatahub) runs on OpenShift, so unless `argocd.flavor` is set its
 * Argo CD is OpenShift GitOps (namespace openshift-gitops, health check on the ArgoCD resource).
 */
export function platformGitOpsSettings(settings: GitOpsSettings, platform: Platform): GitOpsSettings {
  const c = platform.certificates;
  const openshift = c.kind === CertificateProviderKind.OPENSHIFT_SERVICE_CA || c.fallback?.kind === CertificateProviderKind.OPENSHIFT_SERVICE_CA;
  if (!openshift || settings.argocd?.flavor !== undefined) return settings;
  return { ...settings, argocd: { ...settings.argocd, flavor: ArgoCdFlavor.OPENSHIFT_GITOPS } };
}

export interface WritePlatformOptions {
  /**
   * Where the output lives in git, for the GitOps files; false writes none.
   * @default - as PlatformApp: the example repository and the MLP_* environment variables
   */
  readonly gitops?: GitOpsSettings | false;
}

/**
 * Writes a built platform to outdir/<platform>/, replacing what was there: exactly what
 * PlatformApp's synth and `mlplatform synth` write (phases, REPORT.md, GitOps files).
 * Returns the folder and the files written.
 */
export function writePlatform(build: PlatformBuild, outdir: string, options: WritePlatformOptions = {}): PlatformOutput {
  const settings = effectiveGitOpsSettings(options.gitops);
  const gitops = settings && resolveGitOpsSettings('writePlatform', platformGitOpsSettings(settings, build.model.platform), { outdir });
  const out = platformOutput(build, outdir, gitops);
  replaceFiles(out.dir, out.files);
  return out;
}

/** Writes files (relative path -> text) to dir, removing what was there. */
function replaceFiles(dir: string, files: Map<string, string>): void {
  fs.rmSync(dir, { recursive: true, force: true });
  writeFiles(dir, files);
}

/** Writes files (relative path -> text) under dir. */
export function writeFiles(dir: string, files: Map<string, string>): void {
  for (const [file, text] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

export interface PlatformAppProps extends AppProps {
  /**
   * Names of the platforms to synthesize (the others are built but not checked or
   * written), e.g. to time one platform.
   * @default - every platform; the MLP_PLATFORMS environment variable (comma-separated) if set
   */
  readonly platforms?: string[];
  /**
   * Where the output lives in git, for the GitOps files written next to each platform
   * (argocd/, flux/, optionally helm/, phase kustomizations; see lib/gitops); false writes none.
   * Settings it leaves unset come from MLP_REPO_URL, MLP_TARGET_REVISION, MLP_GITOPS_PATH,
   * MLP_REPOSITORY_ROOT and MLP_GITOPS_FORMATS (see gitopsSettingsFromEnvironment).
   * @default EXAMPLE_GITOPS_SETTINGS (a placeholder repository: set yours before syncing)
   */
  readonly gitops?: GitOpsSettings | false;
}

/** Set while `mlplatform report|graph --app FILE` loads an app: PlatformApp.synth then writes nothing. */
const LOAD_ONLY = Symbol.for('cdk8s-mlplatform.loadOnly');
const LOADED_APPS = Symbol.for('cdk8s-mlplatform.loadedApps');
type Registry = { [LOAD_ONLY]?: boolean; [LOADED_APPS]?: App[] };

/**
 * Loads an app module for inspection: while `load` runs, every PlatformApp created is
 * recorded and its synth() (and runApp) does nothing. Returns the apps created.
 */
export function loadApps(load: () => void): App[] {
  const g = globalThis as Registry;
  g[LOAD_ONLY] = true;
  g[LOADED_APPS] = [];
  try {
    load();
    return g[LOADED_APPS]!;
  } finally {
    g[LOAD_ONLY] = false;
    g[LOADED_APPS] = undefined;
  }
}

/**
 * A cdk8s App whose synth builds every Platform in it: checks run on every synth, and
 * output goes to <outdir>/<platform>/<phase>/ instead of one file per chart. Synths that
 * take longer than a second show a progress line on stderr when it is a terminal.
 */
export class PlatformApp extends App {
  private readonly only?: string[];
  private readonly gitops: GitOpsSettings | false | undefined;
  /** The folder the cdk8s CLI expects output in, when it runs the app (`npx cdk8s synth`). */
  private readonly cdk8sOutdir?: string;

  constructor(props: PlatformAppProps = {}) {
    // The output folder: the app's, else MLP_OUTDIR, else the cdk8s CLI's (CDK8S_OUTDIR), else dist/.
    super({ ...props, outdir: props.outdir ?? (process.env.MLP_OUTDIR || undefined) });
    this.cdk8sOutdir = cdk8sCliOutdir(process.env);
    this.gitops = props.gitops;
    this.only = props.platforms ?? process.env.MLP_PLATFORMS?.split(',').map((n) => n.trim()).filter((n) => n);
    (globalThis as Registry)[LOADED_APPS]?.push(this);
    collectProblemsUnder(this);
    reportConstructionErrors(this);
  }

  public synth(): void {
    if ((globalThis as Registry)[LOAD_ONLY]) return;
    let platforms = platformsOf(this);
    if (this.only) {
      const unknown = this.only.filter((n) => !platforms.some((p) => p.name === n));
      if (unknown.length) throw new Error(`no platform named ${unknown.join(', ')} (the app has ${platforms.map((p) => p.name).join(', ')})`);
      platforms = platforms.filter((p) => this.only!.includes(p.name));
    }
    const progress = new Progress(process.stderr);
    try {
      // Settings are checked up front, but their error is raised where it always was: after every platform has built.
      let gitops: ResolvedGitOpsSettings | undefined;
      let gitopsError: unknown;
      const settings = effectiveGitOpsSettings(this.gitops);
      try {
        gitops = settings && resolveGitOpsSettings('PlatformApp', settings, { outdir: this.outdir });
      } catch (e) {
        gitopsError = e;
      }
      // Each platform's output (its files and GitOps files) is rendered as soon as it is built,
      // so that its model (the JSON of every object) can be released before the next one is
      // built; nothing is written until every platform has built.
      const outputs: Array<{ platform: Platform; output: PlatformOutput }> = [];
      for (const p of platforms) {
        const b = buildPlatform(p, { onStep: (s, n) => progress.show(p.name, s, n), keepRendered: true });
        if (gitopsError) continue;
        const mine = gitops && settings && resolveGitOpsSettings('PlatformApp', platformGitOpsSettings(settings, p), { outdir: this.outdir });
        outputs.push({ platform: p, output: platformOutput(b, this.outdir, mine) });
      }
      if (gitopsError) throw gitopsError;
      progress.show('', 'write');
      for (const o of outputs) replaceFiles(o.output.dir, o.output.files);
      this.besideTheCdk8sCli();
      if (gitops && gitops.repoURL !== EXAMPLE_GITOPS_SETTINGS.repoURL && gitIgnores(this.outdir)) {
        process.stderr.write(`warning: ${this.outdir} is ignored by git, but the Argo CD and Flux files point at it in ${gitops.repoURL}; ` +
          'commit the output where it is not ignored, or synthesize into a checkout of the GitOps repository (README: "Getting the output into git")\n');
      }
      const built = new Set(outputs.map((o) => o.platform));
      for (const fleet of this.node.findAll().filter((c): c is Fleet => c instanceof Fleet)) {
        if ([...fleet.platforms.values()].every((p) => built.has(p))) writeFiles(this.outdir, fleet.files({ outdir: this.outdir }));
      }
    } finally {
      progress.clear();
    }
  }

  /**
   * Run by `npx cdk8s synth`: the CLI emptied its output folder (all of it) before the app ran
   * and fails unless the app created it. Output written elsewhere (the app's outdir, or
   * MLP_OUTDIR) leaves that folder created and empty, and says so; output into a folder other
   * than dist/ warns that the CLI empties it at every run.
   */
  private besideTheCdk8sCli(): void {
    const cli = this.cdk8sOutdir;
    if (!cli) return;
    if (path.resolve(cli) !== path.resolve(this.outdir)) {
      fs.mkdirSync(cli, { recursive: true });
      process.stderr.write(`note: the platforms were written to ${this.outdir} (the app's outdir or MLP_OUTDIR), which \`cdk8s synth\` leaves alone; ` +
        `${cli}, where the CLI looks for manifests, is left empty\n`);
    } else if (path.resolve(cli) !== path.resolve('dist')) {
      process.stderr.write(`warning: \`cdk8s synth\` empties ${cli} before every run, everything in it, not only the platforms' folders; ` +
        'to write into a folder that holds other files (a checkout of your GitOps repository), use `npx mlplatform synth --out DIR` or MLP_OUTDIR=DIR, which replace only each platform\'s folder\n');
    }
  }
}

const CONSTRUCTION_REPORT = Symbol.for('cdk8s-mlplatform.constructionReport');
type ConstructionReport = { [CONSTRUCTION_REPORT]?: { apps: App[] } };

/**
 * An error thrown while an app's constructs are built (before `runApp` can catch anything)
 * ends the process as runApp ends a failed synth: `synth failed: ` and the problem list (the
 * problems recorded so far by lib/problems.ts, then the error), once, exit code 1, no stack
 * trace unless DEBUG is set. One handler per process, installed with the first PlatformApp of
 * a program run by Node (not under a test runner, whose own handler reports uncaught errors).
 */
function reportConstructionErrors(app: App): void {
  if (process.env.JEST_WORKER_ID !== undefined) return;
  const g = globalThis as ConstructionReport;
  if (g[CONSTRUCTION_REPORT]) {
    g[CONSTRUCTION_REPORT].apps.push(app);
    return;
  }
  const state = { apps: [app] };
  g[CONSTRUCTION_REPORT] = state;
  process.on('uncaughtException', (e: unknown) => {
    const message = (e as Error)?.message ?? String(e);
    const recorded = state.apps.flatMap((a) => recordedProblems(a)).filter((p) => !message.includes(p));
    const problems = e instanceof PlatformError ? [...recorded, ...e.problems] : [...recorded, message];
    process.stderr.write(`synth failed: ${new PlatformError(problems).message}\n`);
    if (process.env.DEBUG && !(e instanceof PlatformError)) process.stderr.write(`${(e as Error)?.stack}\n`);
    process.exit(1);
  });
}

/**
 * The output folder the cdk8s CLI gives the app it runs (`npx cdk8s synth` sets CDK8S_OUTDIR,
 * over any the user set, and CDK8S_RECORD_CONSTRUCT_METADATA); undefined when not run by it.
 */
export function cdk8sCliOutdir(env: Record<string, string | undefined>): string | undefined {
  return env.CDK8S_RECORD_CONSTRUCT_METADATA !== undefined && env.CDK8S_OUTDIR ? env.CDK8S_OUTDIR : undefined;
}


/**
 * Whether git ignores a folder (`git check-ignore`, run locally, no network); false without git
 * or outside a repository.
 */
export function gitIgnores(dir: string): boolean {
  const r = spawnSync('git', ['check-ignore', '-q', path.resolve(dir)], { cwd: fs.existsSync(dir) ? dir : process.cwd(), stdio: 'ignore' });
  return r.status === 0;
}

/** Where runApp reports. */
export interface RunAppOptions {
  /** @default process.stderr */
  readonly stderr?: { write(s: string): unknown };
  /** The environment (DEBUG=1 adds the stack of an unexpected error). @default process.env */
  readonly env?: Record<string, string | undefined>;
}

/**
 * Synthesizes an app the way this project's main.ts does, for an app's entry point: a
 * failure is reported once, as `synth failed: ` and the problem list (each problem with its
 * construct path), without a stack trace unless DEBUG is set and the error is not a checked
 * problem. Returns the exit code (0, or 1 on failure) and sets process.exitCode to it.
 */
export function runApp(app: App, options: RunAppOptions = {}): number {
  if ((globalThis as Registry)[LOAD_ONLY]) return 0;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  try {
    app.synth();
    return 0;
  } catch (e) {
    stderr.write(`synth failed: ${(e as Error)?.message ?? String(e)}\n`);
    if (env.DEBUG && !(e instanceof PlatformError)) stderr.write(`${(e as Error)?.stack}\n`);
    process.exitCode = 1;
    return 1;
  }
}

const STEP_WORDS: Record<string, string> = {
  validate: 'validating constructs', resolve: 'resolving components', check: 'checking', render: 'rendering YAML', done: 'built', write: 'writing files',
};

/** One progress line on a terminal, shown once a synth has taken a second; nothing otherwise. */
export class Progress {
  private readonly start = Date.now();
  private shown = false;

  constructor(private readonly out: { isTTY?: boolean; write(s: string): unknown }, private readonly afterMs = 1000) {}

  public show(platform: string, step: string, objects?: number): void {
    if (!this.out.isTTY || Date.now() - this.start < this.afterMs) return;
    const what = `${STEP_WORDS[step] ?? step}${objects !== undefined ? ` ${objects} objects` : ''}`;
    this.out.write(`\r\x1b[Ksynth${platform ? ` ${platform}` : ''}: ${what}…`);
    this.shown = true;
  }

  public clear(): void {
    if (this.shown) this.out.write('\r\x1b[K');
    this.shown = false;
  }
}
