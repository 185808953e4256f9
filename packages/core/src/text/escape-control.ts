/**
 * C0 controls, DEL, C1 controls, and the Unicode bidirectional overrides and
 * isolates (which can make a terminal show text in another order than it is).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\u001b': '\\e' };

/** How {@link escapeControl} treats line breaks and tabs. */
export interface EscapeOptions {
  /** Keep `\n` and `\t` as they are (default true); false makes the text one line. */
  keepNewlines?: boolean;
}

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Makes text from a process or a file safe to print: every control character
 * (escape sequences, carriage returns, backspaces, bidirectional overrides)
 * is written as a visible escape (`\e`, `\r`, `\x07`, `\u202e`), so output
 * cannot move the cursor, recolour or rewrite a terminal. `\n` and `\t` are
 * kept unless `keepNewlines` is false.
 */
export function escapeControl(text: string, options: EscapeOptions = {}): string {
  const keep = options.keepNewlines ?? true;
  return text.replace(CONTROL, (char) => (keep && (char === '\n' || char === '\t') ? char : escapeOne(char)));
}
