import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What the user meant a path to be, for messages: `a pipeline file`, `a run
 * directory`, `an answers file`, ...
 */
export interface ExpectedPath {
  kind: 'file' | 'directory';
  /** The thing, with its article: `a pipeline file`. */
  what: string;
}

function kindOf(path: string): 'file' | 'directory' | 'missing' | 'other' {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

/** The nearest ancestor of `path` that exists but is not a directory (why ENOTDIR), if any. */
function fileOnTheWay(path: string): string | undefined {
  for (let at = dirname(path); at !== dirname(at); at = dirname(at)) {
    const kind = kindOf(at);
    if (kind === 'directory') return undefined;
    if (kind !== 'missing') return at;
  }
  return undefined;
}

/** What is wrong with a path: the wrong kind of thing, a file in the middle of it, or nothing there. */
export interface PathProblem {
  reason: 'wrong-kind' | 'blocked' | 'missing';
  /** In words: `/tmp/x is a directory, not a pipeline file`. */
  message: string;
}

/**
 * Says in words what is wrong with `path` where `expected` was wanted — a
 * directory given for a file, a file for a directory, a file in the middle of
 * the path, nothing there — or undefined when the path is what was expected
 * (then the error, if any, is something else: permissions, a full disk).
 */
export function pathProblem(path: string, expected: ExpectedPath): PathProblem | undefined {
  const kind = kindOf(path);
  if (kind === expected.kind) return undefined;
  if (kind === 'directory') return { reason: 'wrong-kind', message: `${path} is a directory, not ${expected.what}` };
  if (kind === 'file') return { reason: 'wrong-kind', message: `${path} is a file, not ${expected.what}` };
  if (kind === 'other') return { reason: 'wrong-kind', message: `${path} is neither a file nor a directory, not ${expected.what}` };
  const blocker = fileOnTheWay(path);
  if (blocker) return { reason: 'blocked', message: `${path} cannot exist: ${blocker} is a file, not a directory` };
  return { reason: 'missing', message: `${path} does not exist` };
}
