import { writeFile } from 'node:fs/promises';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { fsError } from './fs-error.js';
import { looksBinary } from './looks-binary.js';
import { WRITE_NO_FOLLOW } from './open-flags.js';
import { readNoFollow } from './read-no-follow.js';
import { MAX_READ_FILE_BYTES } from './read-file-tool.js';
import { showPath, type Workspace } from './workspace.js';

const schema = z.object({
  path: z.string().describe('File path, relative to the workspace root'),
  old_text: z.string().describe('The exact text to replace, including whitespace and indentation; it must occur exactly once unless replace_all is set'),
  new_text: z.string().describe('The text to put in its place'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_text (default false)'),
});

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** Replaces text in a file; see the tool description. */
export async function editWorkspaceFile(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const shown = showPath(input.path);
  if (input.old_text === '') throw new Error('old_text is empty; give the exact text to replace (use write_file to create a file)');
  const real = workspace.resolve(input.path);
  const bytes = await readNoFollow(real, shown, signal);
  if (bytes.length > MAX_READ_FILE_BYTES) throw new Error(`${shown} is ${bytes.length} bytes; edit_file changes files up to ${MAX_READ_FILE_BYTES} bytes`);
  if (looksBinary(bytes)) throw new Error(`${shown} is a binary file; edit_file changes text files only`);
  const text = bytes.toString('utf8');
  const count = occurrences(text, input.old_text);
  if (count === 0) throw new Error(`old_text was not found in ${shown}; read the file and copy the text exactly, including whitespace`);
  if (count > 1 && !input.replace_all) {
    throw new Error(`old_text occurs ${count} times in ${shown}; include more of the surrounding lines so that it occurs exactly once, or set replace_all`);
  }
  // split/join: the new text is taken literally (no `$&` patterns).
  const edited = text.split(input.old_text).join(input.new_text);
  const target = workspace.resolve(input.path, { write: true });
  try {
    await writeFile(target, edited, { signal, flag: WRITE_NO_FOLLOW });
  } catch (error) {
    signal?.throwIfAborted();
    throw fsError(error, shown);
  }
  return `edited ${shown}: replaced ${count} occurrence${count === 1 ? '' : 's'}`;
}

/** The `edit_file` tool: replaces an exact piece of text in a file of the workspace. */
export function editFileTool(workspace: Workspace): StructuredToolInterface {
  return tool((input, config) => editWorkspaceFile(workspace, input, config?.signal), {
    name: 'edit_file',
    description:
      'Replace an exact piece of text in a file of the workspace. old_text must match the file exactly (whitespace included) and occur ' +
      'exactly once; include a few surrounding lines to make it unique, or set replace_all to replace every occurrence.',
    schema,
  });
}
