import { stat } from 'node:fs/promises';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { fsError } from './fs-error.js';
import { walkTree, type TreeEntry } from './walk-tree.js';
import { showPath, type Workspace } from './workspace.js';

/** Most entries one list_files call returns. */
export const MAX_LIST_ENTRIES = 1000;

const schema = z.object({
  path: z.string().optional().describe('Directory to list, relative to the workspace root (default ".")'),
  recursive: z.boolean().optional().describe('Also list everything below it (default false); .git and node_modules are not entered'),
});

function line(workspace: Workspace, entry: TreeEntry): string {
  const name = showPath(workspace.relativePath(entry.path));
  switch (entry.kind) {
    case 'directory':
      return entry.skipped ? `${name}/ (not listed)` : `${name}/`;
    case 'link':
      return `${name} (symbolic link, not followed)`;
    case 'other':
      return `${name} (special file)`;
    default:
      return name;
  }
}

/** Lists a directory of the workspace; see the tool description. */
export async function listWorkspaceFiles(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const path = input.path ?? '.';
  const shown = showPath(path);
  const real = workspace.resolve(path);
  let info;
  try {
    info = await stat(real);
  } catch (error) {
    throw fsError(error, shown, 'directory');
  }
  if (!info.isDirectory()) throw new Error(`${shown} is a file, not a directory; use read_file to read it`);
  const lines: string[] = [];
  let capped = false;
  for await (const entry of walkTree(real, { recursive: input.recursive ?? false, ...(signal ? { signal } : {}) })) {
    if (lines.length === MAX_LIST_ENTRIES) {
      capped = true;
      break;
    }
    lines.push(line(workspace, entry));
  }
  if (lines.length === 0) return `(${shown} is empty)`;
  if (capped) lines.push(`[stopped at ${MAX_LIST_ENTRIES} entries; list a subdirectory to see the rest]`);
  return lines.join('\n');
}

/** The `list_files` tool: the entries of a workspace directory. */
export function listFilesTool(workspace: Workspace): StructuredToolInterface {
  return tool((input, config) => listWorkspaceFiles(workspace, input, config?.signal), {
    name: 'list_files',
    description:
      'List a directory of the workspace, one entry a line, sorted by name; directories end with "/". Paths are relative to the workspace ' +
      `root, ready for the other tools. With recursive, everything below is listed too (not inside .git or node_modules); at most ${MAX_LIST_ENTRIES} entries. ` +
      'Symbolic links are shown but not followed.',
    schema,
    // Changes nothing: a phased node's Discuss may offer it (see isReadOnlyTool).
    metadata: { readOnly: true },
  });
}
