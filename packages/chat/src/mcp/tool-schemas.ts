import { z } from 'zod';
import { TokenUsageFileSchema } from '@orchestra/core/store';
import { LaunchRunInputSchema, MAX_AGENTS, MAX_STAGE_RETRIES, MAX_VOTING_ROUNDS } from '../runs/launch-run-input.js';
import type { RunResult } from '../runs/run-result.js';

const launch = LaunchRunInputSchema.shape;

/**
 * The parameters of the MCP `launch_run` tool: {@link LaunchRunInputSchema}'s
 * fields (the same schemas, with descriptions for the client's model) plus
 * `wait`. Strict like the session's: an unknown parameter is an error.
 */
export const McpLaunchRunInputSchema = z.strictObject({
  task: launch.task.describe('What the run must accomplish, complete and self-contained: the run does not see your conversation.'),
  context: launch.context.describe('Everything the run needs from the conversation: decisions made, constraints, preferences, what to avoid. Passed to every stage.'),
  pipeline: launch.pipeline.describe('A DOT pipeline file of the project to run (relative to the project directory) instead of a run-mode template.'),
  agent_mode: launch.agent_mode.describe('One agent, or several in parallel (default: multi when more than one agent is named, else single).'),
  agents: launch.agents.describe(`Model aliases (orchestra.yaml) of the agents, one per parallel branch in multi mode (at most ${MAX_AGENTS}).`),
  refinement: launch.refinement.describe('Refine: single → draft, critique, revise; multi → rank the answers, then refine the best; without it the multi agents vote for the best answer (default: true for multi, false for single).'),
  planning_mode: launch.planning_mode.describe('Plan only: the agents describe how they would do it, and do nothing.'),
  execute_after_planning: launch.execute_after_planning.describe('With planning_mode: carry out the chosen plan after planning.'),
  context_paths: launch.context_paths.describe('Files and directories of the project whose text the run gets (relative to the project directory).'),
  agent_system_prompts: launch.agent_system_prompts.describe('Extra system prompt text per agent alias (`*` for all).'),
  coordination_overrides: launch.coordination_overrides.describe(
    `Fine-grained settings of the run-mode templates (not for \`pipeline\`): voting_rounds (1-${MAX_VOTING_ROUNDS}, multi without refinement: from the second round each agent sees the earlier votes), agent_timeout (each stage's longest run: 90s, 5m, 1h), max_parallel (agents at once), max_retries (0-${MAX_STAGE_RETRIES} per stage). Unknown keys are refused.`,
  ),
  wait: z
    .boolean()
    .optional()
    .describe('Return when the run stops (completed, failed or cancelled) or waits for an answer, with its full result. Default: return at once with the run id; poll run_status.'),
});

const runId = z.string().min(1).describe('The run id (from launch_run or list_runs).');

/** The parameters of `run_status` and `cancel_run`. */
export const RunIdInputSchema = z.strictObject({ id: runId });

/** The parameters of `answer_question`. */
export const AnswerQuestionInputSchema = z.strictObject({
  id: runId,
  question_id: z.string().min(1).describe('The question id (from the run result\'s `questions`).'),
  answer: z.string().describe('An option key or label, yes/no, or free text, depending on the question.'),
  wait: z.boolean().optional().describe('Return when the run stops or waits for another answer, with its full result. Default: return at once.'),
});

/** The parameters of `list_runs` (none). */
export const ListRunsInputSchema = z.strictObject({});

/** A {@link RunResult} as a schema: the structured result of the tools that report a run. */
export const RunResultSchema = z.object({
  id: z.string(),
  task: z.string(),
  pipeline: z.string().describe('The project pipeline it ran, or `template:<mode>`.'),
  status: z.enum(['completed', 'failed', 'cancelled', 'running', 'waiting']).describe('`cancelled`: stopped before its end (resumable); `waiting`: a question is pending (answer_question).'),
  duration_ms: z.number(),
  tokens: TokenUsageFileSchema.nullable().describe('Tokens over its LLM calls (as status.json records them, with their cost when orchestra.yaml prices every model called), or null when none were reported (simulated runs).'),
  final_response: z.string().nullable().describe('The last LLM stage\'s response (the best branch\'s when the run ended at a fan-in).'),
  artifacts: z.array(z.string()).describe('Files the run wrote under its artifacts/ directory (relative to run_dir).'),
  run_dir: z.string(),
  failure_reason: z.string().nullable(),
  completed_nodes: z.array(z.string()).describe('Nodes completed, in order (the partial results of a failed or cancelled run).'),
  questions: z.array(
    z.object({
      id: z.string(),
      node_id: z.string(),
      text: z.string(),
      options: z.array(z.object({ key: z.string(), label: z.string() })),
    }),
  ),
});

/** The structured result of `list_runs`. */
export const RunListSchema = z.object({ runs: z.array(RunResultSchema).describe('The runs of the project, newest first.') });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time check that {@link RunResultSchema} describes {@link RunResult} exactly (fails the type check when one changes alone). */
export const RUN_RESULT_SCHEMA_MATCHES: Same<z.infer<typeof RunResultSchema>, RunResult> = true;
