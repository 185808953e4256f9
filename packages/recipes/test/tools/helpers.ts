import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonValue } from '@orchestra/core';
import { fixturePath } from '@orchestra/testing';
import { afterEach } from 'vitest';
import type { RecipeTool, RecipeToolResult } from '../../src/tool-types.js';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recipes-tools-'));
  made.push(dir);
  return dir;
}

/** A copy of fixtures/manuscript/book in a temporary directory: the workspace. */
export function bookCopy(): string {
  const dir = join(tempDir(), 'book');
  cpSync(fixturePath('manuscript/book'), dir, { recursive: true });
  return dir;
}

/**
 * A book copy with a way out planted: `outside/secret.md` next to the
 * workspace, `book/leak.md` a symbolic link to it and `book/scenes/leak`
 * a link to the outside directory.
 */
export function bookWithLinksOut(): string {
  const book = bookCopy();
  const outside = join(book, '..', 'outside');
  cpSync(join(book, 'scenes'), outside, { recursive: true });
  writeFileSync(join(outside, 'secret.md'), '# Scene 9.9: Secret\n\nWren had blue eyes.\n');
  symlinkSync(join(outside, 'secret.md'), join(book, 'leak.md'));
  symlinkSync(outside, join(book, 'scenes', 'leak'));
  return book;
}

/** Runs a tool in a workspace. */
export async function run(tool: RecipeTool, args: Record<string, JsonValue>, workspace: string): Promise<RecipeToolResult> {
  return tool.run(args, { workspace, signal: new AbortController().signal });
}

/** A tool's data as a plain object, for reading fields in tests. */
export function dataOf(result: RecipeToolResult): Record<string, any> {
  return result.data as Record<string, any>;
}
