import { z } from 'zod';
import { parseDuration } from '@orchestra/core/loader';

/** Most agents a multi-agent run mode fans out to. */
export const MAX_AGENTS = 6;

/** Most voting rounds of the multi mode (`coordination_overrides.voting_rounds`). */
export const MAX_VOTING_ROUNDS = 3;

/** Most retries of a template's stage (`coordination_overrides.max_retries`). */
export const MAX_STAGE_RETRIES = 5;

/**
 * `launch_run`'s `coordination_overrides`: the fine-grained settings of the
 * seed that map onto orchestra, each becoming attributes of the run-mode
 * template's nodes (docs/run-modes.md). Unknown keys are refused by name.
 */
export const CoordinationOverridesSchema = z.strictObject({
  /** Multi without refinement: how many times the agents vote; from the second round each sees the earlier votes (default 1). */
  voting_rounds: z.int().min(1).max(MAX_VOTING_ROUNDS).optional(),
  /** The longest each stage of an agent may run (the stages' `timeout`): `90s`, `5m`, `1h`. */
  agent_timeout: z
    .string()
    .refine((text) => (parseDuration(text) ?? 0) > 0, 'expected a duration such as 90s, 5m or 1h')
    .optional(),
  /** How many agents run at once (the fan-out's `max_parallel`; default all of them). */
  max_parallel: z.int().min(1).max(MAX_AGENTS).optional(),
  /** Retries of each stage after a failed attempt (the stages' `max_retries`; default none). */
  max_retries: z.int().min(0).max(MAX_STAGE_RETRIES).optional(),
});
/** The checked `coordination_overrides`. */
export type CoordinationOverrides = z.infer<typeof CoordinationOverridesSchema>;

/**
 * The parameters of `launch_run` (the session agent's tool and the MCP
 * tool): a task, and either a project pipeline or a run mode built from a
 * template (see docs/run-modes.md).
 */
export const LaunchRunInputSchema = z.strictObject({
  /** What the run should accomplish. */
  task: z.string().trim().min(1, 'task is empty: say what the run should accomplish'),
  /** Background, constraints, what the conversation settled: passed to every stage. */
  context: z.string().optional(),
  /** A DOT file of the project to run instead of a run-mode template (relative to the project directory). */
  pipeline: z.string().min(1).optional(),
  /** One agent or several in parallel (default: multi when more than one agent is named, else single). */
  agent_mode: z.enum(['single', 'multi']).optional(),
  /** Model aliases (orchestra.yaml) of the agents; one per parallel branch in multi mode. */
  agents: z.array(z.string().trim().min(1)).min(1).max(MAX_AGENTS).optional(),
  /** Refine: single → draft, critique, revise; multi → rank the answers, then refine the best; without it multi votes (default: true for multi, false for single). */
  refinement: z.boolean().optional(),
  /** Plan only: the agents describe how they would do it, and do nothing. */
  planning_mode: z.boolean().optional(),
  /** With planning_mode: execute the chosen plan after planning. */
  execute_after_planning: z.boolean().optional(),
  /** Files and directories of the project whose text the run gets (relative to the project directory). */
  context_paths: z.array(z.string().min(1)).max(50).optional(),
  /** Extra system prompt text per agent alias (or `*` for all). */
  agent_system_prompts: z.record(z.string(), z.string()).optional(),
  /** Fine-grained coordination settings of the run-mode templates: voting rounds, per-agent timeouts, agents at once, retries. */
  coordination_overrides: CoordinationOverridesSchema.optional(),
});
export type LaunchRunInput = z.infer<typeof LaunchRunInputSchema>;

/** The six run modes of the seed's matrix. */
export const RUN_MODES = ['single', 'single-refine', 'multi', 'multi-refine', 'plan', 'plan-execute'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/**
 * The run mode a `launch_run` asks for (the seed's matrix): planning first
 * (plan, or plan → execute), else one agent or several, with or without
 * refinement.
 */
export function runModeOf(input: Pick<LaunchRunInput, 'agent_mode' | 'agents' | 'refinement' | 'planning_mode' | 'execute_after_planning'>): RunMode {
  if (input.planning_mode) return input.execute_after_planning ? 'plan-execute' : 'plan';
  const multi = (input.agent_mode ?? ((input.agents?.length ?? 0) > 1 ? 'multi' : 'single')) === 'multi';
  const refine = input.refinement ?? multi;
  if (multi) return refine ? 'multi-refine' : 'multi';
  return refine ? 'single-refine' : 'single';
}
