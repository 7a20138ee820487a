import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { run } from '../../cli/main';
import { MIRROR_FORMAT_CHOICES } from '../../cli/options';
import { validateCommand } from '../../cli/validate';
import { KServe } from '../../constructs/kserve';
import { MIRROR_FORMATS } from '../../lib/architecture';
import { Platform } from '../../lib/platform';
import { buildPlatform } from '../../lib/synth';
import { DEFAULT_PLATFORMS, DefaultPlatform, ServingPlatform } from '../../platforms';

// Commands build real platforms (seconds each on a shared CPU).
jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/** Runs `mlplatform <argv>` in-process; returns exit code and what it printed. */
async function cli(argv: string[], cwd = os.tmpdir()) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-cli-'));
}

describe('mlplatform', () => {
  test('--version prints the package version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    // projen writes 0.0.0 unless .projenrc.ts sets a version (day two 13).
    expect(VERSION).not.toBe('0.0.0');
  });

  test('--help and help list every command; no command is a usage error', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['synth', 'report', 'graph', 'list', 'validate', 'apply', 'diff', 'plan', 'help']) expect(help.stdout).toMatch(new RegExp(`^  ${c} +\\S`, 'm'));
    expect((await cli(['help'])).stdout).toBe(help.stdout);
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(help.stdout);
  });

  test('each command has --help (and help COMMAND) with its usage', async () => {
    for (const c of ['synth', 'report', 'graph', 'list']) {
      const r = await cli([c, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: mlplatform ${c}`));
      expect((await cli(['help', c])).stdout).toBe(r.stdout);
    }
  });

  test('fails with exit 2 and one line naming the command for an unknown command, option or value', async () => {
    const unknown = await cli(['deploy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("mlplatform: unknown command 'deploy' (commands: synth, report, graph, mirror, list, validate, apply, diff, plan, help; see mlplatform --help)\n");
    const option = await cli(['synth', '--outdir', 'x']);
    expect(option.code).toBe(2);
    expect(option.stderr.split('\n')[0]).toBe('mlplatform synth: unknown option --outdir (options: --platform, --app, --out, --repo-url, --revision, --repository-root, --gitops-path, --formats, --dsc, --dsci, --skip-unsupported, --help)');
    const format = await cli(['report', '--platform', 'serving', '--format', 'pdf']);
    expect(format.code).toBe(2);
    expect(format.stderr.split('\n')[0]).toBe("mlplatform report: --format 'pdf' is not one of md, json, svg");
    const missing = await cli(['report']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('mlplatform report: --platform NAME is required (platforms: serving, training, model-serving, kubeflow, opendatahub)');
    const platform = await cli(['graph', '--platform=nope']);
    expect(platform.code).toBe(2);
    expect(platform.stderr.split('\n')[0]).toBe("mlplatform graph: no platform named 'nope' (platforms: serving, training, model-serving, kubeflow, opendatahub)");
    const noValue = await cli(['synth', '--out']);
    expect(noValue.stderr.split('\n')[0]).toBe('mlplatform synth: --out needs a value');
    const list = await cli(['list', 'images']);
    expect(list.code).toBe(2);
    expect(list.stderr.split('\n')[0]).toBe("mlplatform list: 'images' is not one of platforms, components, versions");
  });

  test('list platforms shows every default platform with its description', async () => {
    const r = await cli(['list']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => l.split(/ +/)[0])).toEqual(DEFAULT_PLATFORMS.map((p) => p.name));
    expect((await cli(['list', 'platforms'])).stdout).toBe(r.stdout);
  });

  test('list components and versions show each component with its version and images', async () => {
    const components = await cli(['list', 'components']);
    expect(components.code).toBe(0);
    // One entry per component, with the namespaces it is placed in (day two 13: a component in another namespace was listed twice).
    expect(components.stdout).toMatch(/^kserve \(KServe\) v0\.20\.0 {2}namespaces kserve \(serving, model-serving, kubeflow\), opendatahub \(opendatahub\) {2}platforms: serving, model-serving, kubeflow, opendatahub$/m);
    expect(components.stdout.match(/^kserve /gm)).toHaveLength(1);
    // A component needing nothing newer than the oldest modelled Kubernetes says so next to the default target (day two 13).
    expect(components.stdout).not.toContain('no feature newer than the oldest');
    expect(components.stdout).toMatch(/^ {2}Kubernetes >= 1\.28: runs on every Kubernetes modelled here \(platforms target 1\.32 by default\)$/m);
    expect(components.stdout).toMatch(/^ {2}controller: kserve\/kserve-controller:v0\.20\.0$/m);
    const versions = await cli(['list', 'versions']);
    expect(versions.stdout).toContain('kserve\tcontroller\tkserve/kserve-controller:v0.20.0\tserving,model-serving,kubeflow,opendatahub\n');
    expect(versions.stdout).toMatch(/^kueue\t\w+\t.*kueue.*:v0\.\d+\.\d+\t[a-z,-]+$/m);
    // One line per image (issue 17.16): a component in several namespaces is not listed twice.
    const lines = versions.stdout.trim().split('\n');
    expect(lines.length).toBe(new Set(lines.map((l) => l.split('\t').slice(0, 3).join('\t'))).size);
    // Versions are the modelled releases, not database image tags (issue 17.7).
    expect(components.stdout).toMatch(/^kubeflow-pipelines \(KubeflowPipelines\) 2\.\d+\.\d+ /m);
    expect(components.stdout).toMatch(/^model-registry \(KubeflowModelRegistry\) v0\.\d+\.\d+ /m);
  });

  test('synth writes the platforms it names, byte for byte what buildPlatform renders', async () => {
    const dir = tmp();
    const r = await cli(['synth', '--platform', 'serving', '--out', 'out'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^serving: \d+ objects, \d+ files -> out\/serving\n$/);
    expect(fs.readdirSync(path.join(dir, 'out'))).toEqual(['serving']);
    const expected = buildPlatform(new ServingPlatform(new App(), 'serving'));
    for (const [file, text] of expected.files) if (file !== 'kustomization.yaml') expect(fs.readFileSync(path.join(dir, 'out', 'serving', file), 'utf8')).toBe(text);
    // With GitOps files, the platform's kustomization lists the phase folders, whose kustomizations carry the patches (day two 6).
    expect(fs.readFileSync(path.join(dir, 'out', 'serving', 'kustomization.yaml'), 'utf8')).toMatch(/^resources:\n {2}- 00-foundation\n {2}- 10-controllers\n/m);
  });

  test('synth fails with exit 1 listing the problems, without a stack trace, and writes nothing', async () => {
    const broken: DefaultPlatform = {
      name: 'broken',
      description: 'KServe without the inference extension',
      create: (s) => {
        const p = new Platform(s, 'broken', { name: 'broken' });
        new KServe(p, 'kserve');
        return p;
      },
    };
    const list = DEFAULT_PLATFORMS as DefaultPlatform[];
    list.push(broken);
    const dir = tmp();
    try {
      const r = await cli(['synth', '--platform', 'serving', '--platform', 'broken', '--out', 'out'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^synth failed:\nplatform broken: \d+ problems?:\n {2}- broken\/kserve: component 'kserve' \(KServe\) requires inference\.networking\.k8s\.io\/InferencePool/);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
    } finally {
      list.splice(list.indexOf(broken), 1);
    }
  });

  test('report: Markdown by default, JSON with the same content, SVG with a node per component', async () => {
    const md = await cli(['report', '--platform', 'serving']);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^# Architecture of platform serving\n/);
    for (const h of ['Components and versions', 'CRD ownership map', 'Cross-component dependencies', 'Webhooks per component', 'Cold apply', 'Server-side apply', 'Object counts by kind', 'Images to mirror', 'Dependency graph']) {
      expect(md.stdout).toContain(`\n## ${h}\n`);
    }
    const json = JSON.parse((await cli(['report', '--platform', 'serving', '--format', 'json'])).stdout);
    expect(json.platform).toBe('serving');
    expect(json.components.map((c: any) => c.name)).toEqual(['gateway-api-inference-extension', 'kserve']);
    expect(json.dependencies).toContainEqual(expect.objectContaining({ from: 'kserve', to: 'gateway-api-inference-extension' }));
    for (const image of json.images) expect(md.stdout).toContain(`\n${image}\n`);
    expect(json.graph.mermaid).toMatch(/^%% arrows point from a component to what it depends on; .*\ngraph LR\n/);
    expect(json.graph.dot).toMatch(/^digraph "serving" \{/);

    const dir = tmp();
    const svg = await cli(['report', '--platform', 'serving', '--format', 'svg', '--out', 'arch/serving.svg'], dir);
    expect(svg).toEqual({ code: 0, stdout: '', stderr: 'wrote arch/serving.svg\n' });
    const text = fs.readFileSync(path.join(dir, 'arch', 'serving.svg'), 'utf8');
    expect(text).toContain('<svg');
    // The legend's sample nodes aside.
    const nodes = [...text.matchAll(/class="node">\s*<title>([^<]+)<\/title>/g)].map((m) => m[1]).filter((t) => !t.startsWith('legend_')).sort();
    // The components, and cert-manager, a prerequisite of the serving platform.
    expect(nodes).toEqual(['n_cert_manager', 'n_gateway_api_inference_extension', 'n_kserve']);
  });

  test('graph prints Mermaid by default, DOT and SVG on request', async () => {
    const mermaid = await cli(['graph', '--platform', 'training']);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toMatch(/^%% arrows point from a component to what it depends on; .*\ngraph LR\n/);
    expect(mermaid.stdout).toContain('n_trainer ==>|creates: JobSet| n_jobset');
    const dot = await cli(['graph', '--platform', 'training', '--format', 'dot']);
    expect(dot.stdout).toContain('n_trainer -> n_jobset [label="creates: JobSet"');
    const svg = await cli(['graph', '--platform', 'training', '--format', 'svg']);
    expect(svg.stdout).toMatch(/<svg[\s\S]*<title>n_jobset<\/title>[\s\S]*<\/svg>/);
  });

  test('validate is dispatched to validateCommand with its arguments', async () => {
    for (const args of [['--help'], ['some-dir']]) {
      let stdout = '';
      let stderr = '';
      const code = await validateCommand([...args], { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd: os.tmpdir() });
      expect(await cli(['validate', ...args])).toEqual({ code, stdout, stderr });
    }
  });
});

test('the option tables the dispatcher checks agree with the commands\' (mirror formats)', () => {
  expect([...MIRROR_FORMAT_CHOICES]).toEqual([...MIRROR_FORMATS]);
});

describe('bin/mlplatform.js', () => {
  test('runs the CLI from a clone, building first: exit codes and output of a real process', () => {
    const bin = path.join(ROOT, 'bin', 'mlplatform.js');
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' })).toBe(`${VERSION}\n`);
    const usage = spawnSync(process.execPath, [bin, 'list', 'things'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe("mlplatform list: 'things' is not one of platforms, components, versions");
    expect(fs.existsSync(path.join(ROOT, 'build', 'cli', 'main.js'))).toBe(true);
  }, 120_000);

  test('--version, help and usage errors load no platform code; list reads the catalogue (issue 29.2)', () => {
    // A --require hook records every module the process loads (Module._load), as a real run does.
    const dir = tmp();
    const hook = path.join(dir, 'record-modules.js');
    fs.writeFileSync(hook, [
      "const Module = require('module');",
      'const seen = new Set();',
      'const load = Module._load;',
      'Module._load = function (request, parent, isMain) {',
      '  const loaded = load.apply(this, arguments);',
      '  try { seen.add(Module._resolveFilename(request, parent, isMain)); } catch { seen.add(request); }',
      '  return loaded;',
      '};',
      "process.on('exit', () => require('fs').writeFileSync(process.env.MLP_MODULES_OUT, JSON.stringify([...seen])));",
    ].join('\n'));
    const bin = path.join(ROOT, 'bin', 'mlplatform.js');
    const modulesOf = (args: string[]) => {
      const out = path.join(dir, 'modules.json');
      const r = spawnSync(process.execPath, ['--require', hook, bin, ...args], { encoding: 'utf8', env: { ...process.env, MLP_MODULES_OUT: out } });
      const modules: string[] = JSON.parse(fs.readFileSync(out, 'utf8'));
      // Our own modules (in build/), and those of packages.
      const ours = modules.filter((m) => m.startsWith(path.join(ROOT, 'build') + path.sep)).map((m) => path.relative(path.join(ROOT, 'build'), m));
      return { status: r.status, count: modules.length, ours, packages: modules.filter((m) => m.includes(`${path.sep}node_modules${path.sep}`)) };
    };
    const version = modulesOf(['--version']);
    expect(version.status).toBe(0);
    // 806 modules before (every command loaded every module); now the shim and Node's own (the dispatcher and its option tables for help).
    expect(version.count).toBeLessThanOrEqual(16);
    expect(version.packages).toEqual([]);
    expect(version.ours.filter((m) => !m.startsWith(`cli${path.sep}`))).toEqual([]);
    for (const args of [['help'], ['--help'], ['help', 'synth'], ['synth', '--help'], ['deploy'], ['synth', '--outdir', 'x'], ['apply', '--dry-run=client'], ['validate', '--strict'], ['list', 'images']]) {
      const r = modulesOf(args);
      // validate parses --kubernetes-version with lib/kubernetes-version (a leaf: constants and version arithmetic).
      const platformCode = r.ours.filter((m) => !m.startsWith(`cli${path.sep}`) && !(args[0] === 'validate' && m === path.join('lib', 'kubernetes-version.js')));
      expect({ args, status: r.status, packages: r.packages, ours: platformCode }).toEqual({ args, status: args.includes('help') || args.includes('--help') ? 0 : 2, packages: [], ours: [] });
      expect(r.count).toBeLessThanOrEqual(20);
    }
    // list answers from the default platforms' catalogue (cli/catalogue.json): no platform is created.
    for (const what of ['platforms', 'components', 'versions']) {
      const r = modulesOf(['list', what]);
      expect({ what, status: r.status, packages: r.packages, ours: r.ours.filter((m) => !m.startsWith(`cli${path.sep}`)) }).toEqual({ what, status: 0, packages: [], ours: [] });
    }
    // validate loads the validators, not the platforms.
    fs.writeFileSync(path.join(dir, 'service.yaml'), 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: ml}\nspec:\n  ports: [{name: http, port: 80}]\n');
    const validate = modulesOf(['validate', path.join(dir, 'service.yaml')]);
    expect(validate.status).toBe(0);
    expect(validate.ours.filter((m) => /^(constructs|platforms)\//.test(m))).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
