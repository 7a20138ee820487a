import { PlatformError } from './lib/platform';
import { PlatformApp } from './lib/synth';
import { DEFAULT_PLATFORMS } from './platforms';

// The default platforms that `npx cdk8s synth` writes to dist/.
const app = new PlatformApp({ outdir: process.env.CDK8S_OUTDIR ?? 'dist' });
// MLP_PLATFORMS (comma-separated names) synthesizes some of them: only those are constructed.
// With a name that is no default platform all are, so that PlatformApp's error lists them.
const only = process.env.MLP_PLATFORMS?.split(',').map((n) => n.trim()).filter((n) => n);
const known = !only || only.every((n) => DEFAULT_PLATFORMS.some((p) => p.name === n));
for (const p of DEFAULT_PLATFORMS) if (!only || !known || only.includes(p.name)) p.create(app);

try {
  app.synth();
} catch (e) {
  // A checked problem is reported as a list naming each construct path, not a stack trace.
  // Constructors throw plain errors that already name the construct path, the prop and the fix.
  process.stderr.write(`synth failed: ${(e as Error).message}\n`);
  if (process.env.DEBUG && !(e instanceof PlatformError)) process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
}
