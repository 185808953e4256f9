import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILD_ID_PREFIX, CLI_CODE_CACHE, CLI_SCRIPT, codeCacheFile, compileCliScript, readCodeCache, runCliScript } from '../src/boot/cli-script.js';
import { tempDir } from './cli-helpers.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** A start-up bundle of build `id` that records what it was called with in `globalThis.__codeCacheTest`. */
function bundle(id: string): string {
  return `${BUILD_ID_PREFIX}${id}\nglobalThis.__codeCacheTest = { file: __filename, dir: __dirname, path: require('node:path').sep, twice: [1, 2].map((n) => n * 2) };\n`;
}

function ran(): unknown {
  const g = globalThis as { __codeCacheTest?: unknown };
  const value = g.__codeCacheTest;
  delete g.__codeCacheTest;
  return value;
}

describe('the start-up bundle runs with the code cache of its own build only', () => {
  it('runs a bundle as a CommonJS module, with and without a cache, the same way', () => {
    const dist = tempDir();
    const file = join(dist, CLI_SCRIPT);
    const source = bundle('aaaa');
    const script = compileCliScript(source, file);
    runCliScript(script, file, dist, createRequire(file));
    const expected = { file, dir: dist, path: sep, twice: [2, 4] };
    expect(ran()).toEqual(expected);
    writeFileSync(join(dist, CLI_CODE_CACHE), codeCacheFile(source, script.createCachedData()));
    const cached = readCodeCache(dist, source);
    expect(cached).toBeDefined();
    const again = compileCliScript(source, file, cached);
    expect(again.cachedDataRejected).toBe(false);
    runCliScript(again, file, dist, createRequire(file));
    expect(ran()).toEqual(expected);
  });

  it('ignores a cache of another build, a bundle without a build id, and a missing or empty cache', () => {
    const dist = tempDir();
    const source = bundle('aaaa');
    expect(readCodeCache(dist, source)).toBeUndefined();
    writeFileSync(join(dist, CLI_CODE_CACHE), codeCacheFile(bundle('bbbb'), Buffer.from('data')));
    expect(readCodeCache(dist, source)).toBeUndefined();
    writeFileSync(join(dist, CLI_CODE_CACHE), codeCacheFile(source, Buffer.alloc(0)));
    expect(readCodeCache(dist, source)).toBeUndefined();
    writeFileSync(join(dist, CLI_CODE_CACHE), codeCacheFile(source, Buffer.from('data')));
    expect(readCodeCache(dist, source)?.toString()).toBe('data');
    expect(readCodeCache(dist, 'no id line\n')).toBeUndefined();
  });

  it("the build's cache belongs to its bundle and this node accepts it", () => {
    const file = join(DIST, CLI_SCRIPT);
    expect(existsSync(file), `${file} is missing: run node scripts/build.mjs`).toBe(true);
    const source = readFileSync(file, 'utf8');
    expect(source.startsWith(BUILD_ID_PREFIX)).toBe(true);
    const cached = readCodeCache(DIST, source);
    expect(cached).toBeDefined();
    expect(compileCliScript(source, file, cached).cachedDataRejected).toBe(false);
  });
});
