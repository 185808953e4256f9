import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

const created: string[] = [];
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory removed after the file's tests. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-recipes-'));
  created.push(dir);
  return dir;
}

/** Writes files (path → text) under a new temporary directory and gives it. */
export function project(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
