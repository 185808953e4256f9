/**
 * Lexer for Attractor DOT text, as far as normalisation needs one: it finds
 * quoted strings, comments, HTML-like strings, edge operators, bare words and
 * the delimiters that end an edge chain, and skips everything else
 * (whitespace, `=`, `,`, `]`, ...). It works on char codes and allocates
 * nothing per token except the decoded value of a quoted string.
 */

/** What {@link DotLexer.next} found. */
export type TokenKind =
  /** A closed quoted string; its decoded value is in {@link DotLexer.value}. */
  | 'string'
  /** A `"` that is never closed; the token runs to the end of the text. */
  | 'unterminated-string'
  /** A `//` comment, or a `#` comment first on its line; it ends before the line break. */
  | 'line-comment'
  /** A closed `/* ... *\/` comment. */
  | 'block-comment'
  /** A `/*` that is never closed; the token runs to the end of the text. */
  | 'unterminated-comment'
  /** An HTML-like string `<...>` (nesting allowed), or its unclosed rest of the text. */
  | 'html'
  /** An edge operator, `->` or `--`. */
  | 'edge'
  /** A bare word: letters, digits, `_`, `.`, `:`, `-`, non-ASCII, or a `#` not first on its line. */
  | 'word'
  /** One of `[`, `;`, `{` and `}`, which end an edge chain. */
  | 'delimiter';

// Char codes the lexer looks for.
const TAB = 9;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const STAR = 42;
const HYPHEN = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const SEMICOLON = 59;
const LESS_THAN = 60;
const GREATER_THAN = 62;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const UNDERSCORE = 95;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** The string escapes of the Attractor dialect; any other `\x` is kept as written. */
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '"': '"' };

/**
 * Walks a text token by token. After {@link next} returns true, `kind`,
 * `start` and `end` describe the token found (and `value` a string's value).
 */
export class DotLexer {
  /** Kind of the current token. */
  kind: TokenKind = 'delimiter';
  /** Offset of the current token's first character. */
  start = 0;
  /** Offset just past the current token; the next one is looked for from here. */
  end = 0;
  /** Decoded value of the current token when it is a `string`. */
  value = '';

  constructor(private readonly src: string) {}

  /** Moves to the next token, skipping characters that start none; false at the end of the text. */
  next(): boolean {
    const n = this.src.length;
    for (let i = this.end; i < n; i++) {
      if (this.readAt(i)) return true;
    }
    this.start = this.end = n;
    return false;
  }

  /** Reads the token starting at `i`, if one does. */
  private readAt(i: number): boolean {
    const src = this.src;
    const c = src.charCodeAt(i);
    if (c === QUOTE) return this.readQuotedString(i);
    if (c === SLASH && src.charCodeAt(i + 1) === SLASH) return this.found('line-comment', i, lineEnd(src, i));
    if (c === HASH && atLineStart(src, i)) return this.found('line-comment', i, lineEnd(src, i));
    if (c === SLASH && src.charCodeAt(i + 1) === STAR) return this.readBlockComment(i);
    if (c === LESS_THAN) return this.found('html', i, htmlStringEnd(src, i));
    if (isEdgeOperatorAt(src, i)) return this.found('edge', i, i + 2);
    if (isWordChar(c) || c === HASH) return this.found('word', i, bareWordEnd(src, i));
    if (c === OPEN_BRACKET || c === SEMICOLON || c === OPEN_BRACE || c === CLOSE_BRACE) return this.found('delimiter', i, i + 1);
    return false;
  }

  /** Makes `src[start, end)` the current token, of the given kind. */
  private found(kind: TokenKind, start: number, end: number): true {
    this.kind = kind;
    this.start = start;
    this.end = end;
    return true;
  }

  /** Reads the block comment at `start`, which may be unterminated. */
  private readBlockComment(start: number): true {
    const close = this.src.indexOf('*/', start + 2);
    if (close === -1) return this.found('unterminated-comment', start, this.src.length);
    return this.found('block-comment', start, close + 2);
  }

  /**
   * Reads the quoted string whose opening `"` is at `start`, decoding the
   * dialect escapes and dropping backslash-newline line continuations.
   */
  private readQuotedString(start: number): true {
    const src = this.src;
    const n = src.length;
    let value = '';
    let i = start + 1;
    let runStart = i;
    while (i < n) {
      const c = src.charCodeAt(i);
      if (c === QUOTE) {
        this.value = value + src.slice(runStart, i);
        return this.found('string', start, i + 1);
      }
      if (c === BACKSLASH && i + 1 < n) {
        value += src.slice(runStart, i);
        const continuation = lineContinuationLength(src, i);
        if (continuation > 0) {
          i += continuation;
        } else {
          value += decodeEscape(src[i + 1] as string);
          i += 2;
        }
        runStart = i;
        continue;
      }
      i += 1;
    }
    return this.found('unterminated-string', start, n);
  }
}

/** Length of the line continuation (backslash then LF or CRLF) at `i`, or 0 when there is none. */
function lineContinuationLength(src: string, i: number): number {
  const next = src.charCodeAt(i + 1);
  if (next === LINE_FEED) return 2;
  if (next === CARRIAGE_RETURN && src.charCodeAt(i + 2) === LINE_FEED) return 3;
  return 0;
}

/** What a backslash followed by `next` stands for: a dialect escape, or both characters as written. */
function decodeEscape(next: string): string {
  return ESCAPES[next] ?? `\\${next}`;
}

/** Offset of the first line break at or after `start`, or the text's length. */
function lineEnd(src: string, start: number): number {
  const end = src.indexOf('\n', start);
  return end === -1 ? src.length : end;
}

/** True when only spaces, tabs or carriage returns stand between the previous line break and `offset`. */
function atLineStart(src: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const c = src.charCodeAt(i);
    if (c === LINE_FEED) return true;
    if (c !== SPACE && c !== TAB && c !== CARRIAGE_RETURN) return false;
  }
  return true;
}

/** Offset just past the HTML-like string (`<...>`, nesting allowed) at `start`, or the text's length. */
function htmlStringEnd(src: string, start: number): number {
  const n = src.length;
  let depth = 0;
  for (let i = start; i < n; i++) {
    const c = src.charCodeAt(i);
    if (c === LESS_THAN) depth += 1;
    else if (c === GREATER_THAN && --depth === 0) return i + 1;
  }
  return n;
}

/** True when an edge operator (`->` or `--`) starts at `i`. */
function isEdgeOperatorAt(src: string, i: number): boolean {
  if (src.charCodeAt(i) !== HYPHEN) return false;
  const next = src.charCodeAt(i + 1);
  return next === GREATER_THAN || next === HYPHEN;
}

/** True for characters of a bare word: ASCII letters and digits, `_`, `.`, `:`, `-` and anything outside ASCII. */
function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === UNDERSCORE ||
    code === DOT ||
    code === COLON ||
    code === HYPHEN ||
    code >= 0x80
  );
}

/**
 * Offset just past the bare word whose first character is at `start` (that
 * character is taken whatever it is). The word stops before an edge operator,
 * so `a->b` is three tokens.
 */
function bareWordEnd(src: string, start: number): number {
  const n = src.length;
  let i = start + 1;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (!isWordChar(c)) break;
    if (c === HYPHEN && isEdgeOperatorAt(src, i)) break;
    i += 1;
  }
  return i;
}
