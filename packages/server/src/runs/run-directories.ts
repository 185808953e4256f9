/** What a run id in a URL may be: a run directory's name (no path separators, no dot-dot). */
const RUN_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Whether `id` can name a run of the server's catalogue. */
export function isRunId(id: string): boolean {
  return RUN_ID.test(id) && !id.includes('..');
}
