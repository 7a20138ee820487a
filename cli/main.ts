import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { architectureDot, architectureMarkdown, architectureMermaid, architectureOf, renderSvg } from '../lib/architecture';
import { Platform, PlatformError } from '../lib/platform';
import { buildPlatform, writePlatform } from '../lib/synth';
import { DEFAULT_PLATFORMS } from '../platforms';
import { OptionSpec, parseArgs } from './args';
import { applyCommand, CLUSTER_COMMANDS, diffCommand, planCommand } from './cluster';
import { CliIo, Command, UsageError } from './io';
import { validateCommand } from './validate';

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

const FORMATS = { report: ['md', 'json', 'svg'], graph: ['mermaid', 'dot', 'svg'] } as const;

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

const SYNTH_OPTIONS: Record<string, OptionSpec> = { platform: { multiple: true }, out: {} };

async function synthCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('synth', args, SYNTH_OPTIONS);
  if (positionals.length) throw new UsageError(`synth: unexpected argument '${positionals[0]}' (name platforms with --platform NAME)`);
  const names = options.platform ?? DEFAULT_PLATFORMS.map((p) => p.name);
  for (const n of names) checkPlatformName('synth', n);
  const outdir = path.resolve(io.cwd, options.out?.[0] ?? 'dist');
  // Build (and check) every platform before writing any, so that a failure leaves dist/ as it was.
  const builds = [];
  const failures: string[] = [];
  for (const name of DEFAULT_PLATFORMS.map((p) => p.name).filter((n) => names.includes(n))) {
    try {
      builds.push(buildPlatform(createPlatform(name)));
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
    writePlatform(b, outdir);
    io.stdout.write(`${b.model.platform.name}: ${b.model.objects.length} objects, ${b.files.size} files -> ${path.relative(io.cwd, path.join(outdir, b.model.platform.name)) || '.'}\n`);
  }
  return 0;
}

const REPORT_OPTIONS: Record<string, OptionSpec> = { platform: {}, format: { choices: FORMATS.report }, out: {} };

async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('report', args, REPORT_OPTIONS);
  if (positionals.length) throw new UsageError(`report: unexpected argument '${positionals[0]}'`);
  const name = onePlatform('report', options);
  const build = buildPlatform(createPlatform(name));
  const a = architectureOf(build.model, build.largeCrds);
  const format = options.format?.[0] ?? 'md';
  let text: string;
  if (format === 'json') {
    text = JSON.stringify({ ...a, graph: { mermaid: architectureMermaid(a), dot: architectureDot(a) } }, null, 2) + '\n';
  } else if (format === 'svg') {
    text = await renderSvg(architectureDot(a));
  } else {
    text = architectureMarkdown(a);
  }
  writeOut(io, options.out?.[0], text);
  return 0;
}

const GRAPH_OPTIONS: Record<string, OptionSpec> = { platform: {}, format: { choices: FORMATS.graph }, out: {} };

async function graphCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('graph', args, GRAPH_OPTIONS);
  if (positionals.length) throw new UsageError(`graph: unexpected argument '${positionals[0]}'`);
  const name = onePlatform('graph', options);
  // The graph needs the resolved component graph, not the checks.
  const platform = createPlatform(name);
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

const LIST_WHAT = ['platforms', 'components', 'versions'];

async function listCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs('list', args, {});
  if (positionals.length > 1) throw new UsageError(`list: one of ${LIST_WHAT.join(', ')}, not '${positionals.join(' ')}'`);
  const what = positionals[0] ?? 'platforms';
  if (!LIST_WHAT.includes(what)) throw new UsageError(`list: '${what}' is not one of ${LIST_WHAT.join(', ')}`);
  if (what === 'platforms') {
    const width = Math.max(...DEFAULT_PLATFORMS.map((p) => p.name.length));
    for (const p of DEFAULT_PLATFORMS) io.stdout.write(`${p.name.padEnd(width)}  ${p.description}\n`);
    return 0;
  }
  // Components as the default platforms configure them (resolved, not checked).
  const seen = new Map<string, { version?: string; class: string; namespace: string; images: Array<{ key: string; image: string }>; platforms: string[] }>();
  for (const p of DEFAULT_PLATFORMS) {
    for (const c of architectureOf(createPlatform(p.name).resolve()).components) {
      const key = `${c.name} ${c.class} ${c.namespace} ${c.version} ${JSON.stringify(c.images)}`;
      const entry = seen.get(key) ?? { version: c.version, class: c.class, namespace: c.namespace, images: c.images, platforms: [] as string[] };
      entry.platforms.push(p.name);
      seen.set(key, entry);
    }
  }
  const rows = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, c] of rows) {
    const name = key.split(' ')[0];
    if (what === 'components') {
      io.stdout.write(`${name} (${c.class}) ${c.version ?? '-'}  namespace ${c.namespace}  platforms: ${c.platforms.join(', ')}\n`);
      for (const i of c.images) io.stdout.write(`  ${i.key}: ${i.image}\n`);
    } else {
      for (const i of c.images) io.stdout.write(`${name}\t${i.key}\t${i.image}\n`);
    }
  }
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
    usage: 'mlplatform synth [--platform NAME]... [--out DIR]',
    details: 'Builds each platform (every platform unless --platform names some), runs every check, and writes\n' +
      'DIR/<platform>/ (default dist/) in apply phases with kustomization.yaml and REPORT.md; the same\n' +
      'output as `npx cdk8s synth`. Nothing is written unless every platform passes.',
    run: synthCommand,
  },
  report: {
    summary: 'the architecture page of a platform',
    usage: 'mlplatform report --platform NAME [--format md|json|svg] [--out FILE]',
    details: 'Builds and checks the platform, then prints (or writes to FILE) its architecture: components with\n' +
      'versions and images, CRD ownership, cross-component dependencies, webhooks, the cold-apply order,\n' +
      'server-side apply, object counts, images to mirror and the dependency graph. md (default) is Markdown,\n' +
      'json the same content as data, svg the dependency graph as a picture.',
    run: reportCommand,
  },
  graph: {
    summary: 'the dependency graph of a platform',
    usage: 'mlplatform graph --platform NAME [--format mermaid|dot|svg] [--out FILE]',
    details: 'Prints the component dependency graph (arrows point at what a component depends on) as\n' +
      'Mermaid (default), Graphviz DOT or SVG.',
    run: graphCommand,
  },
  list: {
    summary: 'the default platforms, their components, or the image versions',
    usage: 'mlplatform list [platforms|components|versions]',
    details: 'platforms (default): name and description; components: each component with its version,\n' +
      'namespace, platforms and images; versions: one line per image (component, key, image), tab-separated.',
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
