/** Characters that need no quoting in a POSIX shell (bash, zsh, sh) word. */
const PLAIN = /^[A-Za-z0-9_/.,:=@+-]+$/;

/**
 * One argument as a POSIX shell reads it back unchanged: as it is when it
 * holds only safe characters, else in single quotes (a `'` inside written
 * `'\''`). Used for the commands orchestra prints for pasting.
 */
export function shellQuote(arg: string): string {
  if (PLAIN.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line to paste into a shell: each argument quoted as needed by {@link shellQuote}. */
export function shellCommand(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}
