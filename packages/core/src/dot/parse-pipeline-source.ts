import { DotSyntaxError, parse } from 'ts-graphviz/ast';
import type { DotASTNode, GraphASTNode } from 'ts-graphviz/ast';
import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import type { Graph } from '../graph/model.js';
import { buildGraph, startGraph, type BuildContext } from './build-graph.js';
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

/**
 * Normalised text longer than this is parsed in pieces of about this many
 * characters (whole statements of the root graph), each piece's syntax tree
 * dropped once its statements are in the graph. ts-graphviz's tree costs
 * about 4 KB a statement: a 100,000-node file would otherwise hold several
 * hundred megabytes of it at once.
 */
export const PARSE_PIECE_LENGTH = 4 * 1024;

/** Options of {@link parsePipelineSource}. */
export interface ParseOptions {
  /** Size of the pieces a long text is parsed in (default {@link PARSE_PIECE_LENGTH}); for tests. */
  pieceLength?: number;
}

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
export function parsePipelineSource(source: string, file?: string, options: ParseOptions = {}): ParseResult {
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

  const pieces = splitRootStatements(normalized.text, options.pieceLength ?? PARSE_PIECE_LENGTH);
  if (pieces) {
    const inPieces = parseInPieces(normalized.text, pieces, normalized.tokens, locate, file);
    // A piece that does not parse: the whole text is parsed again, for the same diagnostics as always.
    if (inPieces) return inPieces;
  }

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

/**
 * Parses `text` piece by piece (`cuts` from {@link splitRootStatements}) into
 * one graph; undefined when a piece does not parse.
 */
function parseInPieces(
  text: string,
  cuts: readonly number[],
  tokens: BuildContext['tokens'],
  locate: (offset: number) => SourceLocation,
  file: string | undefined,
): ParseResult | undefined {
  const diagnostics: Diagnostic[] = [];
  const parsePiece = (piece: string): DotASTNode | undefined => {
    try {
      return parse(piece, PARSE_LIMITS);
    } catch {
      return undefined;
    }
  };
  // The first piece: the text up to the first cut, the root graph closed after it (offsets as in `text`).
  const first = parsePiece(`${text.slice(0, cuts[0])}}`);
  if (!first) return undefined;
  const partial = startGraph(first, { tokens, locate, diagnostics }, file);
  if (!partial) return undefined;
  const root = first.children.find((c): c is GraphASTNode => c.type === 'Graph');
  if (!root) return undefined;
  // The parser reads edges by the kind of graph around them (`->` is refused in a `graph`): later
  // pieces are parsed in a graph of the root's kind, or a piece would accept what the whole refuses.
  const header = pieceHeader(root);
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i] as number;
    // Later pieces in a graph of their own: their offsets are shifted by the header's length.
    const piece = parsePiece(`${header}${text.slice(start, cuts[i + 1])}}`);
    if (!piece) return undefined;
    const graph = piece.children.find((c) => c.type === 'Graph');
    if (!graph) return undefined;
    const shift = start - header.length;
    partial.add(graph.children, (offset) => locate(offset + shift));
  }
  return { graph: partial.finish(), diagnostics };
}

/** The opening of a graph like `root` (directed or not, strict or not), for a later piece's statements. */
function pieceHeader(root: GraphASTNode): string {
  return `${root.strict ? 'strict ' : ''}${root.directed ? 'digraph' : 'graph'}{`;
}

/**
 * Where a long normalised text can be cut into pieces of about `length`
 * characters, each a run of whole statements of the root graph: the offsets
 * of the cuts, the last one the root graph's closing brace. Undefined when
 * the text is short, or has no cut, or has anything after the root graph
 * (the whole text is parsed then). A cut goes after a `;`, or at a line break
 * between a statement's last token and a word or string that can only start
 * the next statement.
 */
export function splitRootStatements(text: string, length: number): number[] | undefined {
  if (text.length <= length) return undefined;
  const cuts: number[] = [];
  let braces = 0;
  let brackets = 0;
  let html = 0;
  let lastCut = -1; // the last cut, or where the root graph's body starts
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (html > 0) {
      // An HTML-like string `<...>` (nested brackets), copied through by normalisation.
      if (c === LT) html++;
      else if (c === GT) html--;
      continue;
    }
    if (c === QUOTE) {
      // Quoted strings are placeholders after normalisation; a backslash would still escape.
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== QUOTE) j += text.charCodeAt(j) === BACKSLASH ? 2 : 1;
      i = j;
      continue;
    }
    if (c === LT) html = 1;
    else if (c === OPEN_BRACE) {
      braces++;
      if (braces === 1 && lastCut < 0) lastCut = i + 1;
    } else if (c === CLOSE_BRACE) {
      braces--;
      if (braces === 0) {
        if (cuts.length === 0 || text.slice(i + 1).trim() !== '') return undefined;
        cuts.push(i);
        return cuts;
      }
    } else if (c === OPEN_BRACKET) brackets++;
    else if (c === CLOSE_BRACKET) brackets--;
    else if (braces === 1 && brackets === 0 && lastCut >= 0 && i - lastCut >= length && (c === SEMICOLON || (c === NEWLINE && statementBreak(text, i)))) {
      cuts.push(i + 1);
      lastCut = i + 1;
    }
  }
  return undefined;
}

/**
 * Whether the line break at `at` (at the root level) separates two
 * statements: the text before it ends a statement (a word, a string, `]` or
 * `}`, but not the keyword `subgraph`, which wants a name and a body) and
 * the text after it starts one (a word or a string: never `->`, `=`, `[`).
 */
function statementBreak(text: string, at: number): boolean {
  let next = at + 1;
  while (next < text.length && isSpace(text.charCodeAt(next))) next++;
  if (next >= text.length || !(isWordChar(text.charCodeAt(next)) || text.charCodeAt(next) === QUOTE)) return false;
  let end = at;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  if (end === 0) return false;
  const before = text.charCodeAt(end - 1);
  if (before === CLOSE_BRACKET || before === CLOSE_BRACE || before === QUOTE) return true;
  if (!isWordChar(before)) return false;
  let start = end - 1;
  while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
  return !/^(?:subgraph|node|edge|graph|strict|digraph)$/i.test(text.slice(start, end));
}

const QUOTE = 34;
const BACKSLASH = 92;
const LT = 60;
const GT = 62;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const SEMICOLON = 59;
const NEWLINE = 10;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A character of a DOT ID or numeral (what normalisation leaves unquoted). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c >= 0x80;
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
