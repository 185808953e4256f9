import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories a recursive walk lists but does not enter. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** One entry met by {@link walkTree}. */
export interface TreeEntry {
  /** Absolute path (inside the walked directory; never through a link). */
  path: string;
  /** How deep below the walked directory: 0 for its own entries. */
  depth: number;
  kind: 'file' | 'directory' | 'link' | 'other';
  /** A directory the walk did not enter ({@link SKIPPED_DIRECTORIES}). */
  skipped: boolean;
}

/** How {@link walkTree} walks. */
export interface WalkOptions {
  recursive: boolean;
  signal?: AbortSignal;
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The entries under `dir`, depth first, each directory's entries sorted by
 * name. Symbolic links are reported as links and never followed, so a walk
 * cannot leave the directory it starts in (or loop); `.git` and
 * `node_modules` are reported but not entered. Unreadable directories are
 * passed over. Stops with the signal's reason when it is aborted.
 */
export async function* walkTree(dir: string, options: WalkOptions, depth = 0): AsyncGenerator<TreeEntry> {
  options.signal?.throwIfAborted();
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (depth === 0) throw error;
    return;
  }
  entries.sort(byName);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
    const skipped = kind === 'directory' && options.recursive && SKIPPED_DIRECTORIES.has(entry.name);
    yield { path, depth, kind, skipped };
    if (kind === 'directory' && options.recursive && !skipped) yield* walkTree(path, options, depth + 1);
  }
}
