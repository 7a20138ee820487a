import * as fs from 'fs';
import * as path from 'path';
import { App, AppProps } from 'cdk8s';
import { Finding, isError, largeCrds as largeCrdObjects, runChecks, SERVER_SIDE_APPLY_BYTES } from './checks';
import { Component } from './component';
import { EXAMPLE_GITOPS_SETTINGS, Fleet, fleetPlacement, GitOpsSettings, gitopsFiles, ResolvedGitOpsSettings, resolveGitOpsSettings } from './gitops';
import { PHASES } from './phases';
import { Platform, PlatformError, PlatformModel, PlatformObject, platformsOf } from './platform';
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
   * The objects of each phase file of `files` (`<phase>/<nn>-<component>.yaml`), as written,
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
  const setDocuments = (file: string, docs: any[]) => {
    documents.set(file, docs);
    files.set(file, toYaml(docs));
  };
  // Apply order, as the files list them (MLP055 measured the objects once for the checks).
  const largeCrds = largeCrdObjects(model).map((o) => o.json.metadata.name as string);
  const index = new Map(model.components.map((c, i) => [c, i + 1]));
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
      setDocuments(`${phase}/${String(index.get(c)).padStart(2, '0')}-${c.componentName}.yaml`, objs.map((o) => o.json));
    }
  }
  const drift = versionDrift(model.components, platform.imageSettings.versions ?? VersionsTable.DEFAULT);
  files.set('REPORT.md', platformReport(model, largeCrds, warnings) + versionDriftReport(drift));
  // sortOptions fifo (kustomize v5): render in the listed order, not kustomize's kind order,
  // which would move Namespaces ahead of every CRD and webhooks ahead of their backends.
  files.set('kustomization.yaml', toYaml([{
    apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', sortOptions: { order: 'fifo' }, resources: [...files.keys()].filter((f) => f.endsWith('.yaml')),
  }]));
  step('done', model.objects.length);
  return { model, files, largeCrds, warnings, documents };
}

function toYaml(docs: unknown[]): string {
  return toYamlDocuments(docs);
}

/** Writes a built platform to outdir/<platform>/, replacing what was there. */
export function writePlatform(build: PlatformBuild, outdir: string): void {
  replaceFiles(path.join(outdir, build.model.platform.name), build.files);
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
   * (argocd/, flux/, helm/, phase kustomizations; see lib/gitops); false writes none.
   * @default EXAMPLE_GITOPS_SETTINGS (a placeholder repository: set yours before syncing)
   */
  readonly gitops?: GitOpsSettings | false;
}

/**
 * A cdk8s App whose synth builds every Platform in it: checks run on every synth, and
 * output goes to <outdir>/<platform>/<phase>/ instead of one file per chart. Synths that
 * take longer than a second show a progress line on stderr when it is a terminal.
 */
export class PlatformApp extends App {
  private readonly only?: string[];
  private readonly gitops?: GitOpsSettings;

  constructor(props: PlatformAppProps = {}) {
    super(props);
    this.gitops = props.gitops === false ? undefined : props.gitops ?? EXAMPLE_GITOPS_SETTINGS;
    this.only = props.platforms ?? process.env.MLP_PLATFORMS?.split(',').map((n) => n.trim()).filter((n) => n);
  }

  public synth(): void {
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
      try {
        gitops = this.gitops && resolveGitOpsSettings('PlatformApp', this.gitops);
      } catch (e) {
        gitopsError = e;
      }
      // Each platform's output (its files and GitOps files) is rendered as soon as it is built,
      // so that its model (the JSON of every object) can be released before the next one is
      // built; nothing is written until every platform has built.
      const outputs: Array<{ platform: Platform; dir: string; files: Map<string, string>; gitops?: Map<string, string> }> = [];
      for (const p of platforms) {
        const b = buildPlatform(p, { onStep: (s, n) => progress.show(p.name, s, n) });
        // A fleet's platforms go to dist/fleet/<fleet>/<cluster>/<platform>/.
        const placement = fleetPlacement(b);
        const dir = path.join(placement ? path.join(this.outdir, placement.folder) : this.outdir, p.name);
        let files: Map<string, string> | undefined;
        if (gitops && placement) files = gitopsFiles(b, placement.settings, { base: `${placement.settings.path}/${placement.folder}`, namePrefix: `${placement.cluster}-` });
        else if (gitops) files = gitopsFiles(b, gitops);
        outputs.push({ platform: p, dir, files: b.files, gitops: files });
      }
      if (gitopsError) throw gitopsError;
      progress.show('', 'write');
      for (const o of outputs) {
        replaceFiles(o.dir, o.files);
        if (o.gitops) writeFiles(o.dir, o.gitops);
      }
      const built = new Set(outputs.map((o) => o.platform));
      for (const fleet of this.node.findAll().filter((c): c is Fleet => c instanceof Fleet)) {
        if ([...fleet.platforms.values()].every((p) => built.has(p))) writeFiles(this.outdir, fleet.files());
      }
    } finally {
      progress.clear();
    }
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
