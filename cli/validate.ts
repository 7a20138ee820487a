import { CliIo } from './io';

// Placeholder until `mlplatform validate` lands (issue 10); replaced wholesale by that work.
export async function validateCommand(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write('mlplatform validate: not built yet\n');
  return 2;
}
