import { runCli } from './program.js';

// A reader that goes away (`orchestra ... | head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// No top-level await: the build bundles this file as CommonJS (scripts/build-cli.mjs).
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
