/**
 * Whether the browser tests run: decided from the environment alone, by the
 * test files (skip or run) and by the project's global setup (the one line
 * that says they were skipped). Imports nothing heavy: the global setup runs
 * it before any test file.
 */
import { existsSync } from 'node:fs';

/** Where Chromium is looked for when `CHROMIUM_PATH` names nothing (Debian's package). */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** What the browser tests do on this machine. */
export interface BrowserTestMode {
  /** True: the browser tests are skipped (each file's `describe.skipIf`). */
  skip: boolean;
  /** The browser they launch (or would have launched). */
  executablePath: string;
  /** Set when they are skipped: one line saying so, and how to run them. */
  notice?: string;
}

/** `CI` as CI services set it (`true`, `1`); `false`, `0` or empty is not CI. */
function isCI(env: NodeJS.ProcessEnv): boolean {
  const value = (env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== 'false' && value !== '0';
}

/**
 * The rules: `ORCHESTRA_SKIP_BROWSER=1` skips them; a Chromium at
 * `CHROMIUM_PATH` (default {@link DEFAULT_CHROMIUM}) runs them; with no
 * Chromium they are skipped with a notice, except under `CI`, where they
 * stay required and fail saying what is missing.
 */
export function browserTestMode(env: NodeJS.ProcessEnv, exists: (path: string) => boolean = existsSync): BrowserTestMode {
  const executablePath = env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (env.ORCHESTRA_SKIP_BROWSER === '1') {
    return { skip: true, executablePath, notice: 'orchestra: the browser tests (packages/server/test/browser) were skipped: ORCHESTRA_SKIP_BROWSER=1 is set' };
  }
  if (exists(executablePath) || isCI(env)) return { skip: false, executablePath };
  return {
    skip: true,
    executablePath,
    notice:
      `orchestra: the browser tests (packages/server/test/browser) were skipped: no Chromium at ${executablePath}; ` +
      'to run them, install it (apt-get install chromium) or set CHROMIUM_PATH to its executable (under CI=true they are required)',
  };
}
