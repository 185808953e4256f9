import { OrchestraError } from '@orchestra/core';
import type { RecipesErrorCode } from '../recipe-error.js';

/** A path into the router file: keys and list indexes, e.g. `['rules', 2, 'pattern']`. */
export type RouterKeyPath = readonly (string | number)[];

/** `rules[2].pattern`, the key path as a user reads it (keys that are not plain words quoted). */
export function formatRouterKeyPath(path: RouterKeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z0-9_-]+$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * A router file that cannot be used: YAML syntax, a key the schema does not
 * know, a value of the wrong kind, a regular expression that does not
 * compile, a recipe that does not exist. Code `ORCH_ROUTER`. The message is
 * one line: `/p/recipes/router.yaml:7:14: rules[2].pattern: invalid regular expression: Unterminated group`.
 */
export class RouterError extends OrchestraError<Extract<RecipesErrorCode, 'ORCH_ROUTER'>> {
  /** The router file (as given to the loader). */
  readonly file: string;
  /** 1-based line of the problem. */
  readonly line: number;
  /** 1-based column of the problem. */
  readonly column: number;
  /** The key path as printed (`rules[2].pattern`); `""` for problems of the whole file. */
  readonly keyPath: string;
  /** The message without its `file:line:col: key:` prefix. */
  readonly reason: string;

  constructor(at: { file: string; line: number; column: number }, path: RouterKeyPath, reason: string, options?: { cause?: unknown }) {
    const keyPath = formatRouterKeyPath(path);
    super('ORCH_ROUTER', `${at.file}:${at.line}:${at.column}: ${keyPath ? `${keyPath}: ` : ''}${reason}`, options);
    this.name = 'RouterError';
    this.file = at.file;
    this.line = at.line;
    this.column = at.column;
    this.keyPath = keyPath;
    this.reason = reason;
  }
}
