import { OrchestraError } from '../errors.js';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import { BUILT_IN_HANDLER_TYPES } from '../graph/handler-types.js';
import type { Graph } from '../graph/model.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import type { LintContext, LintRule } from './lint-rule.js';

/** Options of {@link validate}. */
export interface ValidateOptions {
  /** Custom rules, run after the built-in ones (spec §7.4). */
  extraRules?: readonly LintRule[];
  /** Handler types that are registered, besides the built-in ones. */
  knownHandlerTypes?: Iterable<string>;
}

/** Thrown by {@link validateOrRaise} when a graph has error diagnostics. Code `ORCH_VALIDATION`. */
export class ValidationError extends OrchestraError {
  /** Every diagnostic, warnings included. */
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const lines = errors.map((d) => {
      const at = d.location ? `${d.location.file ?? '<input>'}:${d.location.line}:${d.location.column}: ` : '';
      return `  ${at}[${d.rule}] ${d.message}`;
    });
    super('ORCH_VALIDATION', `pipeline is invalid (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ValidationError';
    this.diagnostics = diagnostics;
  }
}

/**
 * Runs every built-in lint rule and the extra ones on a graph (spec §7.3). A
 * rule that throws is reported as an error diagnostic instead of escaping.
 */
export function validate(graph: Graph, options: ValidateOptions = {}): Diagnostic[] {
  const context: LintContext = {
    knownHandlerTypes: new Set([...BUILT_IN_HANDLER_TYPES, ...(options.knownHandlerTypes ?? [])]),
  };
  const diagnostics: Diagnostic[] = [];
  for (const rule of [...BUILT_IN_RULES, ...(options.extraRules ?? [])]) {
    try {
      for (const d of rule.apply(graph, context)) diagnostics.push(d);
    } catch (error) {
      diagnostics.push({
        rule: rule.name,
        severity: 'error',
        message: `lint rule ${rule.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        ...(graph.location ? { location: graph.location } : {}),
      });
    }
  }
  return diagnostics;
}

/** Like {@link validate}, but throws a {@link ValidationError} when any diagnostic is an error. */
export function validateOrRaise(graph: Graph, options: ValidateOptions = {}): Diagnostic[] {
  const diagnostics = validate(graph, options);
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  return diagnostics;
}
