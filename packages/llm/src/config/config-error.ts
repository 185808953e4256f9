import { OrchestraError } from '@orchestra/core';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';
import type { z } from 'zod';
import { formatKeyPath, type KeyPath } from './key-path.js';

/** A 1-based position in a configuration file. */
export interface ConfigPosition {
  /** Absolute path of the file. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/** `file:line:col`, the form every orchestra message uses. */
export function formatPosition(position: ConfigPosition): string {
  return `${position.file}:${position.line}:${position.column}`;
}

/**
 * A problem in an `orchestra.yaml` file: YAML syntax, an unknown key, a value
 * of the wrong kind, a reference to something that does not exist. Code
 * `ORCH_CONFIG`. The message is one line:
 * `/abs/orchestra.yaml:7:14: models.smart.provider: "opnai" is not a configured provider (...)`.
 */
export class ConfigError extends OrchestraError<Extract<LlmErrorCode, 'ORCH_CONFIG'>> {
  /** Absolute path of the file the problem is in. */
  readonly file: string;
  /** 1-based line of the problem (of the parent mapping when a key is missing). */
  readonly line: number;
  /** 1-based column of the problem. */
  readonly column: number;
  /** The key path as printed (`models.smart.provider`); `""` for problems of the whole file. */
  readonly keyPath: string;
  /** The key path as segments. */
  readonly path: KeyPath;
  /** The message without its `file:line:col: key:` prefix. */
  readonly reason: string;
  /** The schema issue the message was written from, when the schema found the problem. */
  readonly issue?: z.core.$ZodIssue;

  constructor(position: ConfigPosition, path: KeyPath, reason: string, options?: { cause?: unknown; issue?: z.core.$ZodIssue }) {
    const keyPath = formatKeyPath(path);
    super('ORCH_CONFIG', `${formatPosition(position)}: ${keyPath ? `${keyPath}: ` : ''}${reason}`, options);
    this.name = 'ConfigError';
    this.file = position.file;
    this.line = position.line;
    this.column = position.column;
    this.keyPath = keyPath;
    this.path = path;
    this.reason = reason;
    if (options?.issue) this.issue = options.issue;
  }
}
