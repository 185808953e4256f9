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
 */

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

const DOT_ID = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOT_NUMERAL = /^-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)$/;
const HAS_WORD_CHAR = /[A-Za-z0-9_\u0080-\uffff]/;

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || // _
    code === 46 || // .
    code === 58 || // :
    code === 45 || // -
    code >= 0x80
  );
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '"': '"' };

/**
 * Most edges one chained statement (`a -> b -> ...`) may hold. ts-graphviz
 * parses chains recursively and overflows the stack somewhere past 7,000;
 * this cap turns that into a clear message.
 */
export const MAX_EDGE_CHAIN = 2_000;

/** True when only spaces or tabs stand between the previous line break and `offset`. */
function atLineStart(src: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = src.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/**
 * Normalise Attractor DOT text for ts-graphviz. Never throws; a lexical
 * problem is reported in `problem` and the text up to it is still returned.
 */
export function normalizeSource(src: string): NormalizedSource {
  const out: string[] = [];
  const tokens: LiftedToken[] = [];
  // Replaced segments, in order: where they start in both texts and how long they are.
  const normStarts: number[] = [];
  const origStarts: number[] = [];
  const normLens: number[] = [];
  const origLens: number[] = [];
  let normLength = 0;
  let copyFrom = 0;
  let problem: LexicalProblem | undefined;

  const replace = (start: number, end: number, replacement: string): void => {
    if (start > copyFrom) {
      out.push(src.slice(copyFrom, start));
      normLength += start - copyFrom;
    }
    normStarts.push(normLength);
    origStarts.push(start);
    normLens.push(replacement.length);
    origLens.push(end - start);
    out.push(replacement);
    normLength += replacement.length;
    copyFrom = end;
  };
  const lift = (start: number, end: number, value: string, quoted: boolean): void => {
    replace(start, end, `"${tokens.length}"`);
    tokens.push({ value, quoted, offset: start });
  };

  const n = src.length;
  let i = 0;
  // Edges in the current chained statement, and whether the last token was `->`.
  let chain = 0;
  let afterArrow = false;
  const word = (): void => {
    if (!afterArrow) chain = 0;
    afterArrow = false;
  };
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      let value = '';
      let runStart = i + 1;
      i += 1;
      let closed = false;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (d === 34) {
          value += src.slice(runStart, i);
          i += 1;
          closed = true;
          break;
        }
        if (d === 92 /* \ */ && i + 1 < n) {
          value += src.slice(runStart, i);
          const next = src[i + 1] as string;
          if (next === '\n') {
            i += 2; // line continuation
          } else if (next === '\r' && src[i + 2] === '\n') {
            i += 3;
          } else {
            value += ESCAPES[next] ?? `\\${next}`;
            i += 2;
          }
          runStart = i;
          continue;
        }
        i += 1;
      }
      if (!closed) {
        problem = { message: 'unterminated string: a quoted value is never closed', offset: start };
        break;
      }
      lift(start, i, value, true);
      word();
    } else if (c === 47 /* / */ && src.charCodeAt(i + 1) === 47) {
      const end = src.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      replace(i, stop, ' ');
      i = stop;
    } else if (c === 35 /* # */ && atLineStart(src, i)) {
      const end = src.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      replace(i, stop, ' ');
      i = stop;
    } else if (c === 47 && src.charCodeAt(i + 1) === 42 /* * */) {
      const end = src.indexOf('*/', i + 2);
      if (end === -1) {
        problem = { message: 'unterminated comment: "/*" is never closed by "*/"', offset: i };
        break;
      }
      replace(i, end + 2, ' ');
      i = end + 2;
    } else if (c === 60 /* < */) {
      // HTML-like string: copied through for the parser; the dialect check rejects it.
      let depth = 0;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (d === 60) depth += 1;
        else if (d === 62 && --depth === 0) {
          i += 1;
          break;
        }
        i += 1;
      }
    } else if (c === 45 /* - */ && (src.charCodeAt(i + 1) === 62 || src.charCodeAt(i + 1) === 45)) {
      if (++chain > MAX_EDGE_CHAIN) {
        problem = {
          message: `edge chain too long: more than ${MAX_EDGE_CHAIN} edges in one statement; split it into several statements`,
          offset: i,
        };
        break;
      }
      afterArrow = true;
      i += 2; // edge operator
    } else if (isWordChar(c) || c === 35 /* # not at line start: part of a bare value like #ff0000 */) {
      const start = i;
      i += 1;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (!isWordChar(d)) break;
        if (d === 45) {
          const e = src.charCodeAt(i + 1);
          if (e === 62 || e === 45) break;
        }
        i += 1;
      }
      const text = src.slice(start, i);
      if (!DOT_ID.test(text) && !DOT_NUMERAL.test(text) && (HAS_WORD_CHAR.test(text) || c === 35)) {
        lift(start, i, text, false);
      }
      word();
    } else {
      if (c === 91 || c === 59 || c === 123 || c === 125) chain = 0; // [ ; { }
      i += 1;
    }
  }
  if (!problem && copyFrom < n) out.push(src.slice(copyFrom));
  if (problem && copyFrom < problem.offset) out.push(src.slice(copyFrom, problem.offset));

  // Callers mostly ask in increasing order, so start from the last answer.
  let hint = -1;
  const toOriginal = (offset: number): number => {
    let found: number;
    const next = hint + 1;
    if (hint >= -1 && (hint === -1 || (normStarts[hint] as number) <= offset) && (next >= normStarts.length || (normStarts[next] as number) > offset)) {
      found = hint;
    } else if (next < normStarts.length && (normStarts[next] as number) <= offset && (next + 1 >= normStarts.length || (normStarts[next + 1] as number) > offset)) {
      found = next;
    } else {
      let lo = 0;
      let hi = normStarts.length - 1;
      found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if ((normStarts[mid] as number) <= offset) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
    }
    hint = found;
    if (found === -1) return offset;
    const normStart = normStarts[found] as number;
    const origStart = origStarts[found] as number;
    const normEnd = normStart + (normLens[found] as number);
    if (offset < normEnd) return origStart;
    return origStart + (origLens[found] as number) + (offset - normEnd);
  };

  const result: NormalizedSource = { text: out.join(''), tokens, toOriginal };
  if (problem) result.problem = problem;
  return result;
}
