import type { CoreErrorCode } from '../error-codes.js';
import { OrchestraError } from '../errors.js';
import { escapeControl } from '../text/escape-control.js';
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
export class ValidationError extends OrchestraError<Extract<CoreErrorCode, 'ORCH_VALIDATION'>> {
  /** Every diagnostic, warnings included. */
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    // Messages name what the pipeline holds: escaped, as formatDiagnostic does, for whoever prints this.
    const lines = errors.map((d) => {
      const at = d.location ? `${d.location.file ?? '<input>'}:${d.location.line}:${d.location.column}: ` : '';
      return `  ${escapeControl(`${at}[${d.rule}] ${d.message}`, { keepNewlines: false })}`;
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
  const earlier = passed.get(graph);
  if (earlier && !options.extraRules?.length && sameAnswer(earlier, graph, context.knownHandlerTypes)) return [...earlier.diagnostics];
  const diagnostics: Diagnostic[] = [];
  const run = (rule: LintRule) => {
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
  };
  BUILT_IN_RULES.forEach(run);
  const builtIn = diagnostics.length;
  options.extraRules?.forEach(run);
  // What the built-in rules said of a graph they pass, kept for a later call without extra rules.
  const own = diagnostics.slice(0, builtIn);
  if (!hasErrors(own)) passed.set(graph, { knownHandlerTypes: context.knownHandlerTypes, nodes: graph.nodes.size, edges: graph.edges.length, diagnostics: own });
  return diagnostics;
}

/**
 * Graphs that passed validation (no errors), with what they were checked
 * against: a run validates the graph its loader has just validated, and a
 * 100,000-node graph costs a second or so and tens of MB to check again.
 * Graphs are immutable (transforms return new ones); the node and edge
 * counts guard against one edited in place anyway. Knowing more handler
 * types cannot add an error, so a graph that passed against fewer passes.
 */
const passed = new WeakMap<Graph, Passed>();

interface Passed {
  knownHandlerTypes: ReadonlySet<string>;
  nodes: number;
  edges: number;
  diagnostics: readonly Diagnostic[];
}

/**
 * Whether the built-in rules would say again what they said: same graph
 * shape, and every handler type known then known now. Only `type_known`
 * reads the known types, and a graph that passed has no `type_known` error,
 * so knowing more cannot change the answer.
 */
function sameAnswer(earlier: Passed, graph: Graph, known: ReadonlySet<string>): boolean {
  if (earlier.nodes !== graph.nodes.size || earlier.edges !== graph.edges.length) return false;
  for (const type of earlier.knownHandlerTypes) if (!known.has(type)) return false;
  return true;
}

/** Like {@link validate}, but throws a {@link ValidationError} when any diagnostic is an error. */
export function validateOrRaise(graph: Graph, options: ValidateOptions = {}): Diagnostic[] {
  const diagnostics = validate(graph, options);
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  return diagnostics;
}
