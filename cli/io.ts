/**
 * What a `mlplatform` subcommand gets: its arguments (after the subcommand name) and its
 * output streams. A command returns its exit code: 0 clean, 1 findings or failed checks,
 * 2 usage errors or unreadable input. Commands never print stack traces.
 */
export interface CliIo {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { isTTY?: boolean; write(s: string): unknown };
  /** Working directory that relative paths are resolved against. */
  readonly cwd: string;
}

/** A usage error: the dispatcher prints the message and the command's help, exit 2. */
export class UsageError extends Error {}

export type Command = (args: string[], io: CliIo) => Promise<number>;
