import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Graph } from '../graph/model.js';

/** The outcome of loading a pipeline: the prepared graph (if parsing got that far) and every diagnostic. */
export interface LoadResult {
  /** The graph after transforms; absent when the source could not be parsed. */
  graph?: Graph;
  /** Syntax, dialect and lint findings, in that order. */
  diagnostics: Diagnostic[];
  /** True when a graph exists and no diagnostic is an error: the pipeline may run. */
  ok: boolean;
  /** The DOT text that was loaded (a run copies it into its directory for `resume`). */
  source: string;
}
