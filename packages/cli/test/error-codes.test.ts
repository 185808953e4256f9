import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAT_ERROR_CODES } from '@orchestra/chat';
import { CORE_ERROR_CODES } from '@orchestra/core';
import { LLM_ERROR_CODES } from '@orchestra/llm';
import { RECIPES_ERROR_CODES } from '@orchestra/recipes';
import { SERVER_ERROR_CODES } from '@orchestra/server';
import { STORE_POSTGRES_ERROR_CODES } from '@orchestra/store-postgres';
import { TESTING_ERROR_CODES } from '@orchestra/testing';
import { describe, expect, it } from 'vitest';
import { CLI_ERROR_CODES } from '../src/cli-error-codes.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LIBRARY_DOC = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');

/**
 * Each package: its list of codes, its row in the table of docs/library.md,
 * the file the list is in, the folders its code is in, and the packages
 * whose codes it may name too (it may test for an error of a package it
 * depends on).
 */
const PACKAGES = [
  { name: '@orchestra/core', row: '`@orchestra/core`', codes: CORE_ERROR_CODES, list: 'packages/core/src/error-codes.ts', dirs: ['packages/core/src'], uses: [] },
  { name: '@orchestra/llm', row: '`@orchestra/llm`', codes: LLM_ERROR_CODES, list: 'packages/llm/src/errors/llm-error-codes.ts', dirs: ['packages/llm/src'], uses: ['@orchestra/core'] },
  { name: '@orchestra/server', row: '`@orchestra/server`', codes: SERVER_ERROR_CODES, list: 'packages/server/src/server-error-codes.ts', dirs: ['packages/server/src', 'packages/server/web'], uses: ['@orchestra/core'] },
  { name: '@orchestra/chat', row: '`@orchestra/chat`', codes: CHAT_ERROR_CODES, list: 'packages/chat/src/chat-error-codes.ts', dirs: ['packages/chat/src'], uses: ['@orchestra/core', '@orchestra/llm', '@orchestra/server'] },
  { name: '@orchestra/recipes', row: '`@orchestra/recipes`', codes: RECIPES_ERROR_CODES, list: 'packages/recipes/src/recipe-error.ts', dirs: ['packages/recipes/src'], uses: ['@orchestra/core', '@orchestra/llm'] },
  { name: '@orchestra/testing', row: '`@orchestra/testing`', codes: TESTING_ERROR_CODES, list: 'packages/testing/src/testing-error-codes.ts', dirs: ['packages/testing/src'], uses: ['@orchestra/core'] },
  { name: '@orchestra/store-postgres', row: '`@orchestra/store-postgres`', codes: STORE_POSTGRES_ERROR_CODES, list: 'packages/store-postgres/src/store-postgres-error-codes.ts', dirs: ['packages/store-postgres/src'], uses: ['@orchestra/core'] },
  { name: 'orchestra (CLI)', row: '`orchestra` (CLI)', codes: CLI_ERROR_CODES, list: 'packages/cli/src/cli-error-codes.ts', dirs: ['packages/cli/src'], uses: ['@orchestra/core', '@orchestra/llm', '@orchestra/server', '@orchestra/chat', '@orchestra/recipes', '@orchestra/testing', '@orchestra/store-postgres'] },
] as const;

/** A code as written in sources and docs. */
const CODE = /\bORCH_[A-Z0-9_]+\b/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every code named in a package's sources (code and comments) but its list, each with the first file naming it. */
function namedCodes(pkg: (typeof PACKAGES)[number]): Map<string, string> {
  const named = new Map<string, string>();
  for (const file of pkg.dirs.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const path = relative(ROOT, file);
    if (path === pkg.list) continue;
    for (const [code] of readFileSync(file, 'utf8').matchAll(CODE)) if (!named.has(code)) named.set(code, path);
  }
  return named;
}

/** The rows (as cells) of the first table after the heading line `heading` in docs/library.md. */
function tableAfter(heading: string): string[][] {
  const lines = LIBRARY_DOC.split('\n');
  const at = lines.indexOf(heading);
  expect(at, heading).toBeGreaterThan(-1);
  const first = lines.findIndex((line, i) => i > at && line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'));
  return lines.slice(first + 2, end).map((line) => line.slice(2, -2).split(' | '));
}

/** The codes a table cell names. */
function codesIn(cell: string | undefined): string[] {
  return [...(cell ?? '').matchAll(CODE)].map((m) => m[0]);
}

describe('error codes', () => {
  describe.each(PACKAGES.map((p) => [p.name, p] as const))('%s', (_, pkg) => {
    it('lists each code once', () => {
      expect(new Set(pkg.codes).size).toBe(pkg.codes.length);
    });

    it('names in its sources only codes of its own list or of a package it uses', () => {
      const allowed = new Set<string>([...pkg.codes, ...pkg.uses.flatMap((name) => PACKAGES.find((p) => p.name === name)?.codes ?? [])]);
      const strangers = [...namedCodes(pkg)].filter(([code]) => !allowed.has(code)).map(([code, file]) => `${code} (${file})`);
      expect(strangers).toEqual([]);
    });

    it('lists only codes its sources throw or name', () => {
      const named = namedCodes(pkg);
      expect(pkg.codes.filter((code) => !named.has(code))).toEqual([]);
    });

    it('has its row in the table "Error codes by package" of docs/library.md, with exactly its codes', () => {
      const row = tableAfter('### Error codes by package').find((cells) => cells[0] === pkg.row);
      expect(row, pkg.row).toBeDefined();
      expect(codesIn(row?.[2]).sort()).toEqual([...pkg.codes].sort());
    });
  });

  it.each([
    ['## Errors', CORE_ERROR_CODES],
    ['### Errors of the LLM backends', LLM_ERROR_CODES],
  ] as const)('the table under "%s" in docs/library.md explains every code of the package, and no other', (heading, codes) => {
    expect(tableAfter(heading).flatMap((cells) => codesIn(cells[0])).sort()).toEqual([...codes].sort());
  });
});
