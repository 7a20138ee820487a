/**
 * The commands that build or inspect platforms: synth, report, graph and mirror. The
 * dispatcher (cli/main.ts) loads this module only to run one of them, after their options
 * (cli/options.ts) parsed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { appPlatform, appPlatforms } from './app';
import { parseArgs } from './args';
import { CliIo, UsageError } from './io';
import { GRAPH_OPTIONS, MIRROR_OPTIONS, REPORT_OPTIONS, SYNTH_OPTIONS } from './options';
import { architectureDot, architectureMarkdown, architectureMermaid, architectureOf, MirrorFormat, mirrorList, mirrorPairs, renderSvg } from '../lib/architecture';
import { architectureComparisonMarkdown, architectureFactsOf, compareArchitecture } from '../lib/architecture-compare';
import { GitOpsSettings, resolveGitOpsSettings } from '../lib/gitops';
import { registryMirrorProblems } from '../lib/images';
import { Platform, PlatformError } from '../lib/platform';
import { buildPlatform, effectiveGitOpsSettings, writePlatform } from '../lib/synth';
import { DEFAULT_PLATFORMS } from '../platforms/defaults';

function platformNames(): string {
  return DEFAULT_PLATFORMS.map((p) => p.name).join(', ');
}

function checkPlatformName(command: string, name: string): void {
  if (!DEFAULT_PLATFORMS.some((p) => p.name === name)) throw new UsageError(`${command}: no platform named '${name}' (platforms: ${platformNames()})`);
}

/** Creates one default platform in a fresh App (no output directory is written by creating it). */
function createPlatform(name: string): Platform {
  return DEFAULT_PLATFORMS.find((p) => p.name === name)!.create(new App({ outdir: path.join('/nonexistent', 'mlplatform') }));
}

function onePlatform(command: string, options: Record<string, string[]>): string {
  const name = options.platform?.[0];
  if (!name) throw new UsageError(`${command}: --platform NAME is required (platforms: ${platformNames()})`);
  checkPlatformName(command, name);
  return name;
}

/** The platform a command inspects: a default platform, or one of the app's (--app). */
function inspectedPlatform(command: string, options: Record<string, string[]>, io: CliIo): Platform {
  if (!options.app) return createPlatform(onePlatform(command, options));
  return appPlatform(command, options.app[0], options.platform?.[0], io.cwd);
}

function writeOut(io: CliIo, out: string | undefined, text: string): void {
  if (!out) {
    io.stdout.write(text);
    return;
  }
  const file = path.resolve(io.cwd, out);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const shown = path.relative(io.cwd, file);
  io.stderr.write(`wrote ${shown.startsWith('..') ? file : shown}\n`);
}

const FORMAT_NAMES = ['argocd', 'flux', 'helm', 'cmp'];

/** GitOps settings from synth's flags, over the environment's (MLP_*) and the example's. */
function gitopsFromFlags(options: Record<string, string[]>, io: CliIo, env: Record<string, string | undefined>): GitOpsSettings | false {
  const formats = options.formats?.[0];
  if (formats === 'none') return false;
  const list = formats?.split(',').map((f) => f.trim()).filter((f) => f);
  const unknown = (list ?? []).filter((f) => !FORMAT_NAMES.includes(f));
  if (unknown.length || (list && !list.length)) throw new UsageError(`synth: --formats '${formats}': list some of ${FORMAT_NAMES.join(', ')} (comma-separated), or 'none'`);
  const settings = effectiveGitOpsSettings({
    repoURL: options['repo-url']?.[0],
    targetRevision: options.revision?.[0],
    path: options['gitops-path']?.[0],
    repositoryRoot: options['repository-root'] && path.resolve(io.cwd, options['repository-root'][0]),
    formats: list && { argocd: list.includes('argocd'), flux: list.includes('flux'), helm: list.includes('helm'), configManagementPlugin: list.includes('cmp') },
  }, env);
  return settings ?? false;
}

/** --dsc FILE [--dsci FILE] [--skip-unsupported LIST]: the opendatahub platform a DataScienceCluster asks for (platforms/opendatahub-dsc.ts). */
function dscPlatforms(options: Record<string, string[]>, io: CliIo): Platform[] | undefined {
  if (!options.dsc) {
    const stray = ['dsci', 'skip-unsupported'].find((o) => options[o]);
    if (stray) throw new UsageError(`synth: --${stray} goes with --dsc FILE (the DataScienceCluster)`);
    return undefined;
  }
  if (options.app) throw new UsageError('synth: --dsc builds the opendatahub platform from a DataScienceCluster; give --dsc or --app, not both');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openDataHubPlatformFromFiles } = require('../platforms/opendatahub-dsc') as typeof import('../platforms/opendatahub-dsc');
  const skipUnsupported = options['skip-unsupported']?.[0].split(',').map((s) => s.trim()).filter((s) => s);
  const { platform, notes } = openDataHubPlatformFromFiles(new App({ outdir: path.join('/nonexistent', 'mlplatform') }), { dsc: options.dsc[0], dsci: options.dsci?.[0], skipUnsupported, cwd: io.cwd });
  for (const n of notes) io.stderr.write(`note: ${n}\n`);
  return [platform];
}

export async function synthCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('synth', args, SYNTH_OPTIONS);
  if (positionals.length) throw new UsageError(`synth: unexpected argument '${positionals[0]}' (name platforms with --platform NAME)`);
  // --app FILE: the user's platforms (every one, or those --platform names), else the defaults.
  const app = options.app?.[0];
  const appList = dscPlatforms(options, io) ?? (app ? appPlatforms('synth', app, io.cwd) : undefined);
  const names = options.platform ?? (appList ?? DEFAULT_PLATFORMS).map((p) => p.name);
  if (appList) {
    for (const n of names) if (!appList.some((p) => p.name === n)) throw new UsageError(`synth: no platform named '${n}' in ${app ?? `--dsc ${options.dsc}`} (platforms: ${appList.map((p) => p.name).join(', ')})`);
  } else {
    for (const n of names) checkPlatformName('synth', n);
  }
  const outdir = path.resolve(io.cwd, options.out?.[0] ?? (process.env.MLP_OUTDIR || process.env.CDK8S_OUTDIR) ?? 'dist');
  const gitops = gitopsFromFlags(options, io, process.env);
  // Bad settings fail before anything is built (the same settings writePlatform resolves).
  if (gitops) resolveGitOpsSettings('mlplatform synth', gitops, { outdir });
  // Build (and check) every platform before writing any, so that a failure leaves dist/ as it was.
  const builds = [];
  const failures: string[] = [];
  for (const name of (appList ?? DEFAULT_PLATFORMS).map((p) => p.name).filter((n) => names.includes(n))) {
    try {
      builds.push(buildPlatform(appList ? appList.find((p) => p.name === name)! : createPlatform(name), { keepRendered: true }));
    } catch (e) {
      failures.push(`platform ${name}: ${(e as Error).message}`);
      if (!(e instanceof PlatformError) && process.env.DEBUG) failures.push(String((e as Error).stack));
    }
  }
  if (failures.length) {
    io.stderr.write(`synth failed:\n${failures.join('\n')}\n`);
    return 1;
  }
  for (const b of builds) {
    const out = writePlatform(b, outdir, { gitops });
    io.stdout.write(`${b.model.platform.name}: ${b.model.objects.length} objects, ${out.files.size} files -> ${path.relative(io.cwd, out.dir) || '.'}\n`);
  }
  return 0;
}

/** The architecture document given with --compare-architecture, read from the user's path, as facts. */
function architectureDocument(file: string, io: CliIo) {
  const resolved = path.resolve(io.cwd, file);
  if (!fs.existsSync(resolved) || !fs.statSync(resolved).isFile()) throw new UsageError(`report: --compare-architecture ${file}: no such file`);
  try {
    return architectureFactsOf(fs.readFileSync(resolved, 'utf8'));
  } catch (e) {
    throw new UsageError(`report: --compare-architecture ${file}: ${(e as Error).message}`);
  }
}

export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('report', args, REPORT_OPTIONS);
  if (positionals.length) throw new UsageError(`report: unexpected argument '${positionals[0]}'`);
  const format = options.format?.[0] ?? 'md';
  const document = options['compare-architecture']?.[0];
  if (document !== undefined && format === 'svg') throw new UsageError('report: --compare-architecture prints tables; use --format md or json');
  const facts = document !== undefined ? architectureDocument(document, io) : undefined;
  const build = buildPlatform(inspectedPlatform('report', options, io));
  const a = architectureOf(build.model, build.largeCrds);
  // The platform's declared differences (Platform.declareArchitecture; the opendatahub platform's
  // are in platforms/opendatahub-architecture.ts); none for other platforms.
  const comparison = facts && compareArchitecture(a, facts, build.model.platform.architectureDeclarations);
  let text: string;
  if (format === 'json') {
    text = JSON.stringify({ ...a, graph: { mermaid: architectureMermaid(a), dot: architectureDot(a) }, ...(comparison ? { architectureComparison: comparison } : {}) }, null, 2) + '\n';
  } else if (format === 'svg') {
    text = await renderSvg(architectureDot(a));
  } else {
    text = architectureMarkdown(a) + (comparison ? `\n${architectureComparisonMarkdown(comparison)}` : '');
  }
  writeOut(io, options.out?.[0], text);
  return 0;
}

export async function graphCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('graph', args, GRAPH_OPTIONS);
  if (positionals.length) throw new UsageError(`graph: unexpected argument '${positionals[0]}'`);
  // The graph needs the resolved component graph, not the checks.
  const platform = inspectedPlatform('graph', options, io);
  const a = architectureOf(platform.resolve());
  const format = options.format?.[0] ?? 'mermaid';
  let text: string;
  if (format === 'svg') {
    text = await renderSvg(architectureDot(a));
  } else {
    text = format === 'dot' ? architectureDot(a) : architectureMermaid(a);
  }
  writeOut(io, options.out?.[0], text);
  return 0;
}

export async function mirrorCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('mirror', args, MIRROR_OPTIONS);
  if (positionals.length) throw new UsageError(`mirror: unexpected argument '${positionals[0]}'`);
  const registry = options.mirror?.[0];
  const problems = registry === undefined ? [] : registryMirrorProblems(registry);
  if (problems.length) throw new UsageError(`mirror: --mirror: ${problems[0]}`);
  const platform = inspectedPlatform('mirror', options, io);
  const pairs = mirrorPairs(architectureOf(platform.resolve()), registry);
  if (!registry && pairs.every((p) => p.source === p.destination) && (options.format?.[0] ?? 'skopeo') !== 'imageset') {
    throw new UsageError(`mirror: platform '${platform.name}' pulls from upstream registries; give --mirror REGISTRY (e.g. mirror.example.com/ml), or set the platform's images.registryMirror`);
  }
  writeOut(io, options.out?.[0], mirrorList(pairs, (options.format?.[0] ?? 'skopeo') as MirrorFormat));
  return 0;
}
