import { escapeControl, isOrchestraError } from '@orchestra/core/loader';
import { ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';

/**
 * Runs a command body; an `OrchestraError` (bad input: a missing or
 * corrupt run directory, ...) is printed as `orchestra: <message>` and gives
 * exit 2. Anything else is a bug and propagates.
 */
export async function reportingUsageErrors(io: CliIO, work: () => number | Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    // The message can quote a run's files (node ids, values): shown, never obeyed.
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return ExitCode.usage;
  }
}
