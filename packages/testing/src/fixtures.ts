import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository's `fixtures/` directory. */
export const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures');

/** Absolute path of a fixture, e.g. `fixturePath('simple.dot')` or `fixturePath('invalid/syntax-error.dot')`. */
export function fixturePath(name: string): string {
  return join(FIXTURES_DIR, name);
}

/** The text of a fixture. */
export function readFixture(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}
