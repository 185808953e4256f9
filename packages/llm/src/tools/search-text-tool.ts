import { readFile, stat } from 'node:fs/promises';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { escapeControl } from '@orchestra/core/loader';
import { fsError } from './fs-error.js';
import { globToRegExp, matchesGlob } from './glob-pattern.js';
import { looksBinary } from './looks-binary.js';
import { walkTree } from './walk-tree.js';
import { showPath, type Workspace } from './workspace.js';

/** Most matches one search_text call returns. */
export const MAX_SEARCH_MATCHES = 200;
/** Files larger than this are not searched (10 MiB). */
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;
/** Most characters of a matching line shown. */
const MATCH_LINE_CHARS = 300;

const schema = z.object({
  pattern: z.string().describe('The text to look for (case-sensitive); a JavaScript regular expression when regex is true'),
  path: z.string().optional().describe('Directory or file to search, relative to the workspace root (default ".")'),
  regex: z.boolean().optional().describe('Treat pattern as a regular expression (default false: plain text)'),
  glob: z.string().optional().describe('Only search files matching this glob: "*.ts" matches file names, "src/**/*.ts" workspace paths'),
});

type Matcher = (line: string) => boolean;

function matcherOf(pattern: string, regex: boolean): Matcher {
  if (pattern === '') throw new Error('pattern is empty; give the text to look for');
  if (!regex) return (line) => line.includes(pattern);
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (error) {
    throw new Error(`invalid regex ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (line) => re.test(line);
}

function globOf(glob: string | undefined): ((relativePath: string) => boolean) | undefined {
  if (glob === undefined || glob === '') return undefined;
  let re: RegExp;
  try {
    re = globToRegExp(glob);
  } catch (error) {
    throw new Error(error instanceof SyntaxError ? `invalid glob ${JSON.stringify(glob)}` : (error as Error).message, { cause: error });
  }
  return (relativePath) => matchesGlob(re, glob, relativePath);
}

function shownLine(line: string): string {
  // The line has no \n (lines are split on it); tabs stay, other controls are escaped.
  return escapeControl(line.length > MATCH_LINE_CHARS ? `${line.slice(0, MATCH_LINE_CHARS)}…` : line);
}

/** Searches the files of the workspace; see the tool description. */
export async function searchWorkspaceText(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const matches = matcherOf(input.pattern, input.regex ?? false);
  const selected = globOf(input.glob);
  const path = input.path ?? '.';
  const shown = showPath(path);
  const real = workspace.resolve(path);
  let info;
  try {
    info = await stat(real);
  } catch (error) {
    throw fsError(error, shown, 'file or directory');
  }
  const files: AsyncIterable<string> = info.isDirectory()
    ? (async function* () {
        for await (const entry of walkTree(real, { recursive: true, ...(signal ? { signal } : {}) })) if (entry.kind === 'file') yield entry.path;
      })()
    : (async function* () {
        yield real;
      })();
  const out: string[] = [];
  let tooLarge = 0;
  let capped = false;
  search: for await (const file of files) {
    signal?.throwIfAborted();
    const relativePath = workspace.relativePath(file);
    if (selected && !selected(relativePath)) continue;
    let bytes;
    try {
      if ((await stat(file)).size > MAX_SEARCH_FILE_BYTES) {
        tooLarge++;
        continue;
      }
      bytes = await readFile(file);
    } catch {
      continue; // vanished or unreadable: nothing to find there
    }
    if (looksBinary(bytes)) continue;
    const lines = bytes.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const text = (lines[i] as string).replace(/\r$/, '');
      if (!matches(text)) continue;
      if (out.length === MAX_SEARCH_MATCHES) {
        capped = true;
        break search;
      }
      out.push(`${showPath(relativePath)}:${i + 1}: ${shownLine(text)}`);
    }
  }
  if (out.length === 0) out.push(`no matches for ${JSON.stringify(input.pattern)} in ${shown}${input.glob ? ` (files matching ${JSON.stringify(input.glob)})` : ''}`);
  if (capped) out.push(`[stopped at ${MAX_SEARCH_MATCHES} matches; narrow the pattern, path or glob]`);
  if (tooLarge > 0) out.push(`[${tooLarge} file${tooLarge === 1 ? '' : 's'} over ${MAX_SEARCH_FILE_BYTES} bytes not searched]`);
  return out.join('\n');
}

/** The `search_text` tool: lines of workspace files that contain a text or match a regular expression. */
export function searchTextTool(workspace: Workspace): StructuredToolInterface {
  return tool((input, config) => searchWorkspaceText(workspace, input, config?.signal), {
    name: 'search_text',
    description:
      'Search the text files of the workspace for a piece of text (or a JavaScript regular expression with regex: true). ' +
      `Returns "path:line: text" lines, at most ${MAX_SEARCH_MATCHES}. Binary files, symbolic links, .git and node_modules are skipped. ` +
      'Narrow it with path (a directory or file) and glob ("*.ts").',
    schema,
    // Changes nothing: a phased node's Discuss may offer it (see isReadOnlyTool).
    metadata: { readOnly: true },
  });
}
