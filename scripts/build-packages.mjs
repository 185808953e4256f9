// Builds the libraries (@orchestra/core, @orchestra/llm, @orchestra/testing) to
// JavaScript plus .d.ts in each package's dist/, the files their published
// `exports` (publishConfig.exports) point at. Inside the workspace the
// sources stay the entry, so tests never need this; `pnpm pack` runs it
// (prepack, for that package alone: `pnpm -r pack` packs several at once),
// and so does `pnpm build`. Incremental: a second run with no change takes
// about a second. Arguments name packages (default: all three).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(`${root}package.json`).resolve('typescript/bin/tsc');
const names = process.argv.length > 2 ? process.argv.slice(2) : ['core', 'llm', 'testing'];
const projects = names.map((name) => `${root}packages/${name}/tsconfig.build.json`);
const started = performance.now();
const result = spawnSync(process.execPath, [tsc, '--build', ...projects], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`built ${names.map((n) => `packages/${n}/dist/`).join(', ')} in ${Math.round(performance.now() - started)} ms`);
