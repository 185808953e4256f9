import { runCli } from './program.js';

// No top-level await: the build bundles this file as CommonJS (scripts/build-cli.mjs).
// A reader that goes away (`orchestra ... | head`) is handled where the CLI writes (io.ts).
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
