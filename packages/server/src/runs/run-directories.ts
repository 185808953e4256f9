import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { defaultLogsRoot } from '@orchestra/core';
import { ApiError } from './api-error.js';

/** What a run id may be: a run directory's name (no path separators, no dot-dot). */
const RUN_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Whether `id` can name a run directory. */
export function isRunId(id: string): boolean {
  return RUN_ID.test(id) && !id.includes('..');
}

/** The directory of run `id` in `runsDir`; a 404 {@link ApiError} for an id that names none. */
export function runDirectory(runsDir: string, id: string): string {
  const dir = isRunId(id) ? join(runsDir, id) : undefined;
  if (!dir || !existsSync(join(dir, 'manifest.json'))) throw new ApiError(404, 'ORCH_RUN_NOT_FOUND', `no run ${JSON.stringify(id)} in ${runsDir}`);
  return dir;
}

/** A directory for a new run of `pipeline`: `<runsDir>/<timestamp>-<pipeline>`, with `-2`, `-3`... if taken. */
export function newRunDirectory(runsDir: string, pipeline: string, taken: (dir: string) => boolean): string {
  const base = join(runsDir, basename(defaultLogsRoot(pipeline)));
  let dir = base;
  for (let n = 2; existsSync(dir) || taken(dir); n += 1) dir = `${base}-${n}`;
  return dir;
}

/** The ids of the run directories in `runsDir` (those holding a manifest). */
export function listRunIds(runsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(runsDir);
  } catch {
    return [];
  }
  return names.filter((name) => isRunId(name) && existsSync(join(runsDir, name, 'manifest.json')));
}
