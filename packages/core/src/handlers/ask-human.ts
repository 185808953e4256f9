import type { HandlerInput } from '../engine/handler.js';
import { isConversationQuestion } from '../human/conversation-question.js';
import type { Interviewer } from '../human/interviewer.js';
import type { Answer, Option, Question } from '../engine/question.js';

/** What asking needs of a handler's input. */
export type AskingInput = Pick<HandlerInput, 'node' | 'emit' | 'signal'>;

/**
 * Asks `question` with the node's signal, emitting `interview.started` and
 * then `interview.completed` or `interview.timeout` (a TIMEOUT answer, or
 * the question's default given for one).
 */
export async function askHuman(input: AskingInput, interviewer: Interviewer, question: Question): Promise<Answer> {
  const { node, emit, signal } = input;
  emit({ type: 'interview.started', nodeId: node.id, questionText: question.text, questionType: question.type });
  const started = performance.now();
  const answer = await interviewer.ask(question, { signal });
  const durationMs = performance.now() - started;
  if (answer.value === 'TIMEOUT' || (question.default && answer === question.default)) {
    emit({ type: 'interview.timeout', nodeId: node.id, questionText: question.text, durationMs });
  } else {
    emit({ type: 'interview.completed', nodeId: node.id, questionText: question.text, answerValue: answer.value, durationMs });
  }
  return answer;
}

/** Records an exchange (the `human.interaction` event, which also goes to `interviews.jsonl`), with the choice it led to, if any. */
export function recordInteraction(input: AskingInput, question: Question, answer: Answer, choice?: Option): void {
  input.emit({
    type: 'human.interaction',
    nodeId: input.node.id,
    questionText: question.text,
    questionType: question.type,
    answerValue: answer.value,
    answerText: answer.text ?? '',
    selectedKey: choice?.key ?? answer.selectedOption?.key ?? '',
    selectedLabel: choice?.label ?? answer.selectedOption?.label ?? '',
    ...(isConversationQuestion(question) ? { turn: Number(question.metadata.turn) } : {}),
  });
}
