import { App } from 'cdk8s';
import { ArgoWorkflows } from '../../constructs/argo-workflows';
import { DataSciencePipelinesOperator } from '../../constructs/data-science-pipelines-operator';
import { KubeflowPipelines } from '../../constructs/kubeflow-pipelines';
import { KFP_VERSION } from '../../constructs/kubeflow-pipelines/versions';
import { KUEUE_VERSION } from '../../constructs/kueue/versions';
import { MODEL_REGISTRY_VERSION } from '../../constructs/model-registry/versions';
import { architectureDot, architectureMarkdown, architectureMermaid, architectureOf, renderSvg } from '../../lib/architecture';
import { CertificateProvider } from '../../lib/certificates';
import { CERT_MANAGER } from '../../lib/component';
import { PHASES } from '../../lib/phases';
import { Platform } from '../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../lib/synth';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { TrainingPlatform } from '../../platforms/training';

const training: PlatformBuild = buildPlatform(new TrainingPlatform(new App(), 'training'));
const arch = architectureOf(training.model, training.largeCrds);

function pipelines() {
  const p = new Platform(new App(), 'p', { name: 'pipelines', certificates: CertificateProvider.certManager(), prerequisites: [CERT_MANAGER] });
  new ArgoWorkflows(p, 'argo-workflows');
  new KubeflowPipelines(p, 'kubeflow-pipelines');
  new DataSciencePipelinesOperator(p, 'data-science-pipelines-operator');
  const b = buildPlatform(p);
  return architectureOf(b.model, b.largeCrds);
}

describe('architectureOf', () => {
  test('lists the components in apply order with their images resolved from the versions tables', () => {
    expect(arch.components.map((c) => c.name)).toEqual(training.model.components.map((c) => c.componentName));
    const kueue = arch.components.find((c) => c.name === 'kueue')!;
    const component = training.model.components.find((c) => c.componentName === 'kueue')!;
    expect(kueue.class).toBe('Kueue');
    expect(kueue.images.map((i) => i.key)).toEqual(Object.keys(component.images).sort());
    for (const i of kueue.images) expect(i.image).toBe(component.image(i.key));
    // The version is the release the construct models (for Kueue also the tag its controller runs).
    expect(kueue.version).toBe(KUEUE_VERSION);
    const deployment = training.model.objects.find((o) => o.component === component && o.json.kind === 'Deployment')!;
    expect(deployment.json.spec.template.spec.containers[0].image.endsWith(`:${kueue.version}`)).toBe(true);
    expect(kueue.objects).toBe(training.model.objects.filter((o) => o.component === component).length);
  });

  test('a component\'s version is the release its construct declares, not the tag of its first image (issue 17.7)', () => {
    const kubeflow = DEFAULT_PLATFORMS.find((p) => p.name === 'kubeflow')!.create(new App({ outdir: '/nonexistent' }));
    const versions = new Map(architectureOf(kubeflow.resolve()).components.map((c) => [c.name, c.version]));
    // Their first workloads run MySQL (8.4, 8.0.39): not the component's version.
    expect(versions.get('kubeflow-pipelines')).toBe(KFP_VERSION);
    expect(versions.get('model-registry')).toBe(MODEL_REGISTRY_VERSION);
    // Every component of every default platform declares one.
    for (const p of DEFAULT_PLATFORMS) {
      for (const c of p.create(new App({ outdir: '/nonexistent' })).components) expect([c.componentName, typeof c.release]).toEqual([c.componentName, 'string']);
    }
  });

  test('maps every emitted CRD to its owner', () => {
    const emitted = training.model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.json.metadata.name).sort();
    expect(arch.crds.map((c) => c.name)).toEqual(emitted);
    expect(arch.crds.find((c) => c.name === 'jobsets.jobset.x-k8s.io')).toMatchObject({ owner: 'jobset', kind: 'JobSet', group: 'jobset.x-k8s.io' });
    expect(arch.crds.find((c) => c.name === 'pytorchjobs.kubeflow.org')!.owner).toBe('training-operator');
  });

  test('classifies cross-component dependencies: watches, creates, webhook, prerequisite', () => {
    expect(arch.dependencies).toContainEqual(expect.objectContaining({ from: 'kueue', to: 'training-operator', kind: 'watches', what: 'kubeflow.org/PyTorchJob', ordersApply: true }));
    // Trainer's controller creates the JobSets its TrainJobs run as.
    expect(arch.dependencies).toContainEqual(expect.objectContaining({ from: 'trainer', to: 'jobset', kind: 'creates', what: 'jobset.x-k8s.io/JobSet', ordersApply: true }));
    // A runtime-only requirement does not order the apply.
    expect(arch.dependencies).toContainEqual(expect.objectContaining({ from: 'appwrapper', to: 'kueue', kind: 'watches', what: 'kueue.x-k8s.io/Workload', ordersApply: false }));
    expect(arch.dependencies).toContainEqual(expect.objectContaining({ from: 'codeflare', to: 'opendatahub-operator', toPrerequisite: true }));
    expect(arch.dependencies).toContainEqual(expect.objectContaining({ from: 'kueue', to: 'training-operator', kind: 'webhook', what: 'kubeflow.org/PyTorchJob', ordersApply: false }));
    expect(arch.dependencies.every((d) => d.from !== d.to)).toBe(true);
  });

  test('a component using another component\'s CRD depends on its owner (crd-owner)', () => {
    const a = pipelines();
    const dspo = a.dependencies.filter((d) => d.from === 'data-science-pipelines-operator' && d.kind === 'crd-owner');
    expect(dspo.length).toBeGreaterThan(0);
    for (const d of dspo) expect(a.crds.find((c) => c.name === d.what)!.owner).toBe(d.to);
  });

  test('webhooks: service, path, failure policy; cross-component ones name the owner of the intercepted kind', () => {
    const w = arch.webhooks.find((x) => x.name === 'mpytorchjob.kb.io')!;
    expect(w).toMatchObject({ component: 'kueue', type: 'mutating', service: 'kueue-system/kueue-webhook-service:443', failurePolicy: 'Fail', crossComponent: ['training-operator'], external: false });
    expect(w.path).toMatch(/^\/mutate-kubeflow-org-v1-pytorchjob$/);
    expect(w.intercepts).toEqual(['kubeflow.org/pytorchjobs']);
    // Its own kinds are not cross-component.
    expect(arch.webhooks.find((x) => x.name === 'mclusterqueue.kb.io')!.crossComponent).toEqual([]);
    expect(arch.webhooks.filter((x) => x.type === 'conversion').every((x) => x.crossComponent.length === 0)).toBe(true);
    // Every webhook of the output is listed.
    const shipped = training.model.objects.filter((o) => /WebhookConfiguration$/.test(o.json.kind)).flatMap((o) => o.json.webhooks).length;
    expect(arch.webhooks.filter((x) => x.type !== 'conversion')).toHaveLength(shipped);
  });

  test('runtime-created webhooks are external, with the operator that creates them', () => {
    const a = pipelines();
    const external = a.webhooks.filter((w) => w.external);
    expect(external.map((w) => w.type).sort()).toEqual(['mutating', 'validating']);
    for (const w of external) {
      expect(w.component).toBe('data-science-pipelines-operator');
      expect(w.createdBy).toMatch(/^Deployment /);
      expect(w.intercepts).toEqual(['pipelines.kubeflow.org/pipelineversions']);
      expect(w.crossComponent).toEqual(['kubeflow-pipelines']);
    }
    expect(architectureMarkdown(a)).toContain('external: created at run time by Deployment');
  });

  test('cold apply: phases in apply order, every wait holds, custom resources wait for their CRD', () => {
    const phases = arch.coldApply.phases.map((p) => p.phase);
    expect(phases).toEqual(PHASES.filter((p) => phases.includes(p)));
    expect(arch.coldApply.phases.reduce((n, p) => n + p.objects, 0)).toBe(training.model.objects.length);
    expect(arch.coldApply.phases.find((p) => p.phase === '00-foundation')!.readyWhen).toContain('CRDs Established');
    expect(arch.coldApply.waits.length).toBeGreaterThan(0);
    expect(arch.coldApply.waits.filter((w) => !w.holds)).toEqual([]);
    expect(arch.coldApply.waits).toContainEqual(expect.objectContaining({ waitsFor: 'CRD clusterqueues.kueue.x-k8s.io Established', waitsForPhase: '00-foundation' }));
    expect(arch.coldApply.componentOrder.find((c) => c.component === 'trainer')!.after).toEqual(['jobset']);
  });

  test('a wait whose order is broken is reported as such', () => {
    // Move a webhook configuration before its backend: the model is what synth would write if ordering were wrong.
    const model = { ...training.model, objects: training.model.objects.map((o) => (o.json.kind === 'MutatingWebhookConfiguration' ? { ...o, phase: PHASES[0] } : o)) };
    const broken = architectureOf(model).coldApply.waits.filter((w) => !w.holds);
    expect(broken.length).toBeGreaterThan(0);
    expect(broken.every((w) => w.waiter.startsWith('MutatingWebhookConfiguration'))).toBe(true);
    expect(architectureMarkdown(architectureOf(model))).toContain('- BROKEN: MutatingWebhookConfiguration');
  });

  test('images to mirror: sorted, de-duplicated, every pod-spec image included', () => {
    expect(arch.images).toEqual([...new Set(arch.images)].sort());
    for (const o of training.model.objects) {
      for (const c of o.json.spec?.template?.spec?.containers ?? []) expect(arch.images).toContain(c.image);
    }
    for (const c of arch.components) for (const i of c.images) expect(arch.images).toContain(i.image);
  });

  test('object counts add up to the objects', () => {
    expect(Object.values(arch.objectCounts).reduce((a, b) => a + b, 0)).toBe(training.model.objects.length);
  });

  test('is deterministic', () => {
    expect(JSON.stringify(architectureOf(training.model, training.largeCrds))).toBe(JSON.stringify(arch));
  });
});

describe('graph', () => {
  test('Mermaid and DOT have a node per component and an edge per (component, dependency, kind)', () => {
    const mermaid = architectureMermaid(arch);
    const dot = architectureDot(arch);
    for (const c of arch.components) {
      expect(mermaid).toContain(`n_${c.name.replace(/-/g, '_')}["${c.name}`);
      expect(dot).toContain(`n_${c.name.replace(/-/g, '_')} [label="${c.name}\\n`);
    }
    expect(mermaid).toMatch(/n_trainer ==>\|creates: JobSet\| n_jobset/);
    expect(dot).toMatch(/n_kueue -> n_training_operator \[label="webhook: [^"]*PyTorchJob/);
    expect(dot).toContain('n_opendatahub_operator [label="opendatahub-operator\\n(prerequisite)"');
  });

  test('renders to an SVG with a node per component', async () => {
    const svg = await renderSvg(architectureDot(arch));
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/);
    // Components and prerequisites; the legend's sample nodes aside.
    const titles = [...svg.matchAll(/<g id="node\d+" class="node">\s*<title>([^<]+)<\/title>/g)].map((m) => m[1]).filter((t) => !t.startsWith('legend_')).sort();
    expect(titles).toEqual([...arch.components.map((c) => `n_${c.name.replace(/-/g, '_')}`), 'n_opendatahub_operator'].sort());
  });
});

describe('one graph direction and legend (issue 17.8)', () => {
  test('Mermaid, DOT/SVG and REPORT.md draw the dependent component first, each with the legend of edge kinds', async () => {
    const mermaid = architectureMermaid(arch);
    expect(mermaid.split('\n')[0]).toBe('%% arrows point from a component to what it depends on; --> watches (blue, solid), ==> creates (green, thick), ' +
      '-.-> crd-owner (purple, dashed), -.-> webhook (red, dotted), -.-> infrastructure (grey, dashed)');
    expect(mermaid).toMatch(/n_trainer ==>\|creates: JobSet\| n_jobset/);
    // Colours as in the SVG.
    expect(mermaid).toMatch(/linkStyle \d+ stroke:#1a7f37/);
    const dot = architectureDot(arch);
    expect(dot).toContain('subgraph cluster_legend');
    for (const kind of ['watches', 'creates', 'crd-owner', 'webhook', 'infrastructure']) expect(dot).toMatch(new RegExp(`legend_\\d_to \\[label="${kind}: `));
    const svg = await renderSvg(dot);
    expect(svg).toContain('creates: creates objects of a kind the other serves');
    expect(svg).toMatch(/stroke="#cf222e"/);
    const report = training.files.get('REPORT.md')!;
    expect(report).toContain('The arrows point from a component to what it depends on');
    // Trainer creates JobSets: it depends on JobSet, in REPORT.md as in the graph command.
    expect(report).toMatch(/ {2}trainer -->\|jobset\.x-k8s\.io\/JobSet\| jobset/);
    expect(report).not.toMatch(/ {2}jobset -->\|jobset\.x-k8s\.io\/JobSet\| trainer/);
  });
});

describe('REPORT.md', () => {
  const report = training.files.get('REPORT.md')!;

  test('keeps its sections and adds the architecture\'s dependencies, webhooks, cold apply and images to mirror', () => {
    const headings = report.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## Components in apply order', '## Prerequisites', '## Secrets', '## Kubernetes versions', '## Dependency graph', '## CRD ownership', '## Webhooks', '## Controller metrics', '## Safety exceptions', '## Deviations from upstream', '## Changed at run time',
      '## Images', '## Server-side apply', '## Warnings', '## Object counts',
      '## Cross-component dependencies', '## Webhooks per component', '## Cold apply', '## Images to mirror',
    ]);
    expect(report).toContain('| kueue | training-operator | watches | kubeflow.org/PyTorchJob | yes |');
    // Kueue declares the integrations upstream enables that the training platform leaves off.
    expect(report).toContain('- kueue (not-installed): webhook mutating mpod.kb.io missing; webhook validating vpod.kb.io missing: integration pod is not enabled');
    expect(report).toContain('The platform targets Kubernetes 1.32 or newer (kubernetesVersion).');
    const mirror = report.split('## Images to mirror')[1].split('```')[1].trim().split('\n');
    expect(mirror).toEqual(arch.images);
  });
});
