import * as fs from 'fs';
import * as path from 'path';
import { App, AppProps } from 'cdk8s';
import { Finding, runChecks } from './checks';
import { PHASES } from './phases';
import { Platform, PlatformError, PlatformModel, platformsOf } from './platform';
import { platformReport } from './report';
import { toYamlDocuments } from './yaml-writer';

/** Above this size a CRD no longer fits kubectl's last-applied annotation: apply server-side. */
export const SERVER_SIDE_APPLY_BYTES = 256 * 1024;

export interface PlatformBuild {
  readonly model: PlatformModel;
  /** Relative file path -> YAML text, in apply order. */
  readonly files: Map<string, string>;
  /** CRDs too large for client-side apply. */
  readonly largeCrds: string[];
}

/**
 * Resolves, checks and renders one platform. Throws a PlatformError that lists every
 * problem (construct validations, graph problems, check findings), each with its
 * construct path.
 */
export function buildPlatform(platform: Platform): PlatformBuild {
  const problems = platform.node
    .findAll()
    .flatMap((c) => c.node.validate().map((e) => (e.startsWith(c.node.path) ? e : `${c.node.path}: ${e}`)));
  if (problems.length) throw new PlatformError(problems);
  const model = platform.resolve();
  const findings: Finding[] = runChecks(model);
  if (findings.length) throw new PlatformError(findings.map((f) => `[${f.rule}] ${f.path}: ${f.message}`));

  const files = new Map<string, string>();
  const largeCrds: string[] = [];
  const index = new Map(model.components.map((c, i) => [c, i + 1]));
  for (const phase of PHASES) {
    const inPhase = model.objects.filter((o) => o.phase === phase);
    const namespaces = inPhase.filter((o) => o.json.kind === 'Namespace');
    if (namespaces.length) {
      // One Namespace per name, first: every namespaced object of the platform follows.
      const seen = new Set<string>();
      const unique = namespaces.filter((o) => !seen.has(o.json.metadata.name) && seen.add(o.json.metadata.name));
      files.set(`${phase}/00-namespaces.yaml`, toYaml(unique.map((o) => o.json)));
    }
    for (const c of model.components) {
      const objs = inPhase.filter((o) => o.component === c && o.json.kind !== 'Namespace');
      if (!objs.length) continue;
      for (const o of objs) {
        if (o.json.kind === 'CustomResourceDefinition' && JSON.stringify(o.json).length > SERVER_SIDE_APPLY_BYTES) largeCrds.push(o.json.metadata.name);
      }
      files.set(`${phase}/${String(index.get(c)).padStart(2, '0')}-${c.componentName}.yaml`, toYaml(objs.map((o) => o.json)));
    }
  }
  files.set('REPORT.md', platformReport(model, largeCrds));
  files.set('kustomization.yaml', toYaml([{ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [...files.keys()].filter((f) => f.endsWith('.yaml')) }]));
  return { model, files, largeCrds };
}

function toYaml(docs: unknown[]): string {
  return toYamlDocuments(docs);
}

/** Writes a built platform to outdir/<platform>/, replacing what was there. */
export function writePlatform(build: PlatformBuild, outdir: string): void {
  const dir = path.join(outdir, build.model.platform.name);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of build.files) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/**
 * A cdk8s App whose synth builds every Platform in it: checks run on every synth, and
 * output goes to <outdir>/<platform>/<phase>/ instead of one file per chart.
 */
export class PlatformApp extends App {
  constructor(props: AppProps = {}) {
    super(props);
  }

  public synth(): void {
    const platforms = platformsOf(this);
    const builds = platforms.map((p) => buildPlatform(p));
    for (const b of builds) writePlatform(b, this.outdir);
  }
}
