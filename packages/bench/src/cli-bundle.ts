import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The CLI launcher and its bundle, relative to a checkout's root. */
export const CLI_BIN = 'packages/cli/bin/orchestra.js';
export const CLI_BUNDLE = 'packages/cli/dist/orchestra.mjs';
/** The source directories the launcher compares with the bundle. */
const SOURCE_DIRS = ['packages/cli/src', 'packages/core/src', 'packages/llm/src'];

function newest(dir: string): { mtimeMs: number; file: string } {
  let best = { mtimeMs: 0, file: '' };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newest(path) : { mtimeMs: statSync(path).mtimeMs, file: path };
    if (found.mtimeMs > best.mtimeMs) best = found;
  }
  return best;
}

/**
 * Why the launcher of the checkout at `root` would not run its bundle (it
 * falls back to compiling the TypeScript sources with tsx, which is slower by
 * far): the bundle is missing, or a source file is newer. `undefined` when
 * the bundle is fresh. Mirrors the launcher's own check.
 */
export function staleBundle(root: string): string | undefined {
  const bundle = join(root, CLI_BUNDLE);
  if (!existsSync(bundle)) return `${bundle} does not exist`;
  const built = statSync(bundle).mtimeMs;
  for (const dir of SOURCE_DIRS.map((d) => join(root, d)).filter((d) => existsSync(d))) {
    const latest = newest(dir);
    if (latest.mtimeMs > built) return `${latest.file} is newer than ${bundle}`;
  }
  return undefined;
}
