import { parseAccelerator } from '../graph/accelerator.js';
import type { Handler } from '../engine/handler.js';
import type { Outcome } from '../engine/outcome.js';
import { outgoingEdges } from '../graph/model.js';
import { durationAttr } from '../graph/values.js';
import type { Interviewer } from '../human/interviewer.js';
import type { Question } from '../engine/question.js';
import { askHuman, recordInteraction } from './ask-human.js';

interface Choice {
  key: string;
  label: string;
  to: string;
}

function findChoice(choices: readonly Choice[], wanted: string): Choice | undefined {
  const w = wanted.trim().toLowerCase();
  if (!w) return undefined;
  return (
    choices.find((c) => c.key.toLowerCase() === w) ??
    choices.find((c) => c.label.toLowerCase() === w) ??
    choices.find((c) => c.to.toLowerCase() === w)
  );
}

/**
 * The human gate (`shape=hexagon`, spec §4.6): offers the outgoing edges as
 * choices (`[K] Label` accelerators, or the target id for an unlabelled edge)
 * and routes to the one chosen (`suggested_next_ids`, `preferred_label`),
 * recording `human.gate.selected` and `human.gate.label`. `human.timeout`
 * (a duration) limits the wait; then `human.default_choice` (a key, label or
 * target) is taken, or the node asks for a retry. No answer at all (SKIPPED)
 * fails the node. With `human.input="freeform"` the gate asks for free text,
 * stores it in `human.gate.text` and follows its single outgoing edge.
 */
export function createWaitHumanHandler(interviewer: Interviewer): Handler {
  return {
    async execute(input) {
      const { node, graph } = input;
      const edges = outgoingEdges(graph, node.id);
      if (edges.length === 0) return { status: 'fail', failureReason: 'No outgoing edges for human gate' };
      const timeoutMs = durationAttr(node, 'human.timeout');
      const text = node.attributes.label || node.id;

      if (node.attributes['human.input'] === 'freeform') {
        const question: Question = { text, type: 'FREEFORM', options: [], stage: node.id, metadata: {}, ...(timeoutMs ? { timeoutMs } : {}) };
        const answer = await askHuman(input, interviewer, question);
        recordInteraction(input, question, answer);
        if (answer.value === 'SKIPPED') return { status: 'fail', failureReason: `no answer for human gate ${node.id} (input ended or no answers left)`, retryable: false };
        if (answer.value === 'TIMEOUT') {
          return { status: 'retry', failureReason: `no answer for human gate ${node.id} within ${node.attributes['human.timeout'] ?? 'the time allowed'}` };
        }
        const to = (edges[0] as (typeof edges)[number]).to;
        return { status: 'success', contextUpdates: { 'human.gate.text': answer.text ?? answer.value }, suggestedNextIds: [to], notes: `answered ${node.id}` };
      }

      const choices: Choice[] = edges.map((e) => {
        const { key, label } = parseAccelerator(e.attributes.label ?? '', e.to);
        return { key: key || e.to, label: label || e.to, to: e.to };
      });
      const defaultChoice = node.attributes['human.default_choice'] ? findChoice(choices, node.attributes['human.default_choice']) : undefined;
      const question: Question = {
        text,
        type: 'MULTIPLE_CHOICE',
        options: choices.map(({ key, label }) => ({ key, label })),
        stage: node.id,
        metadata: {},
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(defaultChoice ? { default: { value: defaultChoice.key, selectedOption: { key: defaultChoice.key, label: defaultChoice.label } } } : {}),
      };
      const asked = await askHuman(input, interviewer, question);
      // A TIMEOUT from any interviewer takes the default choice when there is one.
      const answer = asked.value === 'TIMEOUT' && question.default ? question.default : asked;
      const special = answer.value === 'SKIPPED' || answer.value === 'TIMEOUT';
      const choice = special ? undefined : (findChoice(choices, answer.selectedOption?.key ?? '') ?? findChoice(choices, answer.value) ?? findChoice(choices, answer.text ?? ''));
      recordInteraction(input, question, answer, choice);
      if (answer.value === 'SKIPPED') return { status: 'fail', failureReason: `no answer for human gate ${node.id} (input ended or no answers left)`, retryable: false };
      if (answer.value === 'TIMEOUT') {
        return { status: 'retry', failureReason: `no answer for human gate ${node.id} within ${node.attributes['human.timeout'] ?? 'the time allowed'}` };
      }
      if (!choice) return { status: 'fail', failureReason: `answer ${JSON.stringify(answer.value)} matches no choice of ${node.id}` };
      const outcome: Outcome = {
        status: 'success',
        preferredLabel: choice.label,
        suggestedNextIds: [choice.to],
        contextUpdates: { 'human.gate.selected': choice.key, 'human.gate.label': choice.label },
        notes: `human chose [${choice.key}] ${choice.label}`,
      };
      return outcome;
    },
  };
}
