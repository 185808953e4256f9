/**
 * Position-preserving normalisation of Attractor DOT text before it reaches
 * ts-graphviz's parser.
 *
 * The Attractor dialect differs from Graphviz DOT in ways ts-graphviz rejects:
 * dotted keys (`agent.mode=x`), bare values such as `900s` or
 * `claude-sonnet-4.5`, and raw newlines inside quoted strings. It also
 * defines string escapes (`\n`, `\t`, `\\`, `\"`) that DOT leaves alone.
 *
 * So every quoted string, and every bare word that is not a plain DOT ID, is
 * lifted into a table and replaced by a short quoted placeholder (`"17"`).
 * Comments become a single space. The parser then sees only plain DOT, the
 * long prompt strings cost it nothing, and {@link NormalizedSource.toOriginal}
 * maps any offset in the normalised text back to the user's text.
 *
 * {@link DotLexer} finds the tokens and {@link SourceRewriter} builds the new
 * text and its offset map; this module decides what each token becomes.
 */

import { DotLexer } from './dot-lexer.js';
import { SourceRewriter } from './source-rewriter.js';

/** A string lifted out of the source: a quoted string or an unusual bare word. */
export interface LiftedToken {
  /** The decoded value (escapes applied for quoted strings). */
  value: string;
  /** True when the source had it in double quotes. */
  quoted: boolean;
  /** Offset of the token's first character in the original text. */
  offset: number;
}

/** A lexical problem found while normalising, at an offset of the original text. */
export interface LexicalProblem {
  message: string;
  offset: number;
}

/** The result of {@link normalizeSource}. */
export interface NormalizedSource {
  /** Plain DOT text for ts-graphviz. */
  text: string;
  /** Placeholder table: the placeholder `"i"` stands for `tokens[i]`. */
  tokens: LiftedToken[];
  /** A fatal lexical problem (unterminated string or comment), if any. */
  problem?: LexicalProblem;
  /** Maps an offset of `text` to the corresponding offset of the original. */
  toOriginal(offset: number): number;
}

/**
 * Most edges one chained statement (`a -> b -> ...`) may hold. ts-graphviz
 * parses chains recursively and overflows the stack somewhere past 7,000;
 * this cap turns that into a clear message.
 */
export const MAX_EDGE_CHAIN = 2_000;

/**
 * Normalise Attractor DOT text for ts-graphviz. Never throws; a lexical
 * problem is reported in `problem` and the text up to it is still returned.
 */
export function normalizeSource(src: string): NormalizedSource {
  const lexer = new DotLexer(src);
  const scan: Scan = { src, rewriter: new SourceRewriter(src), tokens: [], chain: new EdgeChain() };
  let problem: LexicalProblem | undefined;
  while (!problem && lexer.next()) problem = normalizeToken(scan, lexer);
  const text = scan.rewriter.finish(problem ? problem.offset : src.length);
  const result: NormalizedSource = { text, tokens: scan.tokens, toOriginal: scan.rewriter.offsetMapper() };
  if (problem) result.problem = problem;
  return result;
}

/** The state of one {@link normalizeSource} pass. */
interface Scan {
  readonly src: string;
  readonly rewriter: SourceRewriter;
  /** Placeholder table being built. */
  readonly tokens: LiftedToken[];
  readonly chain: EdgeChain;
}

/**
 * Rewrites the lexer's current token: strings and unusual words are lifted,
 * comments become a space, everything else is copied through. Returns the
 * lexical problem that stops the pass, if the token is one.
 */
function normalizeToken(scan: Scan, token: DotLexer): LexicalProblem | undefined {
  switch (token.kind) {
    case 'string':
      lift(scan, token.start, token.end, token.value, true);
      scan.chain.operand();
      return undefined;
    case 'word':
      liftBareWord(scan, token.start, token.end);
      scan.chain.operand();
      return undefined;
    case 'line-comment':
    case 'block-comment':
      scan.rewriter.replace(token.start, token.end, ' ');
      return undefined;
    case 'edge':
      return scan.chain.addEdge(token.start);
    case 'delimiter':
      scan.chain.reset();
      return undefined;
    case 'html':
      // HTML-like string: copied through for the parser; the dialect check rejects it.
      return undefined;
    case 'unterminated-string':
      return { message: 'unterminated string: a quoted value is never closed', offset: token.start };
    case 'unterminated-comment':
      return { message: 'unterminated comment: "/*" is never closed by "*/"', offset: token.start };
  }
}

/** Lifts the bare word `src[start, end)` when ts-graphviz would not take it as written. */
function liftBareWord(scan: Scan, start: number, end: number): void {
  const word = scan.src.slice(start, end);
  if (needsLifting(word)) lift(scan, start, end, word, false);
}

/** Replaces `src[start, end)` with the placeholder of a new token holding `value`. */
function lift(scan: Scan, start: number, end: number, value: string, quoted: boolean): void {
  scan.rewriter.replace(start, end, `"${scan.tokens.length}"`);
  scan.tokens.push({ value, quoted, offset: start });
}

const DOT_ID = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOT_NUMERAL = /^-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)$/;
const HAS_WORD_CHAR = /[A-Za-z0-9_\u0080-\uffff]/;
const HASH = 35;

/**
 * True when a bare word is not a plain DOT ID or numeral, so ts-graphviz
 * would reject it: `agent.mode`, `900s`, `claude-sonnet-4.5`, `#ff0000`.
 * Words of punctuation only (`.`, `:`) are left for the parser to report.
 */
function needsLifting(word: string): boolean {
  return !DOT_ID.test(word) && !DOT_NUMERAL.test(word) && (HAS_WORD_CHAR.test(word) || word.charCodeAt(0) === HASH);
}

/** Counts the edges of the chained statement being read, to enforce {@link MAX_EDGE_CHAIN}. */
class EdgeChain {
  /** Edges in the current chained statement. */
  private edges = 0;
  /** Whether the last token was an edge operator. */
  private afterArrow = false;

  /** Counts the edge operator at `offset`; returns the problem when the chain gets too long. */
  addEdge(offset: number): LexicalProblem | undefined {
    if (++this.edges > MAX_EDGE_CHAIN) {
      return {
        message: `edge chain too long: more than ${MAX_EDGE_CHAIN} edges in one statement; split it into several statements`,
        offset,
      };
    }
    this.afterArrow = true;
    return undefined;
  }

  /** Notes a word or string: it continues the chain after an edge operator, or starts a new one. */
  operand(): void {
    if (!this.afterArrow) this.edges = 0;
    this.afterArrow = false;
  }

  /** Ends the chain at a delimiter (`[`, `;`, `{`, `}`). */
  reset(): void {
    this.edges = 0;
  }
}
