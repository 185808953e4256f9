import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';

/** The search path a process gets when its environment has no `PATH` (libuv's default, as `spawn` uses). */
const DEFAULT_PATH = '/usr/bin:/bin';

function errnoError(code: 'ENOENT' | 'EACCES', file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${file}`), { code });
}

/**
 * The executable `spawn` would run for `file` in `cwd` with `env`: a name
 * with a slash is taken relative to `cwd`, any other is looked up on the
 * environment's `PATH`. Throws an `ENOENT` (or `EACCES`, when only
 * non-executable files match) error as `spawn` would report it, so a program
 * started behind a gate fails to start the same way as one spawned directly.
 */
export function resolveProgram(file: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const candidates = file.includes('/') ? [resolve(cwd, file)] : (env.PATH ?? DEFAULT_PATH).split(delimiter).map((dir) => resolve(cwd, dir, file));
  let code: 'ENOENT' | 'EACCES' = 'ENOENT';
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      code = 'EACCES';
    }
  }
  throw errnoError(code, file);
}
