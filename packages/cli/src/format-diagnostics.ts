import { escapeControl, type Diagnostic } from '@orchestra/core/loader';
export { diagnosticToJson, formatDiagnostic } from '@orchestra/core/loader';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The one-line summary: `file: 2 errors, 1 warning` or `file: valid (1 warning)`. */
export function formatSummary(diagnostics: readonly Diagnostic[], file: string): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const infos = diagnostics.length - errors - warnings;
  const rest = [plural(warnings, 'warning'), ...(infos ? [plural(infos, 'note')] : [])].join(', ');
  const name = escapeControl(file, { keepNewlines: false });
  return errors > 0 ? `${name}: invalid: ${plural(errors, 'error')}, ${rest}` : `${name}: valid (${rest})`;
}
