import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { yamlPosition, type LineColumn } from './yaml-positions.js';

/** A position in a YAML file, 1-based. */
export type YamlPosition = LineColumn;

/** A parsed YAML file whose positions can be asked for. */
export interface YamlData {
  data: unknown;
  /** Where the value at a path (keys and list indexes) is written; the nearest enclosing value when it is not. */
  position(path: readonly PropertyKey[]): YamlPosition;
}

/** Parses YAML text, keeping where each value is; a syntax error throws `{ message, position }`. */
export function parseYamlData(text: string): YamlData | { error: string; position: YamlPosition } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number | undefined): YamlPosition => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };
  const first = doc.errors[0];
  if (first) return { error: first.message.split('\n')[0] ?? 'YAML error', position: at(first.pos[0]) };
  // Symbols never name YAML keys: a path with one points at what comes before it.
  const position = (path: readonly PropertyKey[]): YamlPosition => yamlPosition(doc, lineCounter, path.filter((p): p is string | number => typeof p !== 'symbol'));
  return { data: doc.toJS() ?? {}, position };
}

/**
 * Validates YAML text against a schema: the data, or the first problem as
 * one line `file:line:col: key.path: message` (a YAML error, or the first
 * schema issue in file order).
 */
export function readYamlWith<S extends z.ZodType>(text: string, file: string, schema: S): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  const parsed = parseYamlData(text);
  if ('error' in parsed) return { ok: false, message: `${file}:${parsed.position.line}:${parsed.position.column}: YAML error: ${parsed.error}` };
  const result = schema.safeParse(parsed.data);
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues
    .map((issue) => ({ issue, at: parsed.position(issue.path) }))
    .sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
  const { issue, at } = problems[0] as (typeof problems)[number];
  const key = issue.path.map(String).join('.');
  return { ok: false, message: `${file}:${at.line}:${at.column}: ${key ? `${key}: ` : ''}${issue.message}` };
}
