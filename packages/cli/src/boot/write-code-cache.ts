/**
 * Makes the start-up bundle's code cache: run by the build (scripts/build-cli.mjs),
 * bundled as CommonJS into the CLI's `dist/` for that one run, as
 * `node dist/<this>.cjs validate <pipelines...>`. Compiles `dist/cli.cjs` exactly
 * as `dist/orchestra.cjs` does, runs the command it was given, and at exit
 * writes V8's cache of everything compiled so far (the functions that
 * command ran included) to `dist/cli.cjs.cache`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_CODE_CACHE, CLI_SCRIPT, codeCacheFile, compileCliScript, runCliScript } from './cli-script.js';

const filename = join(__dirname, CLI_SCRIPT);
const source = readFileSync(filename, 'utf8');
const script = compileCliScript(source, filename);
process.on('exit', () => writeFileSync(join(__dirname, CLI_CODE_CACHE), codeCacheFile(source, script.createCachedData())));
runCliScript(script, filename, __dirname, require);
