import { PlatformError } from './lib/platform';
import { PlatformApp } from './lib/synth';
import { KubeflowPlatform } from './platforms/kubeflow';
import { ModelServingPlatform } from './platforms/model-serving';
import { ServingPlatform } from './platforms/serving';
import { TrainingPlatform } from './platforms/training';

// The default platforms that `npx cdk8s synth` writes to dist/.
const app = new PlatformApp({ outdir: process.env.CDK8S_OUTDIR ?? 'dist' });
new ServingPlatform(app, 'serving');
new TrainingPlatform(app, 'training');
new ModelServingPlatform(app, 'model-serving');
new KubeflowPlatform(app, 'kubeflow');

try {
  app.synth();
} catch (e) {
  // A checked problem is reported as a list naming each construct path, not a stack trace.
  // Constructors throw plain errors that already name the construct path, the prop and the fix.
  process.stderr.write(`synth failed: ${(e as Error).message}\n`);
  if (process.env.DEBUG && !(e instanceof PlatformError)) process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
}
