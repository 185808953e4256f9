import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The CLI launcher, relative to a checkout's root. */
export const CLI_BIN = 'packages/cli/bin/orchestra.js';
/** The bundle files whose running shows that the launcher took the bundle: the start-up bundle, or an older build's ES-module bundle. */
export const CLI_BUNDLES = ['packages/cli/dist/cli.cjs', 'packages/cli/dist/orchestra.mjs'];

/** What a launcher that reads the build's stamp exports (bin/orchestra.js). */
interface StampLauncher {
  staleReason: (cliDir: string, argv: readonly string[]) => string | undefined;
}

function newest(dir: string): { mtimeMs: number; file: string } {
  let best = { mtimeMs: 0, file: '' };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newest(path) : { mtimeMs: statSync(path).mtimeMs, file: path };
    if (found.mtimeMs > best.mtimeMs) best = found;
  }
  return best;
}

/** The check of launchers from before the stamp (a previous version's checkout): the bundle newer than every source. */
function staleByNewestSource(root: string): string | undefined {
  const bundle = join(root, 'packages/cli/dist/orchestra.mjs');
  if (!existsSync(bundle)) return `${bundle} does not exist`;
  const built = statSync(bundle).mtimeMs;
  for (const dir of ['cli', 'core', 'llm'].map((d) => join(root, 'packages', d, 'src')).filter((d) => existsSync(d))) {
    const latest = newest(dir);
    if (latest.mtimeMs > built) return `${latest.file} is newer than ${bundle}`;
  }
  return undefined;
}

/**
 * Why the launcher of the checkout at `root` would not run its bundle for
 * every command (it falls back to compiling the TypeScript sources with tsx,
 * which is slower by far), or `undefined` when the bundle is up to date. Asks
 * the launcher itself when it reads the build's stamp (dist/stamp/).
 */
export function staleBundle(root: string): string | undefined {
  if (!existsSync(join(root, 'packages/cli/dist/stamp'))) return staleByNewestSource(root);
  const launcher = createRequire(import.meta.url)(join(root, CLI_BIN)) as StampLauncher;
  return launcher.staleReason(join(root, 'packages/cli'), ['run']);
}
