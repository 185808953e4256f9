import type { SourceLocation } from '../diagnostics/diagnostic.js';
import type { AttributeOrigin } from './model.js';

/**
 * The source location of character `index` of an attribute's value, for
 * errors inside a value (a bad condition, a stylesheet typo). Exact for
 * values written without escapes, raw newlines included; otherwise it
 * points at the right line or close to it. Falls back to the attribute.
 */
export function locateInValue(origin: AttributeOrigin | undefined, value: string, index: number): SourceLocation | undefined {
  const start = origin?.valueLocation;
  if (!start) return origin?.location;
  const prefix = value.slice(0, Math.max(0, index));
  const lastNewline = prefix.lastIndexOf('\n');
  const quote = 1; // values that can hold such errors are quoted
  const located: SourceLocation =
    lastNewline === -1
      ? { line: start.line, column: start.column + quote + prefix.length }
      : { line: start.line + countNewlines(prefix), column: prefix.length - lastNewline };
  if (start.file !== undefined) located.file = start.file;
  return located;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
