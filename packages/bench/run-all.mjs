// Runs both benchmarks with the same arguments (`--json`, `--runs N`): a pnpm
// script would hand them to its last command only.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
for (const [flags, entry] of [[[], 'dist/main.mjs'], [['--expose-gc'], 'dist/engine-main.mjs']]) {
  const result = spawnSync(process.execPath, [...flags, new URL(entry, import.meta.url).pathname, ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
