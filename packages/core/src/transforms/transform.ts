import type { Graph } from '../graph/model.js';

/**
 * A graph rewrite run after parsing and before validation (spec §9.1). It
 * returns a new or the same graph and must not modify its input.
 */
export interface Transform {
  /** A short name, shown in errors. */
  readonly name: string;
  apply(graph: Graph): Graph;
}
