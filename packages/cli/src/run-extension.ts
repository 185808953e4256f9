import type { CodergenBackend, Handler } from '@orchestra/core';
import type { Graph } from '@orchestra/core/loader';

/** What a kind of pipeline adds to a run: handlers of its own node types (a compiled recipe's). */
export interface RunExtension {
  /** The node types its handlers run. */
  handlerTypes: readonly string[];
  /** Its handlers, over the run's backend. */
  handlers(backend: CodergenBackend | undefined): Promise<Record<string, Handler>>;
  /** Whether its nodes call models (the backend is loaded for them). */
  callsModels: boolean;
  /** Checks a run about to resume (a recipe changed since): a message refuses it. */
  resumeProblem?(graph: Graph): Promise<string | undefined>;
}

