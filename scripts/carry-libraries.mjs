// The libraries the CLI carries for `orchestra init`: builds @orchestra/core
// (tsc --build, incremental) and copies its package.json and dist/ (no source
// maps) to packages/cli/dist/libraries/core/. `orchestra init` packs that
// directory into the new project's vendor/, so the project installs the
// library this CLI was built with while nothing is on the npm registry (see
// packages/cli/src/init/vendored-packages.ts). Run by scripts/build.mjs.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Builds the named libraries and copies each into the CLI's dist/libraries/<name>/. */
export function carryLibraries(names = ['core']) {
  const started = performance.now();
  const built = spawnSync(process.execPath, [`${root}scripts/build-packages.mjs`, ...names], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  for (const name of names) {
    const from = `${root}packages/${name}`;
    const to = `${root}packages/cli/dist/libraries/${name}`;
    rmSync(to, { recursive: true, force: true });
    mkdirSync(to, { recursive: true });
    cpSync(`${from}/package.json`, `${to}/package.json`);
    cpSync(`${from}/dist`, `${to}/dist`, { recursive: true, filter: (path) => !path.endsWith('.map') && !path.endsWith('.tsbuildinfo') });
  }
  console.log(`copied ${names.map((n) => `packages/${n}`).join(', ')} to packages/cli/dist/libraries/ in ${Math.round(performance.now() - started)} ms`);
}
