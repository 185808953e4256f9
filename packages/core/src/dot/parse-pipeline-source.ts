import { DotSyntaxError, parse } from 'ts-graphviz/ast';
import type { DotASTNode } from 'ts-graphviz/ast';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Graph } from '../graph/model.js';
import { buildGraph } from './build-graph.js';
import { LineIndex } from './line-index.js';
import { MAX_EDGE_CHAIN, normalizeSource } from './normalize-source.js';

/**
 * Largest source accepted, in UTF-16 code units (16 Mi). A 10,000-node
 * pipeline is about 2 MB; anything near this cap is generated garbage.
 */
export const MAX_SOURCE_LENGTH = 16 * 1024 * 1024;

/** Parser limits: generous enough for any real pipeline, bounded by the size cap. */
const PARSE_LIMITS = {
  maxInputSize: MAX_SOURCE_LENGTH,
  maxASTNodes: 4_000_000,
  // Never the binding limit: normalizeSource refuses chains past MAX_EDGE_CHAIN first.
  maxEdgeChainDepth: 2 * MAX_EDGE_CHAIN,
  maxHTMLNesting: 100,
} as const;

/** The result of parsing DOT text: a graph when one could be built, and every finding. */
export interface ParseResult {
  graph?: Graph;
  diagnostics: Diagnostic[];
}

/**
 * Parses Attractor DOT text into a {@link Graph}. Never throws on bad input:
 * syntax errors and dialect violations come back as error diagnostics, each
 * with the line and column in `source`.
 */
export function parsePipelineSource(source: string, file?: string): ParseResult {
  const lines = new LineIndex(source);
  const diagnostics: Diagnostic[] = [];
  if (source.length > MAX_SOURCE_LENGTH) {
    diagnostics.push({
      rule: 'input_limit',
      severity: 'error',
      message: `file is too large: ${source.length} characters (the limit is ${MAX_SOURCE_LENGTH})`,
      location: lines.locate(0, file),
    });
    return { diagnostics };
  }
  const normalized = normalizeSource(source);
  if (normalized.problem) {
    diagnostics.push({
      rule: 'syntax',
      severity: 'error',
      message: normalized.problem.message,
      location: lines.locate(normalized.problem.offset, file),
    });
    return { diagnostics };
  }
  const locate = (offset: number) => lines.locate(normalized.toOriginal(offset), file);

  let ast: DotASTNode;
  try {
    ast = parse(normalized.text, PARSE_LIMITS);
  } catch (error) {
    diagnostics.push(syntaxDiagnostic(error, source, normalized.toOriginal, lines, file));
    return { diagnostics };
  }
  const graph = buildGraph(ast, { tokens: normalized.tokens, locate, diagnostics }, file);
  return graph ? { graph, diagnostics } : { diagnostics };
}

const GRAPH_KEYWORD = /^(?:strict\s+)?(?:di)?graph\b/i;

function syntaxDiagnostic(
  error: unknown,
  source: string,
  toOriginal: (offset: number) => number,
  lines: LineIndex,
  file: string | undefined,
): Diagnostic {
  const cause = error instanceof DotSyntaxError ? (error.cause as { location?: { start?: { offset?: number } }; expected?: unknown }) : undefined;
  const normalizedOffset = cause?.location?.start?.offset;
  if (normalizedOffset === undefined) {
    // Limit errors (AST size, nesting depth) carry no position.
    const overflow = error instanceof Error && error.cause instanceof RangeError;
    const message = overflow ? 'the file nests too deeply to parse' : error instanceof Error ? error.message : String(error);
    return { rule: 'input_limit', severity: 'error', message: `input refused: ${message}`, location: lines.locate(0, file) };
  }
  const offset = toOriginal(normalizedOffset);
  const location = lines.locate(offset, file);
  const rest = source.slice(offset, offset + 80);
  if (GRAPH_KEYWORD.test(rest)) {
    return {
      rule: 'dialect',
      severity: 'error',
      message: 'only one graph per file is allowed',
      fix: 'move each pipeline into its own .dot file',
      location,
    };
  }
  if (source.startsWith('--', offset)) {
    return {
      rule: 'dialect',
      severity: 'error',
      message: 'undirected edge `--`: pipelines are directed',
      fix: 'write `->`',
      location,
    };
  }
  const expected = Array.isArray(cause?.expected) ? describeExpected(cause.expected as Expectation[]) : undefined;
  const message = expected
    ? `expected ${expected}, found ${describeFound(rest)}`
    : (error as Error).message.replace(/\.$/, '');
  return { rule: 'syntax', severity: 'error', message, location };
}

interface Expectation {
  type: string;
  text?: string;
  description?: string;
  parts?: unknown[];
}

/** Peggy's expectation list in words a pipeline author knows, comments and HTML left out. */
function describeExpected(expected: Expectation[]): string | undefined {
  const words: string[] = [];
  const add = (w: string) => {
    if (!words.includes(w)) words.push(w);
  };
  for (const e of expected) {
    if (e.type === 'end') add('end of file');
    else if (e.type === 'literal' && e.text !== undefined) {
      if (['#', '/*', '//', '<'].includes(e.text)) continue;
      add(e.text === '"' ? 'a quoted string' : `"${e.text}"`);
    } else if (e.type === 'other') add('an identifier or value');
    else if (e.type === 'class' && Array.isArray(e.parts)) {
      for (const part of e.parts) if (typeof part === 'string') add(`"${part}"`);
    }
  }
  if (words.length === 0) return undefined;
  if (words.length === 1) return words[0];
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

function describeFound(rest: string): string {
  if (rest.length === 0) return 'end of file';
  const word = /^[A-Za-z0-9_.:\u0080-\uffff-]+/.exec(rest);
  if (word) return JSON.stringify(word[0]);
  if (rest[0] === '"') return 'a quoted string';
  return JSON.stringify(rest[0]);
}
