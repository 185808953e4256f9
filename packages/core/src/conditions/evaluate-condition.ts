import type { Condition } from './condition.js';

/** What a condition is evaluated against: the node's outcome and the run context. */
export interface ConditionScope {
  /** Outcome status, lower-case (`success`, `fail`, ...). */
  outcome: string;
  /** The outcome's preferred label, or `""`. */
  preferredLabel: string;
  /** Looks a key up in the run context; undefined when missing. */
  get(key: string): unknown;
}

/** A context value as the condition language sees it: missing → `""`, objects as JSON. */
function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Resolves a key per spec §10.4, including the unprefixed fallback for `context.*`. */
export function resolveConditionKey(key: string, scope: ConditionScope): string {
  if (key === 'outcome') return scope.outcome;
  if (key === 'preferred_label') return scope.preferredLabel;
  if (key.startsWith('context.')) {
    const full = scope.get(key);
    if (full !== undefined && full !== null) return asText(full);
    return asText(scope.get(key.slice('context.'.length)));
  }
  return asText(scope.get(key));
}

/** Evaluates a parsed condition: every clause must hold; no clauses is true. */
export function evaluateCondition(condition: Condition, scope: ConditionScope): boolean {
  for (const clause of condition.clauses) {
    const actual = resolveConditionKey(clause.key, scope);
    if (clause.op === 'truthy') {
      if (actual === '' || actual === 'false' || actual === '0') return false;
    } else if (clause.op === '=') {
      if (actual !== clause.value) return false;
    } else if (actual === clause.value) return false;
  }
  return true;
}
