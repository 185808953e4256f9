// Bundles the benchmarks so they run on plain node (no TypeScript compiler in
// the measured process: its memory and start-up would distort the figures).
import { build } from 'esbuild';

const banner = { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" };
for (const entry of ['main', 'engine-main', 'llm-main', 'startup-main']) {
  await build({
    entryPoints: [new URL(`./src/${entry}.ts`, import.meta.url).pathname],
    outfile: new URL(`./dist/${entry}.mjs`, import.meta.url).pathname,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner,
  });
}
