import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { z } from 'zod';

/** A position in a YAML file, 1-based. */
export interface YamlPosition {
  line: number;
  column: number;
}

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
  const position = (path: readonly PropertyKey[]): YamlPosition => {
    let node: Node | undefined = isNode(doc.contents) ? doc.contents : undefined;
    let best = node?.range?.[0];
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(segment));
        if (!pair) break;
        const value = isNode(pair.value) ? pair.value : undefined;
        best = (value?.range?.[0] ?? (isNode(pair.key) ? pair.key.range?.[0] : undefined)) ?? best;
        node = value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment];
        if (!isNode(item)) break;
        best = item.range?.[0] ?? best;
        node = item;
      } else break;
    }
    return at(best);
  };
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
