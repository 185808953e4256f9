import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import type { Env } from './env.js';

/** The file names orchestra looks for in each directory; `.yaml` is preferred. */
export const CONFIG_FILE_NAMES = ['orchestra.yaml', 'orchestra.yml'] as const;

/** Where to look for configuration. */
export interface ConfigSearch {
  /** The pipeline being run; the file next to it is the nearest. */
  pipelineFile?: string;
  /** The working directory. */
  cwd: string;
  /** The home directory (`<home>/.orchestra/` is searched); defaults to `HOME` / `USERPROFILE` from `env`. */
  home?: string;
  /** Environment, read only for the home directory fallback. */
  env?: Env;
}

function identity(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** The directories searched, nearest first: the pipeline's, `cwd`, `<home>/.orchestra`; each directory once. */
export function configSearchDirs(search: ConfigSearch): string[] {
  const cwd = resolve(search.cwd);
  const home = search.home ?? search.env?.HOME ?? search.env?.USERPROFILE;
  const candidates = [
    ...(search.pipelineFile ? [dirname(resolve(cwd, search.pipelineFile))] : []),
    cwd,
    ...(home ? [join(resolve(cwd, home), '.orchestra')] : []),
  ];
  const seen = new Set<string>();
  return candidates.filter((dir) => {
    const id = identity(dir);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The configuration files that exist, nearest first (absolute paths). A
 * directory holding both `orchestra.yaml` and `orchestra.yml` is an error:
 * orchestra reads one file per directory and will not guess which.
 */
export function findConfigFiles(search: ConfigSearch): string[] {
  const files: string[] = [];
  for (const dir of configSearchDirs(search)) {
    const present = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => existsSync(file));
    if (present.length > 1) {
      throw new ConfigError(
        { file: present[1] as string, line: 1, column: 1 },
        [],
        `both ${CONFIG_FILE_NAMES[0]} and ${CONFIG_FILE_NAMES[1]} exist in ${dir}; orchestra reads one file per directory: merge them into ${CONFIG_FILE_NAMES[0]}`,
      );
    }
    if (present[0]) files.push(present[0]);
  }
  return files;
}
