import type { JsonValue } from '@orchestra/core';
import { ARGS, TASK_DESCRIPTION } from './recipe-schema.js';

/** A `$slot`, `$slot[0]` or `$slot.field` reference (segments chain: `$a.b[2].c`). */
export interface SlotRef {
  slot: string;
  path: (string | number)[];
  /** As written. */
  text: string;
}

const REF = /\$([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\]|\.[A-Za-z_][A-Za-z0-9_]*)*)/g;

function parsePath(text: string): (string | number)[] {
  return [...text.matchAll(/\[(\d+)\]|\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : (m[2] as string)));
}

/** The references in a text, in order. */
export function refsInText(text: string): SlotRef[] {
  return [...text.matchAll(REF)].map((m) => ({ slot: m[1] as string, path: parsePath(m[2] ?? ''), text: m[0] }));
}

/** The references anywhere in a JSON value's strings. */
export function refsIn(value: unknown): SlotRef[] {
  if (typeof value === 'string') return refsInText(value);
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(refsIn);
  return [];
}

/** Follows a path into a value; `undefined` where it leads nowhere. */
export function follow(value: JsonValue | undefined, path: readonly (string | number)[]): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const segment of path) {
    if (current === null || current === undefined) return undefined;
    if (typeof segment === 'number') current = Array.isArray(current) ? current[segment] : undefined;
    else current = typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, JsonValue>)[segment] : undefined;
  }
  return current;
}

/** What references resolve against: the task's description and the slots' data. */
export interface RefScope {
  task: string;
  /** A run argument (`$args.<name>`): a context value set when the run started. */
  arg?(name: string): JsonValue | undefined;
  /** A slot's data; `undefined` when it was never written. */
  slot(name: string): JsonValue | undefined;
}

/** A reference's value (`$TASK_DESCRIPTION` is the task, `$args.<name>` a run argument); `undefined` where it leads nowhere. */
export function resolveRef(ref: SlotRef, scope: RefScope): JsonValue | undefined {
  if (ref.slot === TASK_DESCRIPTION) return ref.path.length ? undefined : scope.task;
  if (ref.slot === ARGS) {
    const [name, ...rest] = ref.path;
    return typeof name === 'string' ? follow(scope.arg?.(name), rest) : undefined;
  }
  return follow(scope.slot(ref.slot), ref.path);
}

/**
 * Arguments with their references filled in: a string that is one
 * reference becomes its value (a list stays a list); references inside
 * longer text are written in as text (JSON for objects). A reference that
 * leads nowhere becomes `null`.
 */
export function resolveArgs(value: JsonValue, scope: RefScope): JsonValue {
  if (typeof value === 'string') {
    const refs = refsInText(value);
    if (refs.length === 1 && refs[0]?.text === value) return resolveRef(refs[0], scope) ?? null;
    return value.replace(REF, (text) => {
      const [ref] = refsInText(text);
      const v = ref ? resolveRef(ref, scope) : undefined;
      return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolveArgs(v, scope));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveArgs(v, scope)]));
  return value;
}
