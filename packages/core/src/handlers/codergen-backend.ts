import type { GraphNode } from '../graph/model.js';
import type { Outcome } from '../engine/outcome.js';
import type { RunContext } from '../engine/run-context.js';

/** What a backend gets for one LLM stage. */
export interface CodergenRequest {
  node: GraphNode;
  prompt: string;
  context: RunContext;
  signal: AbortSignal;
}

/**
 * Runs one LLM stage (spec §4.5): returns the response text, or a full
 * outcome when the backend decides the routing itself. The coming `@orchestra/llm`
 * will provide LangChain-backed implementations; core ships the simulation.
 */
export interface CodergenBackend {
  run(request: CodergenRequest): Promise<string | Outcome>;
}
