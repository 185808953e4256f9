import type { Handler } from '../engine/handler.js';
import type { Outcome } from '../engine/outcome.js';
import type { CodergenBackend } from './codergen-backend.js';
import { isInteractiveNode } from './codergen-dispatcher.js';
import { composeStagePrompt } from './compose-prompt.js';
import { resolveFidelity } from './fidelity.js';
import { withStageDir } from '../engine/store/lazy-stage-dir.js';
import { createStageReporter, withSpentUsage } from './stage-reporter.js';

/** How much of a response goes into the context as `last_response`. */
export const LAST_RESPONSE_LENGTH = 200;

/** The file in a stage where a manager loop leaves its instruction; the stage's prompt ends with it. */
export const STEER_FILE = 'steer.md';

/**
 * The LLM stage handler (spec §4.5): composes the prompt, writes `prompt.md`,
 * calls the backend (with the stage's fidelity and a reporter for streaming
 * and usage), writes `response.md`, and succeeds with `last_stage` and
 * `last_response` in the context (unless the backend returned an outcome).
 * The tokens the backend reported go into the outcome's `usage`.
 * Refuses interactive nodes (`agent.mode="interactive"`): those need
 * `createLlmHandler` and a conversational backend.
 */
export function createCodergenHandler(backend: CodergenBackend): Handler {
  return {
    async execute(input) {
      const { node, graph, context, stage, signal } = input;
      // A supervisor (a manager loop) may have left an instruction for this stage: only in one that was
      // there before this attempt (left before the stage started, or during an earlier attempt). A stage
      // this attempt opened new holds nothing yet, and not asking spares a failed read per stage.
      const steer = stage.reused || input.attempt > 1 ? (await stage.read(STEER_FILE))?.trim() : undefined;
      const composed = composeStagePrompt(node, graph, context);
      const prompt = steer ? `${composed}\n\n## Instruction from the supervisor\n\n${steer}` : composed;
      await stage.write('prompt.md', prompt);
      const { reporter, usage } = createStageReporter(input);
      let result: string | Outcome;
      try {
        result = await backend.run(
          withStageDir({
            node,
            graph,
            prompt,
            context,
            signal,
            stage,
            workdir: input.workdir,
            run: input.run,
            fidelity: resolveFidelity(graph, node, input.arrival),
            processes: input.processes,
            progress: input.progress,
            saveProgress: input.saveProgress,
            report: reporter,
        }),
        );
      } catch (error) {
        throw withSpentUsage(error, usage());
      }
      const spent = usage();
      if (typeof result !== 'string') return spent && !result.usage ? { ...result, usage: spent } : result;
      await stage.write('response.md', result);
      const outcome: Outcome = {
        status: 'success',
        notes: `Stage completed: ${node.id}`,
        contextUpdates: {
          last_stage: node.id,
          last_response: result.slice(0, LAST_RESPONSE_LENGTH),
          // `response.key`: the whole response, for later stages to quote ({{key}}); last_response keeps only its start.
          ...(node.attributes['response.key']?.trim() ? { [node.attributes['response.key'].trim()]: result } : {}),
        },
        ...(spent ? { usage: spent } : {}),
      };
      return outcome;
    },
    cannotRun(node, graph) {
      if (isInteractiveNode(node)) {
        return `node ${node.id} is interactive (agent.mode="interactive") but its codergen handler runs single-shot stages only; register createLlmHandler(backend, interviewer) with a backend that can hold conversations`;
      }
      return backend.cannotRun?.(node, graph);
    },
  };
}
