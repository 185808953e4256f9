import { statSync } from 'node:fs';
import { resolveInWorkspace } from '@orchestra/core/handlers';
import type { JsonValue } from '@orchestra/core';
import { refsInText, resolveRef, type RefScope } from './slot-refs.js';

/** A Definition-of-Done check: its name and expression as the recipe writes them. */
export interface DodCheck {
  name: string;
  expression: string;
}

/** How a check came out: passed or not, and the value it looked at. */
export interface DodResult extends DodCheck {
  passed: boolean;
  /** The value the check looked at (the reference's value). */
  actual: JsonValue;
  /** What the check did: `file_exists`, `compare`, `not_null`. */
  kind: 'file_exists' | 'compare' | 'not_null';
}

const COMPARISON = /^\s*(\$[A-Za-z_][\w.[\]]*)\s*(==|!=|>=|<=|>|<)\s*(.+?)\s*$/;

/** A literal of a comparison: true, false, null, a number, or a quoted string. */
export function parseLiteral(text: string): JsonValue | undefined {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  const quoted = /^(["'])(.*)\1$/.exec(text);
  return quoted ? (quoted[2] as string) : undefined;
}

/** Why an expression is not one a check can evaluate; `undefined` when it is. */
export function dodExpressionProblem(expression: string): string | undefined {
  const comparison = COMPARISON.exec(expression);
  if (comparison) return parseLiteral(comparison[3] as string) === undefined ? `${comparison[3]} is not a literal (true, false, null, a number or a quoted string)` : undefined;
  const refs = refsInText(expression.trim());
  if (refs.length === 1 && refs[0]?.text === expression.trim()) return undefined;
  return 'expected $slot, $slot[0], $slot.field, or a comparison like $slot.pass == true';
}

function compare(actual: JsonValue | undefined, op: string, expected: JsonValue): boolean {
  const a = actual ?? null;
  switch (op) {
    case '==':
      return JSON.stringify(a) === JSON.stringify(expected);
    case '!=':
      return JSON.stringify(a) !== JSON.stringify(expected);
    default:
      if (typeof a !== 'number' || typeof expected !== 'number') return false;
      return op === '>' ? a > expected : op === '<' ? a < expected : op === '>=' ? a >= expected : a <= expected;
  }
}

function fileExists(workspace: string, path: string): boolean {
  const where = resolveInWorkspace(workspace, path);
  return !('problem' in where) && statSync(where.real).isFile();
}

/**
 * Evaluates a check: a comparison (`$a.b == true`); a bare reference whose
 * name ends in `_exists` and whose value is a path (a file of the
 * workspace exists there); any other bare reference (its value is not null).
 */
export function evaluateCheck(check: DodCheck, scope: RefScope, workspace: string): DodResult {
  const comparison = COMPARISON.exec(check.expression);
  if (comparison) {
    const [ref] = refsInText(comparison[1] as string);
    const actual = ref ? resolveRef(ref, scope) : undefined;
    const expected = parseLiteral(comparison[3] as string) ?? null;
    return { ...check, kind: 'compare', actual: actual ?? null, passed: compare(actual, comparison[2] as string, expected) };
  }
  const [ref] = refsInText(check.expression.trim());
  const actual = ref ? resolveRef(ref, scope) : undefined;
  if (check.name.endsWith('_exists') && typeof actual === 'string') return { ...check, kind: 'file_exists', actual, passed: fileExists(workspace, actual) };
  return { ...check, kind: 'not_null', actual: actual ?? null, passed: actual !== undefined && actual !== null };
}
