import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';

/** The start-up bundle in the CLI's `dist/`: the command line and `validate`, as one CommonJS file. */
export const CLI_SCRIPT = 'cli.cjs';
/** V8's code cache for {@link CLI_SCRIPT}, written by the build (scripts/build-cli.mjs). */
export const CLI_CODE_CACHE = 'cli.cjs.cache';
/**
 * How the start-up bundle's first line begins: the build puts a digest of the
 * bundle after it, and the code cache starts with the same line, so a cache
 * is only ever used with the bundle it was made from.
 */
export const BUILD_ID_PREFIX = '// orchestra-cli build ';

/** What the start-up bundle is called with, as node calls a CommonJS module. */
export type CliModuleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** The first line of `source` (its build id line), without the line break. */
export function buildIdLine(source: string): string {
  const end = source.indexOf('\n');
  return end === -1 ? source : source.slice(0, end);
}

/**
 * Compiles the start-up bundle `source` (from `filename`) as node compiles
 * a CommonJS module, with V8's `cachedData` when given (V8 ignores a cache
 * made by another node or V8 flags: `script.cachedDataRejected`).
 */
export function compileCliScript(source: string, filename: string, cachedData?: Buffer): Script {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  return new Script(wrapped, { filename, ...(cachedData ? { cachedData } : {}) });
}

/**
 * The code cache in `dist` that belongs to the bundle `source`: the bytes
 * after its first line, when that line is the bundle's own build id line.
 * Undefined when there is none or it belongs to another build.
 */
export function readCodeCache(dist: string, source: string): Buffer | undefined {
  const id = buildIdLine(source);
  if (!id.startsWith(BUILD_ID_PREFIX)) return undefined;
  let blob: Buffer;
  try {
    blob = readFileSync(join(dist, CLI_CODE_CACHE));
  } catch {
    return undefined;
  }
  const header = `${id}\n`;
  return blob.length > header.length && blob.toString('latin1', 0, header.length) === header ? blob.subarray(header.length) : undefined;
}

/** The file {@link readCodeCache} reads: `source`'s build id line, then V8's cache data. */
export function codeCacheFile(source: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${buildIdLine(source)}\n`, 'latin1'), data]);
}

/** Runs a compiled start-up bundle as the module `filename`, with `require` for its own requires. */
export function runCliScript(script: Script, filename: string, dirname: string, require: NodeJS.Require): void {
  const module = { exports: {} };
  (script.runInThisContext() as CliModuleFunction)(module.exports, require, module, filename, dirname);
}
