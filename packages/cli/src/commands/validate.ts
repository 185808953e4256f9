import { sortDiagnostics } from '@orchestra/core/loader';
import { ExitCode } from '../exit-codes.js';
import { loadForCommand } from '../load-pipeline-file.js';
import { diagnosticToJson, formatDiagnostic, formatSummary } from '../format-diagnostics.js';
import type { CliIO } from '../io.js';

/** Options of `orchestra validate`. */
export interface ValidateCommandOptions {
  json?: boolean;
}

/**
 * `orchestra validate <file> [--json]`: prints every diagnostic and a
 * summary. Returns 0 without errors, 1 with errors, 2 when the file cannot be read.
 */
export async function validateCommand(file: string, options: ValidateCommandOptions, io: CliIO): Promise<number> {
  const result = await loadForCommand(file, io);
  if (!result) return ExitCode.usage;
  const diagnostics = sortDiagnostics(result.diagnostics);
  if (options.json) {
    io.stdout(`${JSON.stringify(diagnostics.map((d) => diagnosticToJson(d, file)), null, 2)}\n`);
  } else {
    for (const d of diagnostics) io.stdout(`${formatDiagnostic(d, file)}\n`);
    io.stdout(`${formatSummary(diagnostics, file)}\n`);
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}
