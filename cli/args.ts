import { UsageError } from './io';

/** An option a subcommand takes: `--name VALUE` (or `--name=VALUE`), or a flag without value. */
export interface OptionSpec {
  /** Takes a value (else a flag). @default true */
  readonly value?: boolean;
  /** May be given several times. @default false */
  readonly multiple?: boolean;
  /** Allowed values, when a closed list. */
  readonly choices?: readonly string[];
}

export interface ParsedArgs {
  readonly options: Record<string, string[]>;
  readonly positionals: string[];
  readonly help: boolean;
}

/**
 * Parses a subcommand's arguments. Throws a UsageError naming the option and the fix for
 * an unknown option, a missing value, a value outside `choices`, or a repeated option that
 * takes one value.
 */
export function parseArgs(command: string, args: readonly string[], spec: Record<string, OptionSpec>): ParsedArgs {
  const options: Record<string, string[]> = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq >= 0 ? eq : undefined) : '';
    const o = spec[name];
    if (!o) {
      const known = Object.keys(spec).map((k) => `--${k}`);
      throw new UsageError(`${command}: unknown option ${eq >= 0 ? arg.slice(0, eq) : arg}${known.length ? ` (options: ${known.join(', ')}, --help)` : ' (it takes no options but --help)'}`);
    }
    let value: string;
    if (o.value === false) {
      if (eq >= 0) throw new UsageError(`${command}: --${name} takes no value`);
      value = 'true';
    } else if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      if (i + 1 >= args.length || args[i + 1].startsWith('--')) throw new UsageError(`${command}: --${name} needs a value`);
      value = args[++i];
    }
    if (o.choices && !o.choices.includes(value)) throw new UsageError(`${command}: --${name} '${value}' is not one of ${o.choices.join(', ')}`);
    if (options[name] && !o.multiple) throw new UsageError(`${command}: --${name} given twice; give it once`);
    (options[name] ??= []).push(value);
  }
  return { options, positionals, help };
}
