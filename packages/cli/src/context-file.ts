import { readFile } from 'node:fs/promises';
import type { JsonValue } from '@orchestra/core';
import { pathProblem } from '@orchestra/core/handlers';

/**
 * Reads a `--context-file`: a JSON object whose entries become the run's
 * initial context, keys as written (a key may hold dots: `brainstorm.output`)
 * and values any JSON. Returns the values, or an error message saying what
 * is wrong with the file.
 */
export async function readContextFile(path: string): Promise<Record<string, JsonValue> | string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'EISDIR' || code === 'ENOTDIR' ? pathProblem(path, { kind: 'file', what: 'a context file' }) : undefined;
    return `cannot read --context-file ${path}: ${code === 'ENOENT' ? 'no such file' : (problem?.message ?? (error as Error).message)}`;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `--context-file ${path} is not valid JSON: ${(error as Error).message}`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return `--context-file ${path} must hold a JSON object (context keys and their values)`;
  return data as Record<string, JsonValue>;
}
