import { escapeControl, sortDiagnostics, type Diagnostic, type Graph } from '@orchestra/core/loader';
import { needsConfigCheck } from '../config-needs.js';
import { ExitCode } from '../exit-codes.js';
import { loadForCommand } from '../load-pipeline-file.js';
import { diagnosticToJson, formatDiagnostic, formatSummary } from '../format-diagnostics.js';
import type { CliIO } from '../io.js';
import { terminalJson } from '../render/terminal-json.js';

/** Options of `orchestra validate`. */
export interface ValidateCommandOptions {
  json?: boolean;
  /**
   * Checks a pipeline against the orchestra.yaml that applies: its
   * conference nodes' roles and the providers its nodes name (diagnostics,
   * or the configuration's error message). The program passes it, loaded
   * only when a pipeline has such nodes, so validating a plain pipeline
   * stays small.
   */
  checkConfig?: (graph: Graph, file: string) => Promise<Diagnostic[] | string>;
}

/**
 * `orchestra validate <file>... [--json]`: checks each file in turn (with the
 * handler types `run` registers: the built-ins, and the roles of conference
 * nodes against the orchestra.yaml that applies), printing its diagnostics
 * and a summary line, or with `--json` one array of every file's
 * diagnostics (none when no file could be read). Returns 0 when no file has
 * errors, 1 when one has, 2 when a file cannot be read (its error goes to
 * stderr; the other files are still checked).
 */
export async function validateCommand(files: string | readonly string[], options: ValidateCommandOptions, io: CliIO): Promise<number> {
  const json: Record<string, unknown>[] = [];
  let code: number = ExitCode.ok;
  let read = 0;
  for (const file of typeof files === 'string' ? [files] : files) {
    const result = await loadForCommand(file, io);
    if (!result) {
      code = ExitCode.usage;
      continue;
    }
    // Conference roles and named providers are checked against the orchestra.yaml that applies.
    const roles = result.graph && options.checkConfig && needsConfigCheck(result.graph) ? await options.checkConfig(result.graph, file) : [];
    if (typeof roles === 'string') {
      io.stderr(`orchestra: ${escapeControl(roles)}\n`);
      code = ExitCode.usage;
      continue;
    }
    read++;
    const diagnostics = sortDiagnostics([...result.diagnostics, ...roles]);
    if (options.json) {
      for (const d of diagnostics) json.push(diagnosticToJson(d, file));
    } else {
      for (const d of diagnostics) io.stdout(`${formatDiagnostic(d, file)}\n`);
      io.stdout(`${formatSummary(diagnostics, file)}\n`);
    }
    if ((!result.ok || roles.some((d) => d.severity === 'error')) && code === ExitCode.ok) code = ExitCode.failed;
  }
  // A file that cannot be read leaves stdout alone; with none read there is no array to print.
  if (options.json && read > 0) io.stdout(`${terminalJson(json, 2)}\n`);
  return code;
}
