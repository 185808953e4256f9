import { escapeControl } from '@orchestra/core/loader';

/** Most characters of stderr put in an error message. */
export const STDERR_TAIL_CHARS = 300;

/**
 * The last lines of a program's stderr as one line for an error message:
 * blank lines dropped, lines joined with ` | `, control characters escaped,
 * at most `limit` characters (the end is kept).
 */
export function stderrTail(stderr: string, limit = STDERR_TAIL_CHARS): string {
  const lines = stderr
    .split('\n')
    .map((line) => escapeControl(line.trim(), { keepNewlines: false }))
    .filter(Boolean);
  let tail = '';
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    const joined = tail ? `${line} | ${tail}` : line;
    if (joined.length > limit) {
      if (!tail) tail = `…${line.slice(line.length - (limit - 1))}`;
      break;
    }
    tail = joined;
  }
  return tail;
}
