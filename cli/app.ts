/** A user's app given with `--app FILE`: its platforms, for every command that takes one. */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { UsageError } from './io';
import { Platform, platformsOf } from '../lib/platform';
import { loadApps } from '../lib/synth';

/**
 * Loads a user's app (`--app FILE`: the compiled .js, or a .ts file when the project has
 * ts-node) without synthesizing it, and returns its platforms: those of every PlatformApp it
 * creates, and of every construct it exports (e.g. `export const app` or `export const platform`).
 */
export function appPlatforms(command: string, file: string, cwd: string): Platform[] {
  const resolved = path.resolve(cwd, file);
  if (!fs.existsSync(resolved)) throw new UsageError(`${command}: --app ${file}: no such file`);
  // A module runs once per process: its platforms are kept for the next command.
  const loaded = LOADED.get(resolved);
  if (loaded) return loaded;
  if (/\.[cm]?ts$/.test(resolved)) {
    let register: string;
    try {
      register = require.resolve('ts-node/register/transpile-only', { paths: [cwd, __dirname] });
    } catch {
      throw new UsageError(`${command}: --app ${file}: a TypeScript app needs ts-node in the project (npm install --save-dev ts-node), or compile it (npx tsc) and pass the .js file`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(register);
  }
  let exported: Record<string, unknown> = {};
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const apps = loadApps(() => { exported = require(resolved); });
  const roots = [...apps, ...Object.values(exported ?? {}).filter((v): v is Platform => typeof v === 'object' && v !== null && 'node' in v)];
  const platforms: Platform[] = [];
  for (const r of roots) {
    for (const p of r instanceof Platform ? [r] : platformsOf(r as unknown as App)) if (!platforms.includes(p)) platforms.push(p);
  }
  if (!platforms.length) throw new UsageError(`${command}: --app ${file} creates no platform (create a PlatformApp with platforms in it, or export the App or Platform)`);
  LOADED.set(resolved, platforms);
  return platforms;
}

const LOADED = new Map<string, Platform[]>();


/** One platform of an app: the one named (--platform), or its only one. */
export function appPlatform(command: string, file: string, name: string | undefined, cwd: string): Platform {
  const platforms = appPlatforms(command, file, cwd);
  if (!name && platforms.length === 1) return platforms[0];
  const found = platforms.find((p) => p.name === name);
  if (!found) throw new UsageError(`${command}: ${name ? `no platform named '${name}' in ${file}` : '--platform NAME is required'} (platforms: ${platforms.map((p) => p.name).join(', ')})`);
  return found;
}
