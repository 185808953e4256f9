// Runs every benchmark with the same arguments (`--json`, `--runs N`): a pnpm
// script would hand them to its last command only. Each entry's own default
// number of runs applies when `--runs` is not given.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const entries = [
  [[], 'dist/main.mjs'],
  [['--expose-gc'], 'dist/engine-main.mjs'],
  [[], 'dist/llm-main.mjs'],
  [['--expose-gc'], 'dist/checks-main.mjs'],
  [[], 'dist/render-main.mjs'],
  [[], 'dist/startup-main.mjs'],
];
for (const [flags, entry] of entries) {
  const result = spawnSync(process.execPath, [...flags, new URL(entry, import.meta.url).pathname, ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
