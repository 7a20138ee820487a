import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { EXAMPLE_GITOPS_SETTINGS, gitopsFiles, resolveGitOpsSettings } from '../../../lib/gitops';
import { PlatformBuild, writeFiles, writePlatform } from '../../../lib/synth';

/** Writes a build and its GitOps files to a fresh temp folder; returns the platform's folder. */
export function writeToTemp(build: PlatformBuild): string {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-gitops-'));
  writePlatform(build, out);
  const dir = path.join(out, build.model.platform.name);
  writeFiles(dir, gitopsFiles(build, resolveGitOpsSettings('test', EXAMPLE_GITOPS_SETTINGS)));
  return dir;
}

export function parseDocs(text: string): any[] {
  return parseAllDocuments(text).map((d) => d.toJSON()).filter((d) => d !== null);
}

/** kind namespace/name of an object, for readable order comparisons. */
export function idOf(o: any): string {
  return `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
}

/** The kubectl to run: $KUBECTL, else the first kubectl on the PATH; undefined when there is none. */
export function findKubectl(): string | undefined {
  if (process.env.KUBECTL) return fs.existsSync(process.env.KUBECTL) ? process.env.KUBECTL : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'kubectl');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The first helm on the PATH, or undefined. */
export function findHelm(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'helm');
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}
