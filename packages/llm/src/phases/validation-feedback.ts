import type { ArtifactIssues } from './schema-issues.js';

/**
 * What the model receives after a finalization call that failed, in this
 * field order (the first field orients, the last instructs): `result`,
 * `issues` (`invalid`, `missing`, `unknown`), `issue_count`, `action`.
 */
export interface ValidationFeedback {
  result: 'validation_failed' | 'tool_error';
  issues: ArtifactIssues;
  issue_count: number;
  action: string;
}

/** How many issues a set holds (each unknown field counts one). */
export function issueCount(issues: ArtifactIssues): number {
  return issues.invalid.length + issues.missing.length + issues.unknown.length;
}

/** The feedback for arguments that failed the schema or the semantic checks. */
export function validationFeedback(issues: ArtifactIssues, toolName: string): ValidationFeedback {
  const action = `Call ${toolName}() with corrected data.${issues.unknown.length > 0 ? ' Unknown fields may be typos.' : ''}`;
  // Built field by field: JSON keeps this order, and the order is the contract.
  return { result: 'validation_failed', issues: { invalid: issues.invalid, missing: issues.missing, unknown: issues.unknown }, issue_count: issueCount(issues), action };
}

/** The feedback for a call whose arguments are not even an object (unparseable JSON, a list). */
export function toolErrorFeedback(problem: string, toolName: string): ValidationFeedback {
  return {
    result: 'tool_error',
    issues: { invalid: [{ field: '$', provided: null, problem, requirement: `a JSON object matching the parameters of ${toolName}` }], missing: [], unknown: [] },
    issue_count: 1,
    action: `Call ${toolName}() again with a JSON object as its arguments.`,
  };
}
