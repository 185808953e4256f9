const KEY_PREFIX = /^[A-Za-z]{2,4}[-_]/;
const MIN_REVEALED_LENGTH = 12;

/**
 * An API key safe to print: its vendor prefix and last four characters
 * (`sk-…1234`); `(hidden)` for keys too short to reveal anything of;
 * `(none)` when there is no key.
 */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  if (key.length < MIN_REVEALED_LENGTH) return '(hidden)';
  const prefix = KEY_PREFIX.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}
