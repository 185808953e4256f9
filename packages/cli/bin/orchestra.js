#!/usr/bin/env node
// Launcher for the `orchestra` command in a checkout (an installed CLI runs
// dist/orchestra.cjs directly, with no sources next to it to compare). Runs the
// bundle (dist/, built by `pnpm build`, which install and the test command run)
// when every workspace file it was built from still has the mtime the build
// recorded in dist/stamp/; otherwise the TypeScript sources through tsx, so an
// edited checkout never runs stale code. `validate` and help run only the
// start-up bundle (dist/cli.cjs), so for them only its own files are compared.
//
// CommonJS (bin/package.json): node starts it without setting up its
// ES-module loader, which `validate` never needs. Required rather than run
// (the benchmarks and tests ask it whether the bundle is up to date), it only
// exports staleReason.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

/** The stamp's groups the command in `argv` runs: `start` always, `commands` unless it is validate, help or none. */
function stampGroups(argv) {
  const command = argv.find((arg) => !arg.startsWith('-'));
  return command === undefined || command === 'validate' || command === 'help' ? ['start'] : ['start', 'commands'];
}

/**
 * Why the bundle of the CLI package in `cliDir` is not up to date for the
 * command in `argv`, or undefined when it is: for each of its groups, the
 * stamp the build wrote (dist/stamp/<group>.json, `[path, mtime]` pairs, paths
 * from the repository root) exists and every file in it has the recorded
 * mtime. (Paths are joined by hand: path.join on each costs more than the stat.)
 */
function staleReason(cliDir, argv) {
  const root = `${join(cliDir, '..', '..')}/`;
  for (const group of stampGroups(argv)) {
    const stamp = join(cliDir, 'dist', 'stamp', `${group}.json`);
    let files;
    try {
      files = JSON.parse(readFileSync(stamp, 'utf8'));
    } catch {
      return `${stamp} is missing or unreadable (no build, or one that did not finish)`;
    }
    if (!Array.isArray(files)) return `${stamp} is not a list of files`;
    for (const [file, mtime] of files) {
      const stats = statSync(root + file, { throwIfNoEntry: false });
      if (stats === undefined) return `${file} is gone since the build`;
      if (stats.mtimeMs !== mtime) return `${file} changed since the build`;
    }
  }
  return undefined;
}

/** Runs the command: the bundle when it is up to date, else the sources through tsx. */
function launch() {
  const cliDir = join(__dirname, '..');
  if (staleReason(cliDir, process.argv.slice(2)) === undefined) {
    require('../dist/orchestra.cjs');
    return;
  }
  import('tsx/esm/api')
    .then(({ register }) => {
      register();
      return import('../src/bin.ts');
    })
    .catch((error) => {
      process.exitCode = 70;
      throw error;
    });
}

module.exports = { staleReason, stampGroups };
if (require.main === module) launch();
