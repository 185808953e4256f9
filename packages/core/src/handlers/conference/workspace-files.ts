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
 * Where a path of the workspace really is: the workspace's real path and the
 * target's, or why it is refused (it leaves the workspace by `..`, as an
 * absolute path or through a symbolic link, or does not exist).
 */
export function resolveInWorkspace(workspace: string, path: string): { root: string; real: string } | { problem: string } {
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) return { problem: `${JSON.stringify(path)} is not a file path` };
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
  if (!inside(root, real)) return { problem: `${path} is outside the workspace (a symbolic link leads out of it)` };
  return { root, real };
}

/**
 * Reads a file of the workspace, confined to it (see
 * {@link resolveInWorkspace}); a file that is not a regular file or is larger
 * than `maxBytes` is refused too.
 */
export function readWorkspaceFile(workspace: string, path: string, maxBytes: number = MAX_QUOTED_FILE_BYTES): WorkspaceRead {
  const where = resolveInWorkspace(workspace, path);
  if ('problem' in where) return where;
  let fd: number;
  try {
    fd = openSync(where.real, 'r');
  } catch {
    return { problem: `${path} cannot be read` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: `${path} is not a file` };
    if (stat.size > maxBytes) return { problem: `${path} is larger than ${maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`}` };
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
