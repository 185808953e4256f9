import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { escapeControl } from '@orchestra/core/loader';
import { isRunDirectory } from '@orchestra/core/store';
import { fsError } from './fs-error.js';
import { ToolRefusal } from './tool-refusal.js';

/** How {@link Workspace.resolve} checks a path. */
export interface ResolveOptions {
  /**
   * The path is about to be written: refuse paths inside `.git`, inside
   * `.orchestra` and inside any orchestra run directory (wherever its
   * `--logs-dir` put it), and create the missing parent directories (only
   * once the path has been checked).
   */
  write?: boolean;
}

/** Longest path shown in a message. */
const SHOWN_PATH_CHARS = 200;

/** A path as the model wrote it, safe to put in a message. */
export function showPath(path: string): string {
  const text = escapeControl(path, { keepNewlines: false });
  return text.length > SHOWN_PATH_CHARS ? `${text.slice(0, SHOWN_PATH_CHARS - 1)}…` : text;
}

/**
 * The run directory (see `isRunDirectory`) that `path` is in or is, looking
 * from `path` up to `root` (both real and absolute, `path` inside `root`).
 */
function enclosingRunDirectory(root: string, path: string): string | undefined {
  for (let dir = path; isInside(root, dir); dir = dirname(dir)) {
    if (isRunDirectory(dir)) return dir;
    if (dir === root) return undefined;
  }
  return undefined;
}

/** Whether `path` is `root` or inside it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The directory an agent's file tools are confined to. Every path a tool is
 * given goes through {@link Workspace.resolve}, which refuses anything that
 * is not inside the root once symbolic links are followed.
 */
export class Workspace {
  /** The root as given, made absolute. */
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The root with symbolic links resolved; throws when it does not exist. */
  realRoot(): string {
    try {
      return realpathSync(this.root);
    } catch (error) {
      throw new Error(`the workspace ${showPath(this.root)} cannot be used: ${errnoOf(error) ?? String(error)}`, { cause: error });
    }
  }

  /**
   * The real absolute path of `path` (relative to the root; an absolute path
   * only when it is inside the root). The path is resolved, then the longest
   * part of it that exists is resolved through its symbolic links and must be
   * inside the real root: `..`, absolute paths elsewhere and links (to files
   * or directories, anywhere in the path) that lead out are refused with a
   * {@link ToolRefusal}. With `write`, paths inside `.git`, `.orchestra` and
   * run directories are refused too (a model that could rewrite a run's
   * `pipeline.dot` or checkpoint could make a later resume run anything),
   * and the missing parent directories are created after the check.
   */
  resolve(path: string, options: ResolveOptions = {}): string {
    const shown = showPath(path);
    if (path.includes('\0')) throw new ToolRefusal(`refused: ${shown} contains a NUL character; use a plain path inside the workspace`);
    const realRoot = this.realRoot();
    const absolute = resolve(this.root, path === '' ? '.' : path);
    if (!isInside(this.root, absolute) && !isInside(realRoot, absolute)) throw this.#outside(shown);
    const real = this.#realOfExistingPrefix(absolute, shown);
    if (!isInside(realRoot, real)) throw this.#outside(shown, true);
    if (!options.write) return real;
    const parts = relative(realRoot, real).split(sep);
    if (parts.some((part) => part.toLowerCase() === '.git')) {
      throw new ToolRefusal(`refused: ${shown} is inside .git; the file tools do not change a repository's internals`);
    }
    if (parts.some((part) => part.toLowerCase() === '.orchestra')) {
      throw new ToolRefusal(`refused: ${shown} is inside .orchestra, where orchestra keeps its runs and sessions; the file tools do not change them`);
    }
    const run = enclosingRunDirectory(realRoot, real);
    if (run !== undefined) {
      throw new ToolRefusal(`refused: ${shown} is inside the orchestra run directory ${showPath(this.relativePath(run))}; the file tools do not change a run's records`);
    }
    const parent = dirname(real);
    try {
      mkdirSync(parent, { recursive: true });
    } catch (error) {
      const code = errnoOf(error);
      const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is a file, not a directory' : (code ?? String(error));
      throw new Error(`cannot create the directories for ${shown}: ${why}`, { cause: error });
    }
    // The directories are new and real; check again in case something raced us.
    const realParent = realpathSync(parent);
    if (!isInside(realRoot, realParent)) throw this.#outside(shown, true);
    return join(realParent, basename(real));
  }

  /** `real` (a path {@link Workspace.resolve} returned) relative to the root, with `/` separators; `.` for the root. */
  relativePath(real: string): string {
    const rel = relative(this.realRoot(), real);
    return rel === '' ? '.' : rel.split(sep).join('/');
  }

  #outside(shown: string, throughLink = false): ToolRefusal {
    const how = throughLink ? 'leads outside the workspace through a symbolic link' : 'is outside the workspace';
    return new ToolRefusal(`refused: ${shown} ${how} (${showPath(this.root)}); use a path inside it`);
  }

  /** `absolute` with its longest existing prefix resolved through links; the rest appended as written. */
  #realOfExistingPrefix(absolute: string, shown: string): string {
    const rest: string[] = [];
    let current = absolute;
    for (;;) {
      try {
        return join(realpathSync(current), ...rest);
      } catch (error) {
        const code = errnoOf(error);
        if (code === 'ELOOP') throw new ToolRefusal(`refused: ${shown} goes through a loop of symbolic links; use a path inside the workspace`);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fsError(error, shown);
      }
      if (this.#isLink(current)) {
        // A link whose target is missing: where it leads cannot be checked.
        throw new ToolRefusal(`refused: ${shown} goes through a symbolic link whose target does not exist; use a path inside the workspace`);
      }
      const parent = dirname(current);
      if (parent === current) return absolute;
      rest.unshift(basename(current));
      current = parent;
    }
  }

  #isLink(path: string): boolean {
    try {
      return lstatSync(path).isSymbolicLink();
    } catch {
      return false;
    }
  }
}
