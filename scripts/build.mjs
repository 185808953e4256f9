// Bundles the CLI into one ESM file (packages/cli/dist/orchestra.mjs) so the
// command starts in tens of milliseconds instead of compiling TypeScript at
// every start. Runs after install and before the tests; `pnpm build` by hand.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
await build({
  entryPoints: [`${root}packages/cli/src/bin.ts`],
  outfile: `${root}packages/cli/dist/orchestra.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (commander) call require(); give them one.
  banner: { js: "import { createRequire as __orchestraRequire } from 'node:module'; const require = __orchestraRequire(import.meta.url);" },
});
console.log(`built packages/cli/dist/orchestra.mjs in ${Math.round(performance.now() - started)} ms`);
