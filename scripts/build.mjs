// Bundles the CLI (packages/cli/dist/orchestra.mjs plus lazily loaded chunks) so the
// command starts in tens of milliseconds instead of compiling TypeScript at
// every start. Runs after install and before the tests; `pnpm build` by hand.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
rmSync(`${root}packages/cli/dist`, { recursive: true, force: true }); // no stale chunks
await build({
  entryPoints: [`${root}packages/cli/src/bin.ts`],
  // Split at the CLI's lazy command imports: `validate` loads the loader, not the engine.
  outdir: `${root}packages/cli/dist`,
  entryNames: 'orchestra',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (commander) call require(); give them one.
  banner: { js: "import { createRequire as __orchestraRequire } from 'node:module'; const require = __orchestraRequire(import.meta.url);" },
});
console.log(`built packages/cli/dist/ in ${Math.round(performance.now() - started)} ms`);
