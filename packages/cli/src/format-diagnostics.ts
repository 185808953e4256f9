import type { Diagnostic } from '@orchestra/core/loader';

function position(d: Diagnostic, file: string): string {
  const loc = d.location;
  return `${loc?.file ?? file}:${loc?.line ?? 1}:${loc?.column ?? 1}`;
}

/** One diagnostic as `file:line:col: severity [rule] message`, plus an indented fix line. */
export function formatDiagnostic(d: Diagnostic, file: string): string {
  const head = `${position(d, file)}: ${d.severity} [${d.rule}] ${d.message}`;
  return d.fix ? `${head}\n    fix: ${d.fix}` : head;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The one-line summary: `file: 2 errors, 1 warning` or `file: valid (1 warning)`. */
export function formatSummary(diagnostics: readonly Diagnostic[], file: string): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const infos = diagnostics.length - errors - warnings;
  const rest = [plural(warnings, 'warning'), ...(infos ? [plural(infos, 'note')] : [])].join(', ');
  return errors > 0 ? `${file}: invalid: ${plural(errors, 'error')}, ${rest}` : `${file}: valid (${rest})`;
}

/** A diagnostic as the JSON object `validate --json` prints (snake_case fields). */
export function diagnosticToJson(d: Diagnostic, file: string): Record<string, unknown> {
  return {
    file: d.location?.file ?? file,
    line: d.location?.line ?? null,
    column: d.location?.column ?? null,
    severity: d.severity,
    rule: d.rule,
    message: d.message,
    node_id: d.nodeId ?? null,
    edge: d.edge ? { from: d.edge.from, to: d.edge.to } : null,
    fix: d.fix ?? null,
  };
}
