/**
 * Every default platform is applied whole to a real API server: each by a bring-up in motion
 * (every object created, `checkBringUp` or the like) less the components the server's
 * version cannot take, and those, with every CRD our compilation flags, by
 * platform-version-gates.test.ts. The serving platform by motion-serving.test.ts
 * (`mlplatform apply` on an empty cluster, every object stored, its CRD rules compiled for the
 * server's version). This checks that none lacks its files.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { DEFAULT_PLATFORMS } from '../../platforms';

/** The file that brings each default platform up, and how it names the platform there. */
const BROUGHT_UP_IN: Record<string, { file: string; names: string }> = {
  'serving': { file: 'motion-serving.test.ts', names: 'new ServingPlatform(' },
  'model-serving': { file: 'motion-odh.test.ts', names: "built('model-serving')" },
  'opendatahub': { file: 'motion-odh.test.ts', names: "built('opendatahub')" },
  'kubeflow': { file: 'motion-kubeflow.test.ts', names: "new KubeflowPlatform(new App({ outdir: '/nonexistent' }), 'kubeflow', { exampleTenant: true })" },
  'training': { file: 'motion-training.test.ts', names: "p.name === 'training'" },
};

test('every default platform has its API-server test files', () => {
  const missing = DEFAULT_PLATFORMS.map((p) => p.name).filter((name) => {
    const f = BROUGHT_UP_IN[name];
    return !f || !existsSync(join(__dirname, f.file)) || !readFileSync(join(__dirname, f.file), 'utf8').includes(f.names);
  });
  expect(missing).toEqual([]);
});
