import { DynamicStructuredTool, type StructuredToolInterface } from '@langchain/core/tools';
import type { Cassette } from '@orchestra/core';

function metadataOf(tool: StructuredToolInterface): Record<string, unknown> | undefined {
  return (tool as { metadata?: Record<string, unknown> }).metadata;
}

/**
 * An agent stage's tools over a cassette. Recording: each call runs and its
 * arguments and result (or error) are recorded. Replaying: nothing runs;
 * the call gets the result recorded for the same tool and arguments at the
 * stage (an error is thrown again, as the tool threw it).
 */
export function cassetteTools(cassette: Cassette, stage: string, tools: readonly StructuredToolInterface[]): StructuredToolInterface[] {
  return tools.map(
    (tool) =>
      new DynamicStructuredTool({
        name: tool.name,
        description: tool.description,
        schema: tool.schema as never,
        ...(tool.returnDirect ? { returnDirect: tool.returnDirect } : {}),
        // What marks a tool (readOnly: a phased node's Discuss offers only those) stays with it.
        ...(metadataOf(tool) ? { metadata: metadataOf(tool) } : {}),
        func: async (args: unknown, _runManager, config) => {
          const request = { tool: tool.name, args: JSON.parse(JSON.stringify(args ?? {})) as unknown };
          if (cassette.mode === 'replay') {
            const recorded = cassette.take('tool_call', stage, request) as { output?: unknown; error?: unknown; refused?: unknown } | null;
            if (recorded && typeof recorded.error === 'string') throw Object.assign(new Error(recorded.error), recorded.refused === true ? { refused: true } : {});
            return typeof recorded?.output === 'string' ? recorded.output : JSON.stringify(recorded?.output ?? '');
          }
          try {
            const output: unknown = await tool.invoke(args as never, config);
            const text = typeof output === 'string' ? output : JSON.stringify(output);
            cassette.record('tool_call', stage, request, { output: text });
            return text;
          } catch (error) {
            if (config?.signal?.aborted) throw error; // the run stops: nothing to replay
            const refused = typeof error === 'object' && error !== null && (error as { refused?: unknown }).refused === true;
            cassette.record('tool_call', stage, request, { error: error instanceof Error ? error.message : String(error), ...(refused ? { refused: true } : {}) });
            throw error;
          }
        },
      }) as unknown as StructuredToolInterface,
  );
}
