import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../../constructs/gateway-api-inference-extension';
import { KServe } from '../../constructs/kserve';
import { architectureOf } from '../../lib/architecture';
import { CERT_MANAGER } from '../../lib/component';
import { Platform } from '../../lib/platform';
import { buildPlatform } from '../../lib/synth';

// Day two 13: REPORT.md's images to mirror listed KServe's LocalModel images with localModel: false.
function serving(localModel: boolean) {
  const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
  new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
  const kserve = new KServe(p, 'kserve', { localModel });
  const build = buildPlatform(p);
  return { kserve, arch: architectureOf(build.model, build.largeCrds), report: build.files.get('REPORT.md')! };
}

test('images to mirror and the components table list only the images a component uses (day two 13)', () => {
  const off = serving(false);
  expect(off.kserve.usedImageKeys).not.toContain('localmodelController');
  expect(off.arch.images.filter((i) => /localmodel/i.test(i))).toEqual([]);
  expect(off.arch.components.find((c) => c.name === 'kserve')!.images.map((i) => i.key)).not.toContain('localmodelNodeAgent');
  expect(off.report.split('## Images to mirror')[1] ?? off.report).not.toMatch(/localmodel/i);
  const on = serving(true);
  expect(on.kserve.usedImageKeys).toEqual(expect.arrayContaining(['localmodelController', 'localmodelNodeAgent']));
  expect(on.arch.images.filter((i) => /localmodel/i.test(i)).length).toBeGreaterThanOrEqual(2);
});
