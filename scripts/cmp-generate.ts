/**
 * What Argo CD's config management plugin runs (lib/gitops/cmp.ts): builds one default
 * platform, named by the first argument (the Application's plugin env PLATFORM), and
 * prints its objects in apply order with sync waves. Exit 2 on an unknown platform,
 * 1 when the platform fails its checks.
 */
import { App } from 'cdk8s';
import { cmpStream } from '../lib/gitops';
import { PlatformError } from '../lib/platform';
import { buildPlatform } from '../lib/synth';
import { DEFAULT_PLATFORMS } from '../platforms';

const name = process.argv[2];
const entry = DEFAULT_PLATFORMS.find((p) => p.name === name);
if (!entry) {
  process.stderr.write(`cmp-generate: no platform '${name ?? ''}'; set the Application's plugin env PLATFORM to one of ${DEFAULT_PLATFORMS.map((p) => p.name).join(', ')}\n`);
  process.exit(2);
}
try {
  process.stdout.write(cmpStream(buildPlatform(entry.create(new App({ outdir: '/nonexistent' })))));
} catch (e) {
  process.stderr.write(`cmp-generate: ${(e as Error).message}\n`);
  if (!(e instanceof PlatformError) && process.env.DEBUG) process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
}
