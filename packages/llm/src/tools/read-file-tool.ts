import { stat } from 'node:fs/promises';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { fsError } from './fs-error.js';
import { looksBinary } from './looks-binary.js';
import { readNoFollow } from './read-no-follow.js';
import { showPath, type Workspace } from './workspace.js';

/** Largest file read_file opens (10 MiB). */
export const MAX_READ_FILE_BYTES = 10 * 1024 * 1024;
/** Most characters of text one read_file call returns (about 100 KB). */
export const MAX_READ_CHARS = 100_000;

const schema = z.object({
  path: z.string().describe('File path, relative to the workspace root'),
  offset: z.number().int().min(1).optional().describe('First line to return, counting from 1 (default 1)'),
  limit: z.number().int().min(1).optional().describe('Most lines to return (default: to the end, up to about 100 KB)'),
});

/** The lines of `text` (a final newline does not start another line). */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Reads a text file (a slice of its lines); see the tool description. */
export async function readWorkspaceFile(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const shown = showPath(input.path);
  const real = workspace.resolve(input.path);
  let info;
  try {
    info = await stat(real);
  } catch (error) {
    throw fsError(error, shown);
  }
  if (info.isDirectory()) throw new Error(`${shown} is a directory; use list_files to see what is in it`);
  if (!info.isFile()) throw new Error(`${shown} is not a regular file`);
  if (info.size > MAX_READ_FILE_BYTES) {
    throw new Error(`${shown} is ${info.size} bytes; read_file opens files up to ${MAX_READ_FILE_BYTES} bytes (use search_text to find the part you need)`);
  }
  const bytes = await readNoFollow(real, shown, signal);
  if (looksBinary(bytes)) throw new Error(`${shown} is a binary file (${bytes.length} bytes); read_file shows text files only`);
  const lines = linesOf(bytes.toString('utf8'));
  if (lines.length === 0) return `(${shown} is empty)`;
  const first = (input.offset ?? 1) - 1;
  if (first >= lines.length) throw new Error(`${shown} has ${lines.length} lines; offset ${input.offset} is past the end`);
  const end = Math.min(lines.length, first + (input.limit ?? lines.length));
  const out: string[] = [];
  let chars = 0;
  let next = first;
  for (; next < end; next++) {
    const line = lines[next] as string;
    if (chars + line.length + 1 > MAX_READ_CHARS) {
      // A single line longer than the cap is cut; otherwise stop before the line.
      if (out.length === 0) {
        out.push(`${line.slice(0, MAX_READ_CHARS)} [line cut at ${MAX_READ_CHARS} characters]`);
        next++;
      }
      break;
    }
    out.push(line);
    chars += line.length + 1;
  }
  let text = out.join('\n');
  if (next < lines.length) {
    const why = next < end ? ' (the output limit of about 100 KB was reached)' : '';
    text += `\n\n[showing lines ${first + 1}-${next} of ${lines.length}${why}; continue with offset=${next + 1}]`;
  }
  return text;
}

/** The `read_file` tool: text of a file in the workspace, optionally a range of lines. */
export function readFileTool(workspace: Workspace): StructuredToolInterface {
  return tool((input, config) => readWorkspaceFile(workspace, input, config?.signal), {
    name: 'read_file',
    description:
      'Read a text file in the workspace. Returns its text as it is (no line numbers). For large files pass offset (first line, from 1) ' +
      'and limit (number of lines); at most about 100 KB is returned per call, and a note at the end says how to continue. Binary files are refused.',
    schema,
    // Changes nothing: a phased node's Discuss may offer it (see isReadOnlyTool).
    metadata: { readOnly: true },
  });
}
