import type { Handler, JsonValue } from '@orchestra/core';
import { ReceiptBook } from '@orchestra/core/handlers';
import { commandTool } from '../command-tool.js';
import { readSlot, slotJson, slotKey } from '../slots.js';
import { resolveArgs } from '../slot-refs.js';
import { RecipeToolError, type RecipeTool } from '../tool-types.js';
import { listOf, taskOf, workspaceOf } from './recipe-attributes.js';

/** The value a step's output slot gets from its tool's data: the key of its name, or (one output) the whole data. */
export function outputData(data: JsonValue, output: string, outputs: readonly string[]): JsonValue {
  const isObject = typeof data === 'object' && data !== null && !Array.isArray(data);
  if (isObject && output in data) return (data as Record<string, JsonValue>)[output] as JsonValue;
  return outputs.length === 1 ? data : null;
}

/**
 * The handler of phase-A steps (`recipe.tool`): no model. Fills the step's
 * arguments from the task and the slots, runs the tool (a registered one,
 * or the command the recipe declares) in the workspace, records the call as
 * a receipt (`receipts.jsonl`) and fills each output slot with
 * `{ data, receipt_id, summary, agent_id: null }`.
 */
export function createToolStepHandler(tools: ReadonlyMap<string, RecipeTool>): Handler {
  return {
    async execute(input) {
      const { node, graph, stage } = input;
      const name = node.attributes['recipe.tool'] ?? '';
      const command = node.attributes['recipe.command'];
      const timeout = node.attributes['recipe.timeout'];
      const tool = command ? commandTool(name, JSON.parse(command) as string[], { ...(timeout ? { timeout } : {}), processes: input.processes }) : tools.get(name);
      if (!tool) return { status: 'fail', failureReason: `there is no tool ${JSON.stringify(name)} (the tools are: ${[...tools.keys()].join(', ')})`, retryable: false };
      const outputs = listOf(node.attributes['recipe.outputs']);
      const args = resolveArgs(JSON.parse(node.attributes['recipe.args'] ?? '{}') as JsonValue, { task: taskOf(graph, input.context), slot: (s) => readSlot(input.context, s)?.data, arg: (name) => input.context.get(name) as JsonValue | undefined }) as Record<string, JsonValue>;
      let result;
      try {
        result = await tool.run(args, { workspace: workspaceOf(graph, input.workdir), signal: input.signal });
      } catch (error) {
        if (input.signal.aborted) throw error;
        const message = error instanceof RecipeToolError ? error.message : `tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
        return { status: 'fail', failureReason: message, retryable: false };
      }
      const book = await ReceiptBook.open(stage);
      const receipt = await book.issue({ tool: name, arguments: args, status: 'ok', payload: JSON.stringify(result.data) });
      await stage.write('result.json', `${JSON.stringify({ tool: name, arguments: args, receipt_id: receipt.receiptId, summary: result.summary, data: result.data }, null, 2)}\n`);
      const contextUpdates: Record<string, JsonValue> = { last_stage: node.id, last_response: result.summary.slice(0, 200) };
      for (const output of outputs) {
        contextUpdates[slotKey(output)] = slotJson({ data: outputData(result.data, output, outputs), receipt_id: receipt.receiptId, summary: result.summary, agent_id: null });
      }
      return { status: 'success', notes: `${name}: ${result.summary}`, contextUpdates };
    },
    cannotRun(node) {
      const name = node.attributes['recipe.tool'] ?? '';
      if (node.attributes['recipe.command'] || tools.has(name)) return undefined;
      return `recipe step ${node.id} calls the tool ${JSON.stringify(name)}, which is not registered (the tools are: ${[...tools.keys()].join(', ')})`;
    },
  };
}
