#!/usr/bin/env node
/**
 * The `orchestra` command as installed (`dist/orchestra.cjs`, the package's
 * `bin`; in a checkout the launcher `bin/orchestra.js` requires it): runs the
 * start-up bundle `dist/cli.cjs` compiled with the V8 code cache the build
 * made for it, which spares node most of the parsing and compiling at every
 * start. Without a usable cache it is required as any CommonJS module.
 *
 * Bundled by scripts/build-cli.mjs as CommonJS: `__dirname` and `require`
 * are this file's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_SCRIPT, compileCliScript, readCodeCache, runCliScript } from './cli-script.js';

const filename = join(__dirname, CLI_SCRIPT);
const source = readFileSync(filename, 'utf8');
const cachedData = readCodeCache(__dirname, source);
if (cachedData) runCliScript(compileCliScript(source, filename, cachedData), filename, __dirname, require);
else require(filename);
