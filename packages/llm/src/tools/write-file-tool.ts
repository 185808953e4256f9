import { writeFile } from 'node:fs/promises';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { fsError } from './fs-error.js';
import { WRITE_NO_FOLLOW } from './open-flags.js';
import { showPath, type Workspace } from './workspace.js';

const schema = z.object({
  path: z.string().describe('File path, relative to the workspace root'),
  content: z.string().describe('The complete new content of the file'),
});

/** Writes a file (creating its parent directories); see the tool description. */
export async function writeWorkspaceFile(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const shown = showPath(input.path);
  const real = workspace.resolve(input.path, { write: true });
  try {
    await writeFile(real, input.content, { signal, flag: WRITE_NO_FOLLOW });
  } catch (error) {
    signal?.throwIfAborted();
    throw fsError(error, shown);
  }
  return `wrote ${Buffer.byteLength(input.content)} bytes to ${shown}`;
}

/** The `write_file` tool: creates or replaces a file in the workspace. */
export function writeFileTool(workspace: Workspace): StructuredToolInterface {
  return tool((input, config) => writeWorkspaceFile(workspace, input, config?.signal), {
    name: 'write_file',
    description:
      'Create a file in the workspace, or replace its whole content. Missing parent directories are created. ' +
      'To change part of an existing file, prefer edit_file.',
    schema,
  });
}
