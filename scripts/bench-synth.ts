// One point of the scaling sweep of `npm run bench`: builds a synthetic platform of the
// given size with every check, writes it, and prints one JSON line with the object count,
// the time of each step and the peak memory of this process. Run by scripts/bench.ts as
// `node build/scripts/bench-synth.js <tenants|components> <count> <outdir>`.
import { App } from 'cdk8s';
import { ComponentsPlatform, TenantsPlatform } from './bench-platforms';
import { Platform } from '../lib/platform';
import { buildPlatform, BuildStep, writePlatform } from '../lib/synth';

const [kind, countText, outdir] = process.argv.slice(2);
const count = Number(countText);
if (!['tenants', 'components'].includes(kind) || !Number.isInteger(count) || count < 1 || !outdir) {
  process.stderr.write('usage: bench-synth <tenants|components> <count> <outdir>\n');
  process.exit(2);
}

const started = performance.now();
const app = new App({ outdir });
const platform: Platform = kind === 'tenants' ? new TenantsPlatform(app, 'bench', count) : new ComponentsPlatform(app, 'bench', count);
const ms: Record<string, number> = { construct: performance.now() - started };
let last = performance.now();
let current = '';
let objects = 0;
const build = buildPlatform(platform, {
  onStep: (step: BuildStep | 'done', n?: number) => {
    const now = performance.now();
    if (current) ms[current] = now - last;
    current = step === 'done' ? '' : step;
    last = now;
    if (n !== undefined) objects = n;
  },
});
const writeStart = performance.now();
writePlatform(build, outdir);
ms.write = performance.now() - writeStart;
const bytes = [...build.files.values()].reduce((n, text) => n + Buffer.byteLength(text), 0);
process.stdout.write(`${JSON.stringify({ kind, count, objects, bytes, ms, totalMs: performance.now() - started, maxRssKb: process.resourceUsage().maxRSS })}\n`);
