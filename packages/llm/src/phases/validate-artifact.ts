import type { ArtifactSchema } from './artifact-schema.js';
import { schemaIssues, type ArtifactIssues } from './schema-issues.js';
import { runSemanticChecks, type SemanticCheck } from './semantic-checks.js';
import { issueCount } from './validation-feedback.js';

/** What a code-registered semantic validator may report; `fatal` stops the node without a retry. */
export interface SemanticFindings extends Partial<ArtifactIssues> {
  fatal?: boolean;
}

/** A semantic validator written in code (library): the same feedback shape as the declared checks. */
export type SemanticValidator = (artifact: unknown, context: Readonly<Record<string, unknown>>) => SemanticFindings | undefined;

/** Everything an artifact is checked against. */
export interface ArtifactRules {
  schema: ArtifactSchema;
  checks?: readonly SemanticCheck[];
  validators?: readonly SemanticValidator[];
}

/** The verdict on one finalization call's arguments. */
export type ArtifactVerdict =
  | { ok: true; artifact: unknown }
  /** Send `issues` back and let the model try again. */
  | { ok: false; fatal: false; issues: ArtifactIssues }
  /** Stop: a fatal check failed (`issues`), or a check could not run (`errors`). */
  | { ok: false; fatal: true; issues: ArtifactIssues; errors: string[] };

function add(into: ArtifactIssues, from: Partial<ArtifactIssues>): void {
  into.invalid.push(...(from.invalid ?? []));
  into.missing.push(...(from.missing ?? []));
  into.unknown.push(...(from.unknown ?? []));
}

/**
 * Checks an artifact: the schema first (semantic checks only read an
 * artifact of the right shape), then the declared checks, then the
 * validators. Fatal findings win over retryable ones: the node stops with
 * them, and no retry is offered.
 */
export function validateArtifact(value: unknown, rules: ArtifactRules, context: Readonly<Record<string, unknown>>): ArtifactVerdict {
  const parsed = rules.schema.zod.safeParse(value);
  if (!parsed.success) return { ok: false, fatal: false, issues: schemaIssues(value, parsed.error.issues, rules.schema.json) };
  const artifact = parsed.data;
  const checked = runSemanticChecks(rules.checks ?? [], artifact, context);
  if (checked.errors.length > 0) return { ok: false, fatal: true, issues: checked.fatal, errors: checked.errors };
  const fatal = checked.fatal;
  const retry = checked.retry;
  for (const validator of rules.validators ?? []) {
    const found = validator(artifact, context);
    if (found) add(found.fatal ? fatal : retry, found);
  }
  if (issueCount(fatal) > 0) return { ok: false, fatal: true, issues: fatal, errors: [] };
  if (issueCount(retry) > 0) return { ok: false, fatal: false, issues: retry };
  return { ok: true, artifact };
}
