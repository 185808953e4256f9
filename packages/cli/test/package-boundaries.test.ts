import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryPoints } from '../../../scripts/api-report.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = join(ROOT, 'packages');

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'web-dist', 'api'].includes(entry.name) ? [] : codeFiles(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier of a file: after `from`, a bare `import`, in `import(...)`. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)(['"])([^'"]+)\1/g)].map((m) => m[2] as string);
}

/** The workspace package a path is in (`core` for packages/core/...). */
function packageOf(path: string): string {
  return relative(PACKAGES, path).split(/[\\/]/)[0] as string;
}

/** What in a file reaches into another package other than through an entry point it exports. */
function crossings(file: string, text: string, entries: ReadonlySet<string>): string[] {
  const own = packageOf(file);
  return specifiersOf(text).flatMap((specifier) => {
    if (specifier.startsWith('.')) {
      const target = resolve(dirname(file), specifier);
      const inside = !relative(PACKAGES, target).startsWith('..');
      return inside && packageOf(target) !== own ? [`${relative(ROOT, file)} imports ${specifier}, a file of packages/${packageOf(target)}`] : [];
    }
    if (specifier.startsWith('@orchestra/') && !entries.has(specifier)) return [`${relative(ROOT, file)} imports ${specifier}, which is no entry point`];
    return [];
  });
}

/**
 * Packages use each other through their entry points only (their
 * `exports`): nothing imports a file of another package by its path.
 */
describe('package boundaries', () => {
  const entries = new Set(entryPoints(ROOT).map((e) => e.name));

  it('no file imports another package but through an entry point', () => {
    const self = fileURLToPath(import.meta.url); // its own probes below would count
    const files = readdirSync(PACKAGES).flatMap((name) => codeFiles(join(PACKAGES, name))).filter((file) => file !== self);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => crossings(file, readFileSync(file, 'utf8'), entries))).toEqual([]);
  });

  it('catches a relative import into another package and an entry point that does not exist (the check itself works)', () => {
    const file = join(PACKAGES, 'llm/src/x.ts');
    const text = "import { restore } from '../../core/src/engine/store/restore.js';\nimport { a } from '@orchestra/core/src/index.js';\nimport { b } from './own.js';\nimport { c } from '@orchestra/core/store';\n";
    expect(crossings(file, text, entries)).toEqual([
      'packages/llm/src/x.ts imports ../../core/src/engine/store/restore.js, a file of packages/core',
      'packages/llm/src/x.ts imports @orchestra/core/src/index.js, which is no entry point',
    ]);
  });
});

/**
 * Runs are kept through a store a catalogue or the composition root chose:
 * nothing but the file store's own modules turns a path into a
 * `FileRunStore` (benchmarks, which time that store, aside).
 */
describe('storage through the store', () => {
  const ALLOWED = ['packages/core/src/run/file-run-store.ts', 'packages/core/src/run/run-directory-store.ts'];

  it('`new FileRunStore` is written only in the file store and runDirectoryStore', () => {
    const files = readdirSync(PACKAGES)
      .filter((name) => name !== 'bench')
      .flatMap((name) => codeFiles(join(PACKAGES, name, 'src')).map((file) => relative(ROOT, file)));
    const naming = files.filter((file) => /\bnew\s+FileRunStore\s*\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(naming.sort()).toEqual(ALLOWED);
  });
});
