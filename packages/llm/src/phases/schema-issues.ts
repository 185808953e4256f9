import type * as z from 'zod';
import { requirementOf, schemaAt, type JsonSchema } from './requirement.js';

/** A field whose value is wrong. */
export interface InvalidField {
  field: string;
  provided: unknown;
  problem: string;
  requirement: string;
}

/** A required field that is absent. */
export interface MissingField {
  field: string;
  requirement: string;
}

/** What is wrong with an artifact, as the feedback to the model lists it. */
export interface ArtifactIssues {
  invalid: InvalidField[];
  missing: MissingField[];
  /** Fields the schema does not have (where it forbids others): often typos. */
  unknown: string[];
}

/** `scope.target_word_count`, `beats[3].threads[0]`: a zod path as a field name. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`;
    else out += out === '' ? String(step) : `.${String(step)}`;
  }
  return out || '$';
}

/** The value at a zod path, and whether its last field is present at all. */
function valueAt(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let current: unknown = root;
  for (const step of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, step as string)) return { present: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[step as string];
  }
  return { present: true, value: current };
}

const MAX_PROVIDED = 300;

/** A provided value small enough to send back: long strings and big structures are cut. */
export function shortened(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_PROVIDED ? `${value.slice(0, MAX_PROVIDED)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  const text = JSON.stringify(value);
  return text.length > MAX_PROVIDED ? `${text.slice(0, MAX_PROVIDED)}…` : value;
}

/** The problem, in words, for one zod issue. */
function problemOf(issue: z.core.$ZodIssue, provided: unknown): string {
  if (issue.code === 'too_small' && typeof provided === 'string' && provided === '') return 'empty string not allowed';
  if (issue.code === 'too_small' && Array.isArray(provided) && provided.length === 0) return 'empty array not allowed';
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'int' ? 'integer' : issue.expected;
    const got = provided === null ? 'null' : Array.isArray(provided) ? 'array' : typeof provided === 'number' ? `the number ${provided}` : typeof provided;
    return `expected ${expected}, got ${got}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

/**
 * Sorts zod's issues for an artifact into invalid, missing and unknown
 * fields, each invalid or missing one with the requirement its schema
 * states. A union's nested issues are reported as one invalid field.
 */
export function schemaIssues(value: unknown, issues: readonly z.core.$ZodIssue[], json: JsonSchema): ArtifactIssues {
  const out: ArtifactIssues = { invalid: [], missing: [], unknown: [] };
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.unknown.push(fieldName([...path, key]));
      continue;
    }
    const requirement = requirementOf(schemaAt(json, path), json);
    const at = valueAt(value, path);
    if (!at.present && issue.code === 'invalid_type') {
      out.missing.push({ field: fieldName(path), requirement });
      continue;
    }
    out.invalid.push({ field: fieldName(path), provided: shortened(at.value), problem: problemOf(issue, at.value), requirement });
  }
  return out;
}
