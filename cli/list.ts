/**
 * `mlplatform list`: the default platforms from their catalogue (cli/catalogue.json), without
 * creating any; a user's app (--app FILE) is loaded and its platforms listed from themselves.
 */
import { parseArgs } from './args';
import { defaultCatalogue, writeList } from './catalogue';
import { CliIo, UsageError } from './io';
import { LIST_OPTIONS, LIST_WHAT } from './options';
/* eslint-disable @typescript-eslint/no-require-imports */

export async function listCommand(args: string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs('list', args, LIST_OPTIONS);
  if (positionals.length > 1) throw new UsageError(`list: one of ${LIST_WHAT.join(', ')}, not '${positionals.join(' ')}'`);
  const what = positionals[0] ?? 'platforms';
  if (!LIST_WHAT.includes(what)) throw new UsageError(`list: '${what}' is not one of ${LIST_WHAT.join(', ')}`);
  // The default platforms from their catalogue (cli/catalogue.json): nothing is created; the
  // user's platforms (--app FILE) from themselves.
  if (!options.app) {
    writeList(what, defaultCatalogue(), io);
    return 0;
  }
  const appList = (require('./app') as typeof import('./app')).appPlatforms('list', options.app[0], io.cwd);
  writeList(what, what === 'platforms' ? { platforms: appList.map((p) => ({ name: p.name, description: `from ${options.app![0]}` })), components: [] }
    : (require('./catalogue-of') as typeof import('./catalogue-of')).catalogueOf(appList.map((p) => ({ name: p.name, description: `from ${options.app![0]}`, create: () => p }))), io);
  return 0;
}
