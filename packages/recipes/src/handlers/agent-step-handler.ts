import type { CodergenBackend, Handler, JsonValue } from '@orchestra/core';
import { isOrchestraError } from '@orchestra/core';
import { createStageReporter } from '@orchestra/core/handlers';
import { readSlot, slotJson, slotKey, type SlotValue } from '../slots.js';
import { renderAgentPrompt, replyData, replySummary } from './agent-prompt.js';
import { listOf, taskOf } from './recipe-attributes.js';

/**
 * The handler of phase-B steps (`recipe.agent`): one call of the step's
 * role (its contract as the system prompt, its tier's template) with no
 * tools, on a prompt built only from the template, the task and the input
 * slots. The reply fills the output slot (JSON when it is JSON). An error,
 * or an empty reply, fails the step without a retry: the compiled pipeline
 * asks the person what to do.
 */
export function createAgentStepHandler(backend: CodergenBackend): Handler {
  return {
    async execute(input) {
      const { node, graph, stage } = input;
      const port = backend.conference;
      if (!port) return { status: 'fail', failureReason: 'the backend cannot run recipe agents (it has no tool-less role calls)', retryable: false };
      const name = node.attributes['recipe.agent'] ?? '';
      let role;
      try {
        [role] = port.roles([name], node, graph);
      } catch (error) {
        if (isOrchestraError(error)) return { status: 'fail', failureReason: error.message, retryable: false };
        throw error;
      }
      if (!role) return { status: 'fail', failureReason: `no role ${name}`, retryable: false };
      const written = node.attributes[`recipe.template.${role.tier.toLowerCase()}`] ?? node.attributes['recipe.template'];
      const template = written === undefined ? '{{task}}\n\n{{inputs}}' : (JSON.parse(written) as string);
      const inputs = new Map<string, SlotValue | undefined>(listOf(node.attributes['recipe.input']).map((slot) => [slot, readSlot(input.context, slot)]));
      const prompt = renderAgentPrompt(template, { task: taskOf(graph, input.context), role: name, inputs });
      await stage.write('prompt.md', prompt);
      const { reporter, usage } = createStageReporter(input);
      let text: string;
      try {
        const reply = await port.askRole({ node, graph, role, system: role.contract, messages: [{ role: 'user', content: prompt }], signal: input.signal, report: reporter });
        text = reply.text.trim();
      } catch (error) {
        if (input.signal.aborted) throw error;
        const spent = usage();
        return { status: 'fail', failureReason: `the ${name} step failed: ${error instanceof Error ? error.message : String(error)}`, retryable: false, ...(spent ? { usage: spent } : {}) };
      }
      const spent = usage();
      if (!text) return { status: 'fail', failureReason: `the ${name} step gave an empty reply`, retryable: false, ...(spent ? { usage: spent } : {}) };
      await stage.write('response.md', text);
      const output = node.attributes['recipe.output'] ?? '';
      const slot: SlotValue = { data: replyData(text), receipt_id: null, summary: replySummary(text), agent_id: name };
      const contextUpdates: Record<string, JsonValue> = { [slotKey(output)]: slotJson(slot), last_stage: node.id, last_response: text.slice(0, 200) };
      return { status: 'success', notes: `${name} wrote ${output}`, contextUpdates, ...(spent ? { usage: spent } : {}) };
    },
    cannotRun(node, graph) {
      const port = backend.conference;
      if (!port) return `recipe step ${node.id} needs a backend that makes tool-less role calls (createModelBackend, or the simulation)`;
      try {
        port.roles([node.attributes['recipe.agent'] ?? ''], node, graph);
        return undefined;
      } catch (error) {
        if (isOrchestraError(error)) return error.message;
        throw error;
      }
    },
  };
}
