import { browserTestMode } from '../browser/availability.js';

/**
 * Global setup of the server's tests: when the browser tests are skipped,
 * says so once for the whole run (one line, with how to run them), instead
 * of a skipped count nobody reads.
 */
export default function browserNotice(): void {
  const { notice } = browserTestMode(process.env);
  if (notice) process.stderr.write(`${notice}\n`);
}
