/** One clause of a condition: `key = literal`, `key != literal`, or a bare key tested for truthiness. */
export type ConditionClause =
  | { key: string; op: '=' | '!='; value: string; index: number }
  | { key: string; op: 'truthy'; index: number };

/** A parsed condition expression (spec §10): clauses joined by `&&`. No clauses means always true. */
export interface Condition {
  readonly source: string;
  readonly clauses: readonly ConditionClause[];
}

/** Why a condition does not parse, and where (0-based index into the expression). */
export interface ConditionError {
  message: string;
  index: number;
  fix?: string;
}

/** The result of {@link parseCondition}. */
export type ConditionParseResult = { ok: true; condition: Condition } | { ok: false; error: ConditionError };
