import type { Diagnostic } from './diagnostic.js';

function position(d: Diagnostic, file: string): string {
  const loc = d.location;
  return `${loc?.file ?? file}:${loc?.line ?? 1}:${loc?.column ?? 1}`;
}

/** One diagnostic as `file:line:col: severity [rule] message`, plus an indented fix line. */
export function formatDiagnostic(d: Diagnostic, file: string): string {
  const head = `${position(d, file)}: ${d.severity} [${d.rule}] ${d.message}`;
  return d.fix ? `${head}\n    fix: ${d.fix}` : head;
}

/** A diagnostic as a JSON object (snake_case fields), as `validate --json` prints it and the HTTP API returns it. */
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
