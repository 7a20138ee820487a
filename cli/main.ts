import * as fs from 'fs';
import * as path from 'path';
import { OptionSpec, parseArgs } from './args';
import { CLUSTER_COMMANDS, APPLY_OPTIONS, DIFF_OPTIONS, PLAN_OPTIONS } from './cluster-commands';
import { CliIo, Command, UsageError } from './io';
import { GRAPH_OPTIONS, LIST_OPTIONS, MIRROR_OPTIONS, REPORT_OPTIONS, SYNTH_OPTIONS } from './options';
/* eslint-disable @typescript-eslint/no-require-imports */

// `mlplatform <command>`: every command takes its arguments and a CliIo and returns its
// exit code (0 ok, 1 checks failed or findings, 2 usage). Tests call `run` in-process.
//
// This module loads no platform code: --version, help and usage errors answer at once. A
// command's module (and the library it needs) is loaded only to run it, after its options
// parsed; `list` reads the default platforms' catalogue (cli/catalogue.json).

interface CommandEntry {
  readonly summary: string;
  readonly usage: string;
  /** Help after the usage line. */
  readonly details: string;
  /** Loads the command's module and returns the command. */
  readonly load: () => Command;
  /** The command's options, checked before its module is loaded (a command that parses its own has none here). */
  readonly options?: Record<string, OptionSpec>;
  /** Handles its own --help (validate). @default false */
  readonly ownHelp?: boolean;
}

const platformCommands = () => require('./platform-commands') as typeof import('./platform-commands');
const clusterCommands = () => require('./cluster') as typeof import('./cluster');

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


/** The default platforms' names, from their catalogue (no platform is loaded). */
function platformNames(): string {
  return (require('./catalogue') as typeof import('./catalogue')).defaultCatalogue().platforms.map((p) => p.name).join(', ');
}

/** `appPlatforms` of cli/app.ts (loaded when called). */
export function appPlatforms(command: string, file: string, cwd: string): import('../lib/platform').Platform[] {
  return (require('./app') as typeof import('./app')).appPlatforms(command, file, cwd);
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
    options: SYNTH_OPTIONS,
    load: () => platformCommands().synthCommand,
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
    options: REPORT_OPTIONS,
    load: () => platformCommands().reportCommand,
  },
  graph: {
    summary: 'the dependency graph of a platform',
    usage: 'mlplatform graph (--platform NAME | --app FILE [--platform NAME]) [--format mermaid|dot|svg] [--out FILE]',
    details: 'Prints the component dependency graph (arrows point from a component to what it depends on; the\n' +
      'legend names each edge kind, its colour and line) as ' +
      'Mermaid (default), Graphviz DOT or SVG. --app FILE: as for report.',
    options: GRAPH_OPTIONS,
    load: () => platformCommands().graphCommand,
  },
  mirror: {
    summary: 'the images of a platform, from their sources to a registry mirror',
    usage: 'mlplatform mirror (--platform NAME | --app FILE [--platform NAME]) [--mirror REGISTRY] [--format skopeo|imageset|tsv] [--out FILE]',
    details: 'Prints each image the platform pulls with its upstream source, for a copy tool: skopeo (default) one\n' +
      '`skopeo copy --all docker://SOURCE docker://DESTINATION` line per image; imageset an oc-mirror\n' +
      'ImageSetConfiguration (mirror.openshift.io/v2alpha1) listing the sources; tsv source TAB destination.\n' +
      'Destinations are the platform\'s images.registryMirror, or --mirror REGISTRY (the same path mapping).',
    options: MIRROR_OPTIONS,
    load: () => platformCommands().mirrorCommand,
  },
  list: {
    summary: 'the default platforms, their components, or the image versions',
    usage: 'mlplatform list [platforms|components|versions] [--app FILE]',
    details: 'platforms (default): name and description; components: each component with its version,\n' +
      'namespace, platforms and images; versions: one line per image (component, key, image, platforms), tab-separated.',
    options: LIST_OPTIONS,
    load: () => (require('./list') as typeof import('./list')).listCommand,
  },
  validate: {
    summary: 'validate manifests',
    usage: 'mlplatform validate ...',
    details: 'See `mlplatform validate --help`.',
    load: () => (require('./validate') as typeof import('./validate')).validateCommand,
    ownHelp: true,
  },
  apply: { ...CLUSTER_COMMANDS.apply, options: APPLY_OPTIONS, load: () => (args, io) => clusterCommands().applyCommand(args, io, packageVersion()) },
  diff: { ...CLUSTER_COMMANDS.diff, options: DIFF_OPTIONS, load: () => clusterCommands().diffCommand },
  plan: { ...CLUSTER_COMMANDS.plan, options: PLAN_OPTIONS, load: () => clusterCommands().planCommand },
  help: {
    summary: 'this help, or a command\'s',
    usage: 'mlplatform help [COMMAND]',
    details: '',
    load: () => helpCommand,
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
    // A bad option is reported before the command's module is loaded.
    if (entry.options) parseArgs(name, args, entry.options);
    return await entry.load()(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`mlplatform ${e.message}\n\n${commandHelp(name)}`);
      return 2;
    }
    // PlatformError lists every problem with its construct path; other errors name theirs.
    io.stderr.write(`mlplatform ${name} failed: ${(e as Error).message ?? String(e)}\n`);
    if (process.env.DEBUG && !(e instanceof (require('../lib/platform') as typeof import('../lib/platform')).PlatformError)) io.stderr.write(`${(e as Error).stack}\n`);
    return 1;
  }
}
