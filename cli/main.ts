import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { appPlatform, appPlatforms } from './app';
import { OptionSpec, parseArgs } from './args';
import { applyCommand, CLUSTER_COMMANDS, diffCommand, planCommand } from './cluster';
import { CliIo, Command, UsageError } from './io';
import { validateCommand } from './validate';
import { architectureDot, architectureMarkdown, architectureMermaid, architectureOf, MirrorFormat, MIRROR_FORMATS, mirrorList, mirrorPairs, renderSvg } from '../lib/architecture';
import { architectureComparisonMarkdown, architectureFactsOf, compareArchitecture } from '../lib/architecture-compare';
import { GitOpsSettings, resolveGitOpsSettings } from '../lib/gitops';
import { registryMirrorProblems } from '../lib/images';
import { DEFAULT_KUBERNETES_VERSION, kubernetesRangeText, OLDEST_KUBERNETES_VERSION } from '../lib/kubernetes-version';
import { Platform, PlatformError } from '../lib/platform';
import { buildPlatform, effectiveGitOpsSettings, writePlatform } from '../lib/synth';
import { DEFAULT_PLATFORMS } from '../platforms';

// `mlplatform <command>`: every command takes its arguments and a CliIo and returns its
// exit code (0 ok, 1 checks failed or findings, 2 usage). Tests call `run` in-process.

interface CommandEntry {
  readonly summary: string;
  readonly usage: string;
  /** Help after the usage line. */
  readonly details: string;
  readonly run: Command;
  /** Handles its own --help (validate). @default false */
  readonly ownHelp?: boolean;
}

const FORMATS = { report: ['md', 'json', 'svg'], graph: ['mermaid', 'dot', 'svg'], mirror: MIRROR_FORMATS } as const;

/** The version in the package.json of this package (found upwards from this file: src, build/ or the package). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (pkg.name === 'cdk8s-mlplatform') return String(pkg.version);
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

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

export { appPlatforms } from './app';

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

const SYNTH_OPTIONS: Record<string, OptionSpec> = {
  'platform': { multiple: true }, 'app': {}, 'out': {}, 'repo-url': {}, 'revision': {}, 'repository-root': {}, 'gitops-path': {}, 'formats': {}, 'dsc': {}, 'dsci': {}, 'skip-unsupported': {},
};

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

async function synthCommand(args: string[], io: CliIo): Promise<number> {
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

const REPORT_OPTIONS: Record<string, OptionSpec> = { 'platform': {}, 'app': {}, 'format': { choices: FORMATS.report }, 'out': {}, 'compare-architecture': {} };

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

async function reportCommand(args: string[], io: CliIo): Promise<number> {
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

const GRAPH_OPTIONS: Record<string, OptionSpec> = { platform: {}, app: {}, format: { choices: FORMATS.graph }, out: {} };

async function graphCommand(args: string[], io: CliIo): Promise<number> {
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

const MIRROR_OPTIONS: Record<string, OptionSpec> = { platform: {}, app: {}, format: { choices: FORMATS.mirror }, mirror: {}, out: {} };

async function mirrorCommand(args: string[], io: CliIo): Promise<number> {
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

const LIST_WHAT = ['platforms', 'components', 'versions'];

async function listCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('list', args, { app: {} });
  if (positionals.length > 1) throw new UsageError(`list: one of ${LIST_WHAT.join(', ')}, not '${positionals.join(' ')}'`);
  const what = positionals[0] ?? 'platforms';
  if (!LIST_WHAT.includes(what)) throw new UsageError(`list: '${what}' is not one of ${LIST_WHAT.join(', ')}`);
  // --app FILE: the user's platforms instead of the defaults.
  const appList = options.app ? appPlatforms('list', options.app[0], io.cwd) : undefined;
  const listed = appList ? appList.map((p) => ({ name: p.name, description: `from ${options.app![0]}`, create: () => p })) : DEFAULT_PLATFORMS.map((p) => ({ ...p, create: () => createPlatform(p.name) }));
  if (what === 'platforms') {
    const width = Math.max(...listed.map((p) => p.name.length));
    for (const p of listed) io.stdout.write(`${p.name.padEnd(width)}  ${p.description}\n`);
    return 0;
  }
  // Components as the platforms configure them (resolved, not checked).
  // One entry per component (and version and images): the namespaces it is placed in, each with its platforms.
  const seen = new Map<string, { version?: string; class: string; namespaces: Map<string, string[]>; kubernetes: string; images: Map<string, string[]>; platforms: string[] }>();
  for (const p of listed) {
    const model = p.create().resolve();
    const support = new Map(model.components.map((c) => [c.componentName, c.kubernetes]));
    for (const c of architectureOf(model).components) {
      const k8s = support.get(c.name);
      // A component that needs nothing newer than the oldest modelled Kubernetes says so plainly (platforms target a newer one by default).
      const kubernetes = !k8s ? '' : k8s.min === OLDEST_KUBERNETES_VERSION && !k8s.max
        ? `Kubernetes >= ${k8s.min}: runs on every Kubernetes modelled here (platforms target ${DEFAULT_KUBERNETES_VERSION} by default)`
        : `Kubernetes ${kubernetesRangeText(k8s)} (${k8s.feature})`;
      const key = `${c.name} ${c.class} ${c.version}`;
      const entry = seen.get(key) ?? { version: c.version, class: c.class, namespaces: new Map<string, string[]>(), kubernetes, images: new Map<string, string[]>(), platforms: [] as string[] };
      entry.platforms.push(p.name);
      entry.namespaces.set(c.namespace, [...(entry.namespaces.get(c.namespace) ?? []), p.name]);
      // Each image (`key: image`) with the platforms that use it (a feature a platform turns off uses fewer).
      for (const i of c.images) entry.images.set(`${i.key}: ${i.image}`, [...(entry.images.get(`${i.key}: ${i.image}`) ?? []), p.name]);
      seen.set(key, entry);
    }
  }
  const rows = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // versions: one line per (component, key, image), with every platform that deploys it: a
  // component placed in several namespaces pulls the same images.
  const versions = new Map<string, Set<string>>();
  for (const [key, c] of rows) {
    const name = key.split(' ')[0];
    if (what === 'components') {
      const namespaces = c.namespaces.size === 1 ? `namespace ${[...c.namespaces.keys()][0]}`
        : `namespaces ${[...c.namespaces].map(([ns, ps]) => `${ns} (${ps.join(', ')})`).join(', ')}`;
      io.stdout.write(`${name} (${c.class}) ${c.version ?? '-'}  ${namespaces}  platforms: ${c.platforms.join(', ')}\n`);
      if (c.kubernetes) io.stdout.write(`  ${c.kubernetes}\n`);
      for (const [i, ps] of [...c.images].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        io.stdout.write(`  ${i}${ps.length < c.platforms.length ? `  (${ps.join(', ')})` : ''}\n`);
      }
    } else {
      for (const [i, ps] of c.images) {
        const [k, image] = [i.slice(0, i.indexOf(': ')), i.slice(i.indexOf(': ') + 2)];
        const line = `${name}\t${k}\t${image}`;
        const platforms = versions.get(line) ?? new Set<string>();
        for (const p of ps) platforms.add(p);
        versions.set(line, platforms);
      }
    }
  }
  for (const [line, platforms] of versions) io.stdout.write(`${line}\t${listed.map((p) => p.name).filter((p) => platforms.has(p)).join(',')}\n`);
  return 0;
}

async function helpCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs('help', args, {});
  const name = positionals[0];
  if (!name) {
    io.stdout.write(mainHelp());
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) throw new UsageError(`help: no command '${name}' (commands: ${Object.keys(COMMANDS).join(', ')})`);
  io.stdout.write(commandHelp(name));
  return 0;
}

const COMMANDS: Record<string, CommandEntry> = {
  synth: {
    summary: 'build, check and write the default platforms',
    usage: 'mlplatform synth [--app FILE | --dsc FILE [--dsci FILE] [--skip-unsupported LIST]] [--platform NAME]... [--out DIR] [--repo-url URL] [--revision REV] [--repository-root DIR] [--gitops-path PATH] [--formats LIST|none]',
    details: 'Builds each platform (every platform unless --platform names some), runs every check, and writes\n' +
      'DIR/<platform>/ (default $MLP_OUTDIR, else $CDK8S_OUTDIR, else dist/) in apply phases with kustomization.yaml, REPORT.md and\n' +
      'the GitOps files: byte for byte the output of `npx cdk8s synth`. Nothing is written unless every platform passes.\n' +
      'GitOps: --repo-url (MLP_REPO_URL) the repository Argo CD and Flux sync; --revision (MLP_TARGET_REVISION);\n' +
      'paths in it follow DIR, relative to the repository root: the nearest folder with .git, or --repository-root\n' +
      '(MLP_REPOSITORY_ROOT), or give --gitops-path (MLP_GITOPS_PATH); --formats (MLP_GITOPS_FORMATS) some of\n' +
      'argocd, flux, helm, cmp (default argocd,flux), or none.\n' +
      '--dsc FILE builds the opendatahub platform from an Open Data Hub DataScienceCluster (ODH operator v3.4.0\'s\n' +
      'datasciencecluster.opendatahub.io v1 or v2), --dsci FILE from its DSCInitialization (v1 or v2; default: the one\n' +
      'the operator creates at first install). Each component\'s managementState turns components on (Managed) or off\n' +
      '(Removed); KServe\'s rawDeploymentServiceConfig, nim, wva and modelsAsService, the workbench and registries\n' +
      'namespaces, and the DSCI\'s applicationsNamespace, monitoring namespace and trustedCABundle become props. Both\n' +
      'files are checked against the operator\'s API: an unknown field fails with "did you mean", a bad value with the\n' +
      'values allowed. A Managed component the project does not provide (dashboard, trustyai, feastoperator) fails\n' +
      'unless --skip-unsupported LIST (comma-separated) names it. See README "From a DataScienceCluster".',
    run: synthCommand,
  },
  report: {
    summary: 'the architecture page of a platform',
    usage: 'mlplatform report (--platform NAME | --app FILE [--platform NAME]) [--format md|json|svg] [--out FILE] [--compare-architecture FILE]',
    details: 'Builds and checks the platform, then prints (or writes to FILE) its architecture: components with\n' +
      'versions and images, CRD ownership, cross-component dependencies, webhooks, the cold-apply order,\n' +
      'server-side apply, object counts, images to mirror and the dependency graph. md (default) is Markdown,\n' +
      'json the same content as data, svg the dependency graph as a picture.\n' +
      '--app FILE inspects your own app instead of a default platform: the compiled .js (or .ts with ts-node in\n' +
      'the project) is loaded without synthesizing; its PlatformApps\' platforms (and exported Apps or Platforms) count.\n' +
      '--compare-architecture FILE reads an architecture document (Markdown tables: CRD ownership, dependencies,\n' +
      'webhooks) and adds, row by row, the document\'s rows next to the platform\'s, each difference classified by\n' +
      'the platform\'s declarations (Platform.declareArchitecture; opendatahub declares its own) or marked undeclared.',
    run: reportCommand,
  },
  graph: {
    summary: 'the dependency graph of a platform',
    usage: 'mlplatform graph (--platform NAME | --app FILE [--platform NAME]) [--format mermaid|dot|svg] [--out FILE]',
    details: 'Prints the component dependency graph (arrows point from a component to what it depends on; the\n' +
      'legend names each edge kind, its colour and line) as ' +
      'Mermaid (default), Graphviz DOT or SVG. --app FILE: as for report.',
    run: graphCommand,
  },
  mirror: {
    summary: 'the images of a platform, from their sources to a registry mirror',
    usage: 'mlplatform mirror (--platform NAME | --app FILE [--platform NAME]) [--mirror REGISTRY] [--format skopeo|imageset|tsv] [--out FILE]',
    details: 'Prints each image the platform pulls with its upstream source, for a copy tool: skopeo (default) one\n' +
      '`skopeo copy --all docker://SOURCE docker://DESTINATION` line per image; imageset an oc-mirror\n' +
      'ImageSetConfiguration (mirror.openshift.io/v2alpha1) listing the sources; tsv source TAB destination.\n' +
      'Destinations are the platform\'s images.registryMirror, or --mirror REGISTRY (the same path mapping).',
    run: mirrorCommand,
  },
  list: {
    summary: 'the default platforms, their components, or the image versions',
    usage: 'mlplatform list [platforms|components|versions] [--app FILE]',
    details: 'platforms (default): name and description; components: each component with its version,\n' +
      'namespace, platforms and images; versions: one line per image (component, key, image, platforms), tab-separated.',
    run: listCommand,
  },
  validate: {
    summary: 'validate manifests',
    usage: 'mlplatform validate ...',
    details: 'See `mlplatform validate --help`.',
    run: (args, io) => validateCommand(args, io),
    ownHelp: true,
  },
  apply: { ...CLUSTER_COMMANDS.apply, run: (args, io) => applyCommand(args, io, packageVersion()) },
  diff: { ...CLUSTER_COMMANDS.diff, run: diffCommand },
  plan: { ...CLUSTER_COMMANDS.plan, run: planCommand },
  help: {
    summary: 'this help, or a command\'s',
    usage: 'mlplatform help [COMMAND]',
    details: '',
    run: helpCommand,
  },
};

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    `mlplatform ${packageVersion()}: build, check and explain AI/ML platforms composed with cdk8s-mlplatform.`,
    '',
    'Usage: mlplatform <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([k, c]) => `  ${k.padEnd(width)}  ${c.summary}`),
    '',
    `Platforms: ${platformNames()}.`,
    'Options: --help (also after a command), --version.',
    'Exit codes: 0 ok, 1 checks failed or findings, 2 usage error. DEBUG=1 shows stack traces of unexpected errors.',
    '',
  ].join('\n');
}

function commandHelp(name: string): string {
  const c = COMMANDS[name];
  return `Usage: ${c.usage}\n\n${c.summary[0].toUpperCase()}${c.summary.slice(1)}.${c.details ? `\n\n${c.details}` : ''}\n`;
}

/** Runs `mlplatform <argv>`; returns the exit code. Never throws. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout).write(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    io.stderr.write(`mlplatform: unknown command '${name}' (commands: ${Object.keys(COMMANDS).join(', ')}; see mlplatform --help)\n`);
    return 2;
  }
  if (!entry.ownHelp && (args.includes('--help') || args.includes('-h'))) {
    io.stdout.write(commandHelp(name));
    return 0;
  }
  try {
    return await entry.run(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`mlplatform ${e.message}\n\n${commandHelp(name)}`);
      return 2;
    }
    // PlatformError lists every problem with its construct path; other errors name theirs.
    io.stderr.write(`mlplatform ${name} failed: ${(e as Error).message ?? String(e)}\n`);
    if (process.env.DEBUG && !(e instanceof PlatformError)) io.stderr.write(`${(e as Error).stack}\n`);
    return 1;
  }
}
