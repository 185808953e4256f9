import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files under `dir`, depth first in name order, absolute. `skipHidden`
 * leaves out dot-files and `node_modules`; `limit` stops the walk after that
 * many files.
 */
export function filesUnder(dir: string, options: { skipHidden?: boolean; limit?: number } = {}): string[] {
  const out: string[] = [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= limit) return;
      if (options.skipHidden && (entry.name.startsWith('.') || entry.name === 'node_modules')) continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(path);
    }
  };
  walk(dir);
  return out;
}
