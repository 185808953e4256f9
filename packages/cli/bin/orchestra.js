#!/usr/bin/env node
// Launcher for the `orchestra` command. Runs the bundled CLI (dist/, built by
// `pnpm build`, which install and the test command run) when it is newer than
// every source file; otherwise runs the TypeScript sources through tsx, so an
// edited checkout never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/orchestra.mjs', import.meta.url));
const sourceDirs = ['../src', '../../core/src', '../../llm/src', '../../server/src', '../../chat/src'].map((p) => fileURLToPath(new URL(p, import.meta.url)));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return sourceDirs.every((dir) => !existsSync(dir) || newestSource(dir) <= built);
}

if (bundleIsFresh()) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/bin.ts');
}
