import { PlatformApp, runApp } from './lib/synth';
import { DEFAULT_PLATFORMS } from './platforms/defaults';

// The default platforms that `npx cdk8s synth` writes to dist/ (MLP_OUTDIR, else the CLI's
// CDK8S_OUTDIR: `cdk8s synth -o DIR`). GitOps settings come from MLP_REPO_URL, MLP_TARGET_REVISION,
// MLP_GITOPS_PATH, MLP_REPOSITORY_ROOT and MLP_GITOPS_FORMATS (see PlatformAppProps.gitops).
const app = new PlatformApp();
// MLP_PLATFORMS (comma-separated names) synthesizes some of them: only those are constructed.
// With a name that is no default platform all are, so that PlatformApp's error lists them.
const only = process.env.MLP_PLATFORMS?.split(',').map((n) => n.trim()).filter((n) => n);
const known = !only || only.every((n) => DEFAULT_PLATFORMS.some((p) => p.name === n));
for (const p of DEFAULT_PLATFORMS) if (!only || !known || only.includes(p.name)) p.create(app);

// A checked problem is reported as a list naming each construct path, not a stack trace (DEBUG=1 adds
// the stack of an unexpected error); the exit code is 1.
runApp(app);
