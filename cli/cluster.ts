/**
 * `mlplatform apply`, `mlplatform diff` and `mlplatform plan`: the platform on a cluster
 * (lib/cluster/). apply and diff take the platform by name (built like `mlplatform synth`
 * builds it) or as a synthesized folder (--dir), and a kubeconfig; plan compares two
 * synthesized outputs and needs no cluster.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { ApplyOutcome, applyPlatform, ApplyStoppedError, PreflightError } from '../lib/cluster/apply';
import { InterruptedError, KubeClient, loadKubeClient, RetryOptions, UnreachableError } from '../lib/cluster/client';
import { DesiredPlatform, desiredFromDir, desiredFromModel, Json } from '../lib/cluster/desired';
import { diffPlatform, diffText, hasChanges } from '../lib/cluster/diff';
import { planOutputs, planText, PlanInputError, readOutput, unacknowledgedDanger } from '../lib/cluster/plan';
import { WaitReporter } from '../lib/cluster/waits';
import { buildPlatform } from '../lib/synth';
import { DEFAULT_PLATFORMS } from '../platforms/defaults';
import { appPlatform } from './app';
import { parseArgs } from './args';
import { APPLY_OPTIONS, DIFF_OPTIONS, PLAN_OPTIONS } from './cluster-commands';
import { CliIo, UsageError } from './io';

export { CLUSTER_COMMANDS } from './cluster-commands';

/**
 * The platform to bring to the cluster: --platform NAME (built like synth builds it) or --dir
 * FOLDER (synthesized before). The options are checked now; the returned function builds or
 * reads the platform, which takes seconds, so that callers check the kubeconfig first.
 */
function desiredOf(command: string, options: Record<string, string[]>, io: CliIo): () => DesiredPlatform {
  const name = options.platform?.[0];
  const dir = options.dir?.[0];
  const app = options.app?.[0];
  if (dir && (name || app)) throw new UsageError(`${command}: give --platform NAME (with --app FILE for your own app) or --dir FOLDER, not both`);
  if (app) {
    // Loaded now (a missing file or platform is a usage error), built when called.
    const platform = appPlatform(command, app, name, io.cwd);
    return () => desiredFromModel(buildPlatform(platform).model);
  }
  if (dir) {
    const abs = path.resolve(io.cwd, dir);
    if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new UsageError(`${command}: --dir '${dir}' is not a folder (a synthesized platform, e.g. dist/serving)`);
    return () => desiredFromDir(abs, io.cwd);
  }
  const platforms = DEFAULT_PLATFORMS.map((p) => p.name).join(', ');
  if (!name) throw new UsageError(`${command}: --platform NAME or --dir FOLDER is required (platforms: ${platforms})`);
  const entry = DEFAULT_PLATFORMS.find((p) => p.name === name);
  if (!entry) throw new UsageError(`${command}: no platform named '${name}' (platforms: ${platforms})`);
  return () => desiredFromModel(buildPlatform(entry.create(new App({ outdir: path.join('/nonexistent', 'mlplatform') }))).model);
}

/** A client for --kubeconfig (else KUBECONFIG or ~/.kube/config) and --context (else the current one). */
function clientOf(command: string, options: Record<string, string[]>, io: CliIo, retry: RetryOptions = {}): KubeClient {
  const k8s = loadKubeClient();
  const kc = new k8s.KubeConfig();
  const file = options.kubeconfig?.[0];
  if (file) {
    const abs = path.resolve(io.cwd, file);
    if (!fs.existsSync(abs)) throw new UsageError(`${command}: --kubeconfig '${file}' does not exist`);
    kc.loadFromFile(abs);
  } else {
    kc.loadFromDefault();
  }
  const context = options.context?.[0];
  if (context) {
    const names = kc.getContexts().map((c) => c.name);
    if (!names.includes(context)) throw new UsageError(`${command}: --context '${context}' is not in the kubeconfig (contexts: ${names.join(', ') || 'none'})`);
    kc.setCurrentContext(context);
  }
  return new KubeClient(kc, retry);
}

/** Lines to stderr; on a terminal, the running wait's progress overwrites one line. */
export function reporterOf(io: CliIo): WaitReporter {
  const tty = !!io.stderr.isTTY;
  let pending = false;
  return {
    line: (text) => {
      io.stderr.write(`${pending ? '\r\x1b[K' : ''}${text}\n`);
      pending = false;
    },
    progress: (text) => {
      if (!tty) return;
      io.stderr.write(`\r\x1b[K${text}`);
      pending = true;
    },
  };
}

function timeoutOf(options: Record<string, string[]>, command = 'apply'): number | undefined {
  const t = options.timeout?.[0];
  if (t === undefined) return undefined;
  const m = /^(\d+)(s|m)?$/.exec(t);
  if (!m || Number(m[1]) === 0) throw new UsageError(`${command}: --timeout '${t}' is not a duration; give seconds or minutes, e.g. 300s or 5m`);
  return Number(m[1]) * (m[2] === 'm' ? 60_000 : 1000);
}

/** What an apply did per phase (`00-foundation: 5 created, 1 configured`), for the lines after it stopped. */
function appliedByPhase(outcomes: readonly ApplyOutcome[]): string {
  const phases = new Map<string, Record<string, number>>();
  for (const o of outcomes) {
    const counts = phases.get(o.phase) ?? {};
    counts[o.action] = (counts[o.action] ?? 0) + 1;
    phases.set(o.phase, counts);
  }
  if (!phases.size) return 'nothing';
  return [...phases.entries()].map(([p, c]) => `${p}: ${Object.entries(c).map(([a, n]) => `${n} ${a}`).join(', ')}`).join('; ');
}

const shellQuote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

export async function applyCommand(args: string[], io: CliIo, version: string): Promise<number> {
  const { options, positionals } = parseArgs('apply', args, APPLY_OPTIONS);
  if (positionals.length) throw new UsageError(`apply: unexpected argument '${positionals[0]}'`);
  if (options['prune-crds'] && !options.prune) throw new UsageError('apply: --prune-crds works with --prune; add --prune');
  const timeoutMs = timeoutOf(options);
  const platform = desiredOf('apply', options, io);
  // Transient failures (429, 5xx, a connection reset) are retried with backoff within --timeout (default 60 s).
  const client = clientOf('apply', options, io, { withinMs: timeoutMs ?? 60_000 });
  const desired = platform();
  const reporter = reporterOf(io);
  const resume = `mlplatform apply ${args.map(shellQuote).join(' ')}`;
  // Ctrl-C: the request in flight finishes, nothing more is sent; a second Ctrl-C stops at once.
  let interrupts = 0;
  const onInterrupt = () => {
    if (++interrupts > 1) {
      io.stderr.write(`\nstopped at once; a request may have been in flight. To resume: ${resume}\n`);
      process.exit(130);
    }
    reporter.line('interrupt: finishing the request in flight, then stopping (press Ctrl-C again to stop at once)');
    client.interrupt();
  };
  process.on('SIGINT', onInterrupt);
  reporter.line(`apply ${desired.name} (${desired.objects.length} objects) to ${client.server}${options['dry-run'] ? ' (server-side dry run)' : ''}`);
  try {
    const result = await applyPlatform(client, desired, {
      dryRun: !!options['dry-run'],
      prune: !!options.prune,
      pruneCrds: !!options['prune-crds'],
      applySetNamespace: options['applyset-namespace']?.[0],
      adopt: options.adopt,
      timeoutMs,
      reporter,
      version,
    });
    io.stdout.write(result.unchanged ? `${desired.name}: no changes\n` : `${desired.name}: applied\n`);
    return 0;
  } catch (e) {
    const reason = e instanceof ApplyStoppedError ? e.reason : e;
    const applied = e instanceof ApplyStoppedError ? appliedByPhase(e.outcomes) : 'nothing';
    if (reason instanceof InterruptedError) {
      io.stderr.write(`interrupted: no request was sent after the interrupt; applied before it: ${applied}.\nTo resume (objects already applied are left as they are): ${resume}\n`);
      return 130;
    }
    if (reason instanceof UnreachableError) {
      io.stderr.write(`mlplatform apply failed: cannot reach the API server at ${reason.server}; re-run apply to resume (${reason.lastError}).\nApplied before: ${applied}.\nTo resume: ${resume}\n`);
      return 1;
    }
    io.stderr.write(`mlplatform apply failed: ${e instanceof PreflightError ? 'the checks before the first write found problems; ' : ''}${(e as Error).message}\n`);
    return 1;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

export async function diffCommand(args: string[], io: CliIo): Promise<number> {
  // Exit 2 for every error (as kubectl diff), 1 for changes.
  try {
    const { options, positionals } = parseArgs('diff', args, DIFF_OPTIONS);
    if (positionals.length) throw new UsageError(`diff: unexpected argument '${positionals[0]}'`);
    const platform = desiredOf('diff', options, io);
    // Transient failures are retried within --timeout (default 60 s).
    const client = clientOf('diff', options, io, { withinMs: timeoutOf(options, 'diff') ?? 60_000 });
    const desired = platform();
    const result = await diffPlatform(client, desired, { applySetNamespace: options['applyset-namespace']?.[0], showForeign: !!options['show-foreign'] });
    io.stdout.write(diffText(result));
    if (result.errors.length) return 2;
    return hasChanges(result) ? 1 : 0;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    io.stderr.write(`mlplatform diff failed: ${(e as Error).message}\n`);
    return 2;
  }
}

export async function planCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('plan', args, PLAN_OPTIONS);
  if (positionals.length) throw new UsageError(`plan: unexpected argument '${positionals[0]}'`);
  const from = options.from?.[0];
  if (!from) throw new UsageError('plan: --from REF:PATH or --from DIR is required (the output before the change)');
  const colon = from.indexOf(':');
  // The output after the change: a platform built now (--app FILE and/or --platform NAME), or a folder.
  const built = options.app || options.platform ? builtOutput(options, io) : undefined;
  if (built && options.to) throw new UsageError('plan: give --to DIR or --platform NAME (with --app FILE for your own app), not both');
  const to = built ? undefined : options.to?.[0] ?? (colon >= 0 && !fs.existsSync(path.resolve(io.cwd, from)) ? from.slice(colon + 1) : undefined);
  if (!to && !built) throw new UsageError('plan: --to DIR (or --platform NAME) is required when --from is not REF:PATH (the output after the change)');
  if (to && !fs.existsSync(path.resolve(io.cwd, to))) throw new UsageError(`plan: --to '${to}' does not exist (synthesize it first, e.g. mlplatform synth --platform NAME)`);
  if (built && colon < 0 && !fs.existsSync(path.resolve(io.cwd, from))) throw new UsageError(`plan: --from '${from}' is not a folder: with --platform, name the output at a revision as REF:PATH (e.g. main:dist/${built.name})`);
  let findings;
  try {
    findings = planOutputs(readOutput(from, io.cwd, to).objects, built ? built.objects() : readOutput(to!, io.cwd).objects);
  } catch (e) {
    if (e instanceof PlanInputError) {
      io.stderr.write(`mlplatform plan: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  // --accept-danger acknowledges every finding (after a review of the whole plan).
  const acknowledged = new Set(options['accept-danger'] ? findings.map((f) => f.key) : options.acknowledge ?? []);
  const blocking = unacknowledgedDanger(findings, acknowledged);
  if (options.format?.[0] === 'json') {
    io.stdout.write(JSON.stringify({ from, to, findings: findings.map((f) => ({ ...f, acknowledged: acknowledged.has(f.key) })), dangerous: blocking.length }, null, 2) + '\n');
  } else {
    io.stdout.write(planText(findings, acknowledged));
    if (blocking.length) io.stdout.write(`${blocking.length} dangerous change${blocking.length > 1 ? 's' : ''} not acknowledged: review, then pass --acknowledge KEY for each (or --accept-danger for all)\n`);
  }
  return blocking.length ? 1 : 0;
}

/**
 * `plan --platform NAME` (a default platform) or `--app FILE [--platform NAME]` (the user's):
 * the platform built now, its objects as synth would write them (phase files, in order).
 */
function builtOutput(options: Record<string, string[]>, io: CliIo): { name: string; objects: () => Json[] } {
  const name = options.platform?.[0];
  let platform;
  if (options.app) {
    platform = appPlatform('plan', options.app[0], name, io.cwd);
  } else {
    const entry = DEFAULT_PLATFORMS.find((p) => p.name === name);
    if (!entry) throw new UsageError(`plan: no platform named '${name}' (platforms: ${DEFAULT_PLATFORMS.map((p) => p.name).join(', ')})`);
    platform = entry.create(new App({ outdir: path.join('/nonexistent', 'mlplatform') }));
  }
  const p = platform;
  return {
    name: p.name,
    // The phase files' objects in file (apply) order, as synth writes them: nothing rendered and read back.
    objects: () => [...(buildPlatform(p).documents ?? new Map<string, Json[]>()).values()].flat() as Json[],
  };
}
