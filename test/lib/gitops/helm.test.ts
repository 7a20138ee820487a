import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { k8s } from 'cdk8s-plus-28';
import { escapeTemplate, EXAMPLE_GITOPS_SETTINGS, HELM_HOOK_ANNOTATIONS, HELM_HOOK_PHASES, helmChart, resolveGitOpsSettings, unescapeTemplate } from '../../../lib/gitops';
import { Phase } from '../../../lib/phases';
import { buildPlatform, PlatformBuild, writeFiles } from '../../../lib/synth';
import { newPlatform, TestComponent } from '../support';
import { gitopsBuild } from './fixture';
import { findHelm, idOf, parseDocs } from './support';

const settings = resolveGitOpsSettings('test', EXAMPLE_GITOPS_SETTINGS);
const helm = findHelm();
let build: PlatformBuild;
let chart: Map<string, string>;

beforeAll(() => {
  build = gitopsBuild();
  chart = helmChart(build, settings);
  if (!helm) process.stderr.write('helm not found on the PATH: `helm template` is SKIPPED; the chart is checked by parsing its files instead\n');
});

/** The objects the platform writes (Namespaces once), in apply order. */
function synthesized(): any[] {
  return [...build.files.entries()].filter(([f]) => /^\d\d-[a-z-]+\//.test(f)).flatMap(([, t]) => parseDocs(t));
}

/** An object without the Helm hook annotations the chart adds. */
function withoutHooks(o: any): any {
  // Hooks, and the keep policy the chart puts on Namespaces (issue 17.13).
  const annotations = Object.fromEntries(Object.entries(o.metadata.annotations ?? {}).filter(([k]) => !HELM_HOOK_ANNOTATIONS.includes(k) && k !== 'helm.sh/resource-policy'));
  const metadata = { ...o.metadata, annotations };
  if (!Object.keys(annotations).length) delete metadata.annotations;
  return { ...o, metadata };
}

describe('Helm chart', () => {
  test('Chart.yaml and values.yaml', () => {
    expect(parseDocs(chart.get('helm/Chart.yaml')!)[0]).toMatchObject({ apiVersion: 'v2', name: 'gitops-test', type: 'application', version: '0.1.0' });
    expect(parseDocs(chart.get('helm/values.yaml')!)).toEqual([{}]);
  });

  test('crds/ holds exactly the CRDs; templates hold the rest; together exactly the synthesized objects', () => {
    const crds = [...chart.entries()].filter(([f]) => f.startsWith('helm/crds/')).flatMap(([, t]) => parseDocs(t));
    expect(crds.length).toBeGreaterThan(0);
    expect(crds.every((o) => o.kind === 'CustomResourceDefinition')).toBe(true);
    const templates = [...chart.entries()].filter(([f]) => f.startsWith('helm/templates/')).flatMap(([, t]) => parseDocs(unescapeTemplate(t)));
    expect(templates.some((o) => o.kind === 'CustomResourceDefinition')).toBe(false);
    const all = synthesized();
    expect([...crds, ...templates].map(withoutHooks).map(idOf).sort()).toEqual(all.map(idOf).sort());
    const byId = new Map(all.map((o) => [idOf(o), o]));
    for (const o of [...crds, ...templates]) expect(withoutHooks(o)).toEqual(byId.get(idOf(o)));
  });

  test('webhook configurations and custom resources are post-install/post-upgrade hooks weighted by phase; the rest is not', () => {
    for (const [file, text] of chart) {
      if (!file.startsWith('helm/templates/')) continue;
      const phase = file.split('/')[2] as Phase;
      for (const o of parseDocs(unescapeTemplate(text))) {
        const a = o.metadata.annotations ?? {};
        if (HELM_HOOK_PHASES.has(phase)) {
          expect([idOf(o), a['helm.sh/hook'], a['helm.sh/hook-weight']]).toEqual([idOf(o), 'post-install,post-upgrade', String(HELM_HOOK_PHASES.get(phase))]);
        } else {
          expect([idOf(o), a['helm.sh/hook']]).toEqual([idOf(o), undefined]);
        }
      }
    }
    const phases = [...chart.keys()].filter((f) => f.startsWith('helm/templates/')).map((f) => f.split('/')[2]);
    expect(new Set(phases)).toEqual(new Set([Phase.FOUNDATION, Phase.INFRASTRUCTURE, Phase.INFRASTRUCTURE_WEBHOOKS, Phase.CONTROLLERS, Phase.WEBHOOKS, Phase.RESOURCES]));
  });

  test('hooks are rendered from the objects synth wrote: the same chart as from reading the phase files back', () => {
    expect(build.documents?.size).toBeGreaterThan(0);
    for (const [file, docs] of build.documents!) expect(parseDocs(build.files.get(file)!)).toEqual(docs);
    const { documents: _documents, ...fromText } = build;
    expect(helmChart(fromText, settings)).toEqual(chart);
  });

  test('Go templates in the platform\'s data stay data under Helm', () => {
    expect(escapeTemplate('a: "{{ .Name }}"')).toBe('a: "{{ "{{" }} .Name }}"');
    expect(unescapeTemplate(escapeTemplate('x {{ y }} {{z}}'))).toBe('x {{ y }} {{z}}');
    const p = newPlatform();
    new TestComponent(p, 'widgets', 'widgets-system', (c) => {
      c.namespaceObject();
      new k8s.KubeConfigMap(c, 'Templates', { metadata: { name: 'templates', namespace: 'widgets-system' }, data: { pod: 'name: {{ .Name }}-{{.Index}}' } });
    });
    const text = helmChart(buildPlatform(p), settings).get('helm/templates/10-controllers/widgets.yaml')!;
    expect(text).not.toMatch(/\{\{ \.Name/);
    expect(parseDocs(unescapeTemplate(text))[0].data.pod).toBe('name: {{ .Name }}-{{.Index}}');
  });

  (helm ? test : test.skip)(`helm template renders exactly the synthesized objects${helm ? '' : ' (SKIPPED: helm not found)'}`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-helm-'));
    try {
      writeFiles(dir, chart);
      const rendered = parseDocs(execFileSync(helm!, ['template', 'release', path.join(dir, 'helm'), '--include-crds'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 }));
      expect(rendered.map(withoutHooks).map(idOf).sort()).toEqual(synthesized().map(idOf).sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
