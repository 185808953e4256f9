/**
 * Characters `JSON.stringify` leaves as they are but a terminal obeys or
 * reorders: DEL, the C1 controls (`\u009b` is a CSI), the bidirectional marks,
 * overrides and isolates, and the line and paragraph separators. (It
 * escapes the C0 controls, ESC among them, itself.)
 */
const UNESCAPED = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value, null, space)` for printing on a terminal: the same
 * JSON value, with the characters it would leave raw that a terminal obeys
 * written as `\uXXXX` escapes (they can only be inside strings, so the text
 * parses back to the same value).
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNESCAPED, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
