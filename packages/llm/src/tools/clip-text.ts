/**
 * `text` cut to about `limit` characters: the start and the end are kept
 * (the end of a command's output usually says how it went), with a note of
 * how much was left out in between.
 */
export function clipText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit / 3);
  const tail = limit - head;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters left out ...]\n${text.slice(text.length - tail)}`;
}
