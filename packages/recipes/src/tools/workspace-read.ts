import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readWorkspaceFile, resolveInWorkspace } from '@orchestra/core/handlers';
import { join, relative, resolve, sep } from 'node:path';
import { RecipeToolError } from '../tool-types.js';

/** The largest file a built-in tool reads (2 MiB). */
export const MAX_TOOL_FILE_BYTES = 2 * 1024 * 1024;
/** The most files a workspace listing gives. */
export const MAX_LISTED_FILES = 2000;
/** How deep a workspace listing goes below the workspace. */
export const MAX_LIST_DEPTH = 8;
/** The most directory entries a workspace listing looks at. */
export const MAX_LIST_ENTRIES = 20000;

/** A workspace file's text, split in lines (CRLF read as LF, a BOM dropped). */
export interface WorkspaceText {
  /** The path relative to the workspace, with `/` separators (`scenes/scene-02.md`). */
  path: string;
  text: string;
  /** `lines[0]` is line 1. */
  lines: string[];
}

/** A path relative to the workspace, with `/` separators. */
function relPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Resolves a workspace path: the absolute real path and the normalised relative one; refuses paths leading out (by `..`, an absolute path or a symbolic link). */
function confine(workspace: string, path: string): { root: string; real: string; rel: string } {
  const where = resolveInWorkspace(workspace, path);
  if ('problem' in where) throw new RecipeToolError(where.problem);
  return { ...where, rel: relPath(where.root, resolve(where.root, path)) };
}

/**
 * Reads a text file of the workspace. Throws {@link RecipeToolError} when the
 * path leads out of the workspace, the file is missing, is not a regular file
 * or is larger than {@link MAX_TOOL_FILE_BYTES}.
 */
export function readWorkspaceText(workspace: string, path: string): WorkspaceText {
  const { rel } = confine(workspace, path);
  const read = readWorkspaceFile(workspace, path, MAX_TOOL_FILE_BYTES);
  if ('problem' in read) throw new RecipeToolError(read.problem);
  const text = read.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  return { path: rel, text, lines: text.split('\n') };
}

/** Whether `path` names a regular file inside the workspace (false for paths leading out). */
export function workspaceFileExists(workspace: string, path: string): boolean {
  try {
    return statSync(confine(workspace, path).real).isFile();
  } catch {
    return false;
  }
}

/**
 * The workspace's files whose names end in one of `extensions` (lower case,
 * with the dot), as sorted relative paths, at most {@link MAX_LISTED_FILES},
 * {@link MAX_LIST_DEPTH} directories deep, looking at no more than
 * {@link MAX_LIST_ENTRIES} entries. Hidden entries and `node_modules`
 * are skipped; symbolic links to directories are not followed and links to
 * files are listed only when they stay inside the workspace.
 */
export function listWorkspaceFiles(workspace: string, extensions: readonly string[]): string[] {
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    throw new RecipeToolError(`the workspace ${workspace} cannot be read`);
  }
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (found.length >= MAX_LISTED_FILES || ++seen > MAX_LIST_ENTRIES) return;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const full = join(dir, name);
      let stat;
      try {
        stat = lstatSync(full);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (depth < MAX_LIST_DEPTH) walk(full, depth + 1);
        continue;
      }
      if (!extensions.some((ext) => name.toLowerCase().endsWith(ext))) continue;
      if (stat.isFile()) found.push(relPath(root, full));
      else if (stat.isSymbolicLink()) {
        try {
          // A link to a file is listed when it stays inside the workspace.
          const where = resolveInWorkspace(root, relative(root, full));
          if (!('problem' in where) && statSync(where.real).isFile()) found.push(relPath(root, full));
        } catch {
          // a dangling link: not a file
        }
      }
    }
  };
  walk(root, 0);
  return found.sort(byText);
}

/** Code-unit order: the same on every machine and locale. */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
