import { z } from 'zod';
import { didYouMean } from './did-you-mean.js';
import type { KeyPath } from './key-path.js';
import type { PositionTarget } from './yaml-positions.js';

/** One problem found by the schema, in plain words. */
export interface ConfigProblem {
  /** Key path of the offending key or value. */
  path: KeyPath;
  /** What is wrong: `expected an integer ≥ 1, got "lots"`, `unknown key (did you mean base_url?)`. */
  reason: string;
  /** Whether the problem is the key itself (unknown key, bad name) or its value. */
  target: PositionTarget;
  /** The zod issue it was written from. */
  issue: z.core.$ZodIssue;
}

const MAX_SHOWN = 60;

/** A value as a message shows it: strings quoted (and shortened), lists and mappings by kind. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value';
  if (typeof value === 'string') {
    const text = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return JSON.stringify(text);
  }
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

function unwrap(schema: unknown): unknown {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
    else if (s instanceof z.ZodPipe) s = s.in;
    else return s;
  }
}

/** The keys the schema allows at `path` (empty when it is not a fixed-key object). */
export function knownKeys(schema: z.ZodType, path: KeyPath): string[] {
  let s = unwrap(schema);
  for (const segment of path) {
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, unknown>)[String(segment)];
    else if (s instanceof z.ZodRecord) s = s.valueType;
    else if (s instanceof z.ZodArray) s = s.element;
    else return [];
    s = unwrap(s);
  }
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}

function lookup(data: unknown, path: KeyPath): { present: boolean; value: unknown } {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return { present: false, value: undefined };
    value = (value as Record<string | number, unknown>)[segment];
  }
  return { present: true, value };
}

/**
 * Rewrites a zod issue into plain words. An issue about unknown keys becomes
 * one problem per key (with a "did you mean" when a known key is close).
 */
export function describeIssue(issue: z.core.$ZodIssue, data: unknown, schema: z.ZodType): ConfigProblem[] {
  const base = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(schema, base);
    return issue.keys.map((key) => {
      const suggestion = didYouMean(key, known);
      const reason = suggestion ? `unknown key (did you mean ${suggestion}?)` : `unknown key (known keys: ${known.join(', ')})`;
      return { path: [...base, key], reason, target: 'key', issue };
    });
  }
  if (issue.code === 'invalid_key') {
    return [{ path: base, reason: issue.issues[0]?.message ?? 'invalid key', target: 'key', issue }];
  }
  const { present, value } = lookup(data, base);
  let reason = issue.message;
  if (!present) reason = `missing (${reason})`;
  else if (reason.startsWith('expected ') && !reason.includes(', got ')) reason = `${reason}, got ${showValue(value)}`;
  if (present && issue.code === 'invalid_value' && typeof value === 'string') {
    const suggestion = didYouMean(value, issue.values.map(String));
    if (suggestion) reason += ` (did you mean ${suggestion}?)`;
  }
  return [{ path: base, reason, target: 'value', issue }];
}
