/** Characters that need no quoting in a POSIX shell (bash, zsh, sh) word. */
const PLAIN = /^[A-Za-z0-9_/.,:=@+-]+$/;

/** Control characters and bidirectional marks, which a terminal would obey if printed as they are. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const ANSI_C_NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\u0007': '\\a', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\u001b': '\\E', '\\': '\\\\', "'": "\\'" };

/** One character inside `$'...'`: backslash escapes for controls, quotes and backslashes. */
function ansiC(char: string): string {
  const named = ANSI_C_NAMED[char];
  if (named) return named;
  if (!CONTROL.test(char)) return char;
  const code = char.charCodeAt(0);
  // \x makes a byte: only ASCII is written so (U+009B is two bytes of UTF-8).
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * One argument as a POSIX shell reads it back unchanged: as it is when it
 * holds only safe characters, else in single quotes (a `'` inside written
 * `'\''`). An argument with control characters or bidirectional marks is
 * written `$'...'` with backslash escapes instead (bash, zsh, ksh and
 * POSIX.1-2024 shells read it back): printed raw, they would act on the
 * terminal instead of showing. Used for the commands orchestra prints for
 * pasting.
 */
export function shellQuote(arg: string): string {
  if (PLAIN.test(arg)) return arg;
  if (CONTROL.test(arg)) return `$'${Array.from(arg, ansiC).join('')}'`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line to paste into a shell: each argument quoted as needed by {@link shellQuote}. */
export function shellCommand(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}
