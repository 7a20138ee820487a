import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { Construct } from 'constructs';
import { gitopsPlatform } from './fixture';
import { parseDocs } from './support';
import { CertificateProvider } from '../../../lib/certificates';
import { ClusterSettings, Fleet, FleetProps } from '../../../lib/gitops';
import { Platform } from '../../../lib/platform';
import { buildPlatform, PlatformApp } from '../../../lib/synth';
import { ServingPlatform } from '../../../platforms';

const factory = (scope: Construct, _cluster: string, s: ClusterSettings) =>
  gitopsPlatform(scope, 'batch', { registryMirror: s.registryMirror, certificates: s.certificates, replicas: s.replicas });

const CLUSTERS: FleetProps['clusters'] = {
  east: { server: 'https://east.example.com:6443', registryMirror: 'mirror.east.example.com/ml', replicas: 2, certificates: CertificateProvider.selfManaged() },
  west: { server: 'https://west.example.com:6443', certificates: CertificateProvider.certManager() },
};
const GITOPS = { repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main' };

function fleet(app: Construct = new App({ outdir: '/nonexistent' }), props: Partial<FleetProps> = {}): Fleet {
  return new Fleet(app, 'fleet', { name: 'prod', clusters: CLUSTERS, platform: factory, gitops: GITOPS, ...props });
}

describe('Fleet', () => {
  test('one platform definition, built per cluster with that cluster\'s mirror, replicas and certificate provider', () => {
    const f = fleet();
    expect([...f.platforms.keys()]).toEqual(['east', 'west']);
    const [east, west] = [...f.platforms.values()].map((p) => buildPlatform(p));
    const deployment = (b: typeof east, name: string) => b.model.objects.find((o) => o.json.kind === 'Deployment' && o.json.metadata.name === name)!.json;
    expect(deployment(east, 'kueue-controller-manager').spec.template.spec.containers[0].image).toMatch(/^mirror\.east\.example\.com\/ml\/kueue\/kueue:/);
    expect(deployment(west, 'kueue-controller-manager').spec.template.spec.containers[0].image).toMatch(/^registry\.k8s\.io\/kueue\/kueue:/);
    expect(deployment(east, 'kueue-controller-manager').spec.replicas).toBe(2);
    expect(deployment(west, 'kueue-controller-manager').spec.replicas).not.toBe(2);
    // Self-managed certificates: Kueue rotates its own (a run-time change); under cert-manager it does not.
    expect(east.model.runtimeChanges.some((r) => r.name === 'kueue-webhook-server-cert')).toBe(true);
    expect(west.model.runtimeChanges.some((r) => r.name === 'kueue-webhook-server-cert')).toBe(false);
  });

  test('an ApplicationSet with a list generator over the clusters, each deploying its app of apps', () => {
    const set = fleet().applicationSet();
    expect(set).toMatchObject({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'prod', namespace: 'argocd' } });
    expect(set.spec.generators).toEqual([{
      list: {
        elements: [
          { cluster: 'east', server: 'https://east.example.com:6443', platform: 'batch', path: 'dist/fleet/prod/east/batch/argocd/apps' },
          { cluster: 'west', server: 'https://west.example.com:6443', platform: 'batch', path: 'dist/fleet/prod/west/batch/argocd/apps' },
        ],
      },
    }]);
    expect(set.spec.template.metadata.name).toBe('{{.cluster}}-{{.platform}}');
    expect(set.spec.template.spec.source).toEqual({ repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main', path: '{{.path}}' });
  });

  test('PlatformApp writes each cluster under dist/fleet/<fleet>/<cluster>/, phase Applications named per cluster and aimed at it', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-fleet-'));
    try {
      const app = new PlatformApp({ outdir, gitops: GITOPS });
      fleet(app);
      app.synth();
      expect(fs.readdirSync(outdir)).toEqual(['fleet']);
      expect(fs.readdirSync(path.join(outdir, 'fleet/prod')).sort()).toEqual(['applicationset.yaml', 'east', 'west']);
      const set = parseDocs(fs.readFileSync(path.join(outdir, 'fleet/prod/applicationset.yaml'), 'utf8'))[0];
      for (const { cluster, server, path: appsPath } of set.spec.generators[0].list.elements) {
        // Paths follow where the files are written: outdir is a folder outside any git repository, so it is the root.
        const appsDir = path.join(outdir, appsPath);
        const apps = fs.readdirSync(appsDir).map((f) => parseDocs(fs.readFileSync(path.join(appsDir, f), 'utf8'))[0]);
        expect(apps.map((a) => a.metadata.name)).toContain(`${cluster}-batch-10-controllers`);
        for (const a of apps) {
          expect(a.spec.destination.server).toBe(server);
          expect(a.spec.source.path).toMatch(new RegExp(`^fleet/prod/${cluster}/batch/\\d\\d-[a-z-]+$`));
          expect(fs.existsSync(path.join(outdir, a.spec.source.path, 'kustomization.yaml'))).toBe(true);
        }
      }
      const flux = parseDocs(fs.readFileSync(path.join(outdir, 'fleet/prod/east/batch/flux/kustomizations.yaml'), 'utf8'));
      expect(flux[0].spec.path).toBe('./fleet/prod/east/batch/00-foundation');
      expect(fs.existsSync(path.join(outdir, flux[0].spec.path, 'kustomization.yaml'))).toBe(true);
      // One Flux may serve several clusters: Kustomization names carry the cluster, like Applications.
      expect(flux.map((k) => k.metadata.name)).toEqual(expect.arrayContaining(['east-batch-00-foundation', 'east-batch-10-controllers']));
      expect(flux[1].spec.dependsOn).toEqual([{ name: flux[0].metadata.name }]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('fails when a cluster name is not a DNS label', () => {
    expect(() => fleet(undefined, { clusters: { East_1: { server: 'https://e:6443' } } })).toThrow(
      "fleet: cluster name 'East_1' must be a lower-case DNS label of at most 40 characters (it prefixes Application names)");
  });

  test('fails when a cluster has no API server URL', () => {
    expect(() => fleet(undefined, { clusters: { east: { server: 'east' } } })).toThrow(
      "fleet: clusters.east.server 'east' must be the https URL of the cluster's API server as registered in Argo CD");
  });

  test('fails when there are no clusters', () => {
    expect(() => fleet(undefined, { clusters: {} })).toThrow('fleet: clusters is empty; give at least one cluster');
  });

  test('fails when the factory makes its platform outside the scope it is given', () => {
    const app = new App({ outdir: '/nonexistent' });
    expect(() => fleet(app, { platform: () => new Platform(app, 'elsewhere', { name: 'elsewhere' }) })).toThrow(
      "fleet: the platform factory must create a Platform directly in the scope it is given (cluster 'east')");
  });

  test('fails at construction on bad GitOps settings', () => {
    expect(() => fleet(undefined, { gitops: { repoURL: 'not a url' } })).toThrow('fleet: GitOps settings: repoURL "not a url" must be the URL');
  });
});

describe('README fleet example', () => {
  test('constructs two clusters of the serving platform with their settings', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const code = /```ts\n(new Fleet\([\s\S]*?)```/.exec(readme)![1];
    const file = path.join(__dirname, '.readme-fleet.ts');
    fs.writeFileSync(file, [
      "import { App } from 'cdk8s';",
      "import { CertificateProvider } from '../../../lib/certificates';",
      "import { Fleet } from '../../../lib/gitops';",
      "import { ServingPlatform } from '../../../platforms';",
      "export const app = new App({ outdir: '/nonexistent' });",
      code.replace(/^new Fleet\(app,/, 'export const fleet = new Fleet(app,'),
    ].join('\n'));
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const example = (require('./.readme-fleet') as { fleet: Fleet }).fleet;
      expect([...example.platforms.keys()]).toEqual(['east', 'west']);
      const east = example.platforms.get('east') as ServingPlatform;
      expect(east.kserve.image('controller')).toMatch(/^mirror\.east\.example\.com\/ml\//);
      expect(example.platforms.get('west')!.certificates).toEqual(CertificateProvider.openShiftServiceCa());
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
