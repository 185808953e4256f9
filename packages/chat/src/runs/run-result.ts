import type { Question } from '@orchestra/core';
import type { TokenUsageFile } from '@orchestra/core/store';

/** A question a launched run waits for, as the session asks it of the person (the `questions` notice of its events). */
export interface LaunchedQuestion {
  id: string;
  /** The node that asks it. */
  node_id: string;
  text: string;
  type: Question['type'];
  options: { key: string; label: string }[];
}

/**
 * What a launched run gives back to whoever launched it (the session agent,
 * an MCP client): enough to summarise it and to find everything it made.
 */
export interface RunResult {
  id: string;
  task: string;
  /** The project pipeline it ran, or `template:<mode>`. */
  pipeline: string;
  /** `completed`, `failed`, `cancelled` (stopped before its end; resumable), `running`, `waiting` (a question is pending). */
  status: 'completed' | 'failed' | 'cancelled' | 'running' | 'waiting';
  duration_ms: number;
  /** Tokens over its LLM calls, in the shape of `status.json`'s `usage`; null when none were reported (simulated runs). */
  tokens: TokenUsageFile | null;
  /** The last LLM stage's response (the best branch's when the run ended at a fan-in). */
  final_response: string | null;
  /** Files the run wrote under its `artifacts/` directory (relative to the run directory). */
  artifacts: string[];
  /** The run directory (docs/run-directory.md). */
  run_dir: string;
  failure_reason: string | null;
  /** Nodes completed, in order (partial results of a failed or cancelled run). */
  completed_nodes: string[];
  /** Questions the run waits for (answer them with `answer_question`). */
  questions: { id: string; node_id: string; text: string; options: { key: string; label: string }[] }[];
}
