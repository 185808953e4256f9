/**
 * The `orchestra` command line, callable in-process.
 * @packageDocumentation
 */
export { runCli } from './program.js';
export type { CliIO } from './io.js';
export { ExitCode } from './exit-codes.js';
export { diagnosticToJson, formatDiagnostic, formatSummary } from './format-diagnostics.js';
