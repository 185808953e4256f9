import type { Handler } from '../engine/handler.js';
import { OutcomeSchema } from '../engine/outcome.js';
import { toolHandler } from '../handlers/tool-handler.js';
import { CassetteError } from './cassette-error.js';
import type { Cassette } from './cassette.js';

/**
 * The tool handler over a cassette. Recording: the command runs and its
 * outcome (status, `tool.output`, notes) is recorded. Replaying: nothing
 * runs; the stage gets the recorded outcome (and `stdout.log` the recorded
 * `tool.output`).
 */
export function cassetteToolHandler(cassette: Cassette, inner: Handler = toolHandler): Handler {
  return {
    async execute(input) {
      const request = { command: input.node.attributes.tool_command ?? '' };
      if (cassette.mode === 'replay') {
        const recorded = cassette.take('tool', input.node.id, request);
        const outcome = OutcomeSchema.safeParse((recorded as { outcome?: unknown } | null)?.outcome);
        if (!outcome.success) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${cassette.file}: the recorded outcome of tool node ${input.node.id} is not an outcome`);
        const output = outcome.data.contextUpdates?.['tool.output'];
        if (typeof output === 'string') await input.stage.write('stdout.log', output);
        return outcome.data;
      }
      const outcome = await inner.execute(input);
      cassette.record('tool', input.node.id, request, { outcome });
      return outcome;
    },
  };
}

/** Handlers a run with a cassette registers besides the built-ins (today: `tool`, see {@link cassetteToolHandler}). */
export function cassetteHandlers(cassette: Cassette): Record<string, Handler> {
  return { tool: cassetteToolHandler(cassette) };
}
