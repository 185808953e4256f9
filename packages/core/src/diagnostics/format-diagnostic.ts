import { escapeControl } from '../text/escape-control.js';
import type { Diagnostic } from './diagnostic.js';

/** Text from a pipeline (node ids, labels, attribute values) as one visible line. */
function visible(text: string): string {
  return escapeControl(text, { keepNewlines: false });
}

function position(d: Diagnostic, file: string): string {
  const loc = d.location;
  return `${visible(loc?.file ?? file)}:${loc?.line ?? 1}:${loc?.column ?? 1}`;
}

/**
 * One diagnostic as `file:line:col: severity [rule] message`, plus an
 * indented fix line. Messages name what the pipeline holds (node ids, labels,
 * values), so every part is escaped here, once for every rule: control
 * characters, line breaks included, and bidirectional overrides are written
 * as visible escapes (`\e`, `\n`, `\u202e`), and a diagnostic is always one
 * line (two with its fix) that cannot move the cursor or recolour the
 * terminal. {@link diagnosticToJson} keeps the text as it is.
 */
export function formatDiagnostic(d: Diagnostic, file: string): string {
  const head = `${position(d, file)}: ${d.severity} [${visible(d.rule)}] ${visible(d.message)}`;
  return d.fix ? `${head}\n    fix: ${visible(d.fix)}` : head;
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
