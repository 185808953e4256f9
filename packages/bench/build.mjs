// Bundles the benchmarks so they run on plain node (no TypeScript compiler in
// the measured process: its memory and start-up would distort the figures).
import { build } from 'esbuild';

const banner = { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" };
// The store benchmark leaves LangChain packages to node (from node_modules): the SQLite
// checkpointer it installs on demand (.peers) must share LangGraph's copy of
// @langchain/langgraph-checkpoint, which a bundled copy would not be. pg loads its optional native
// binding (pg-native) only when asked for it; nothing here asks.
const entries = [
  ['main', []],
  ['engine-main', []],
  ['llm-main', []],
  ['checks-main', []],
  ['render-main', []],
  ['startup-main', []],
  ['server-main', []],
  ['server-client-child', []],
  ['store-main', ['@langchain/*', 'pg-native']],
  ['store-child', ['@langchain/*']],
  ['workers-main', ['pg-native']],
  ['list-main', ['pg-native']],
];
for (const [entry, external] of entries) {
  await build({
    entryPoints: [new URL(`./src/${entry}.ts`, import.meta.url).pathname],
    outfile: new URL(`./dist/${entry}.mjs`, import.meta.url).pathname,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner,
    external,
  });
}
