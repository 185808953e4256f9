import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The public entry of @orchestra/core, the module a second copy is made from. */
const ENTRY = new URL('../../src/index.ts', import.meta.url);

/**
 * A second, separate copy of `@orchestra/core`: its sources bundled by
 * esbuild into one file (as the CLI's bundle carries core) and imported as
 * an ordinary module, so its classes are not the ones the tests import from
 * `src/`.
 */
export async function importSecondCopy(): Promise<typeof import('../../src/index.js')> {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-core-copy-'));
  try {
    const outfile = join(dir, 'core.mjs');
    await build({ entryPoints: [ENTRY.pathname], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' });
    return (await import(pathToFileURL(outfile).href)) as typeof import('../../src/index.js');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
