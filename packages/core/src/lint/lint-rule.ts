import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Graph } from '../graph/model.js';

/** What lint rules may know beyond the graph. */
export interface LintContext {
  /** Handler types a registry can run; `type_known` refuses nodes typed otherwise. */
  knownHandlerTypes: ReadonlySet<string>;
}

/** A lint rule (spec §7.4): a name and a check that returns diagnostics. */
export interface LintRule {
  /** Rule id, reported as the diagnostic's `rule`. */
  readonly name: string;
  apply(graph: Graph, context: LintContext): Diagnostic[];
}
