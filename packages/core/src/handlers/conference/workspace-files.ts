import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The largest file a quote is looked up in. */
export const MAX_QUOTED_FILE_BYTES = 4 * 1024 * 1024;

/** A workspace file's text, or why it cannot be read. */
export type WorkspaceRead = { text: string } | { problem: string };

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Reads a file a role cited, confined to `workspace`: a path that leaves it
 * (by `..`, an absolute path or a symbolic link) is refused, as is a file
 * that is not a regular file or is larger than {@link MAX_QUOTED_FILE_BYTES}.
 */
export function readWorkspaceFile(workspace: string, path: string): WorkspaceRead {
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return { problem: `the workspace ${workspace} cannot be read` };
  }
  const target = resolve(root, path);
  if (!inside(root, target)) return { problem: `${path} is outside the workspace` };
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return { problem: `there is no file ${path} in the workspace` };
  }
  if (!inside(root, real)) return { problem: `${path} is outside the workspace` };
  let fd: number;
  try {
    fd = openSync(real, 'r');
  } catch {
    return { problem: `${path} cannot be read` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: `${path} is not a file` };
    if (stat.size > MAX_QUOTED_FILE_BYTES) return { problem: `${path} is larger than ${MAX_QUOTED_FILE_BYTES} bytes` };
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.subarray(0, read).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}
