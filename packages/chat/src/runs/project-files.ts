import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { filesUnder } from './walk-files.js';
import { Workspace } from '@orchestra/llm/agent';

/** Most characters of project files a run gets (the rest is cut, and said so). */
export const MAX_CONTEXT_CHARS = 200_000;
/** Most files a directory in `context_paths` contributes. */
export const MAX_FILES_PER_DIRECTORY = 100;

/**
 * The text of project files for a run (`context_paths`: files and
 * directories, relative to the project directory), each under a `### path`
 * heading. Paths that leave the project (`..`, absolute paths elsewhere,
 * links out) are refused with an error naming them; binary files are
 * skipped; the whole is cut at {@link MAX_CONTEXT_CHARS}.
 */
export function readContextPaths(projectDir: string, paths: readonly string[]): string {
  const workspace = new Workspace(projectDir);
  const root = workspace.realRoot();
  const parts: string[] = [];
  let size = 0;
  for (const given of paths) {
    const real = workspace.resolve(given);
    if (!existsSync(real)) throw new Error(`context path ${given} does not exist in the project`);
    const files = statSync(real).isDirectory() ? filesUnder(real, { skipHidden: true, limit: MAX_FILES_PER_DIRECTORY }) : [real];
    for (const file of files) {
      const buffer = readFileSync(file);
      if (buffer.includes(0)) continue;
      const text = `### ${relative(root, file)}\n${buffer.toString('utf8').replace(/\n$/, '')}\n`;
      if (size + text.length > MAX_CONTEXT_CHARS) {
        parts.push(`${text.slice(0, MAX_CONTEXT_CHARS - size)}\n[cut: the project files passed ${MAX_CONTEXT_CHARS} characters]`);
        return parts.join('\n');
      }
      parts.push(text);
      size += text.length;
    }
  }
  return parts.join('\n');
}
