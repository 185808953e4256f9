import { AnswerSchema, type Answer, type Question } from '../engine/question.js';
import type { AskOptions, Interviewer } from '../human/interviewer.js';
import { CassetteError } from './cassette-error.js';
import type { Cassette } from './cassette.js';

/** What identifies a question in a cassette: its text, kind and options (not its timeout or metadata). */
function questionRequest(question: Question): unknown {
  return { text: question.text, type: question.type, options: question.options.map((o) => ({ key: o.key, label: o.label })) };
}

/**
 * An interviewer over a cassette. Recording: `inner` answers (a person, a
 * script, auto-approve) and each question with its answer is recorded.
 * Replaying: the cassette answers, with no person; `inner` is not asked.
 */
export function cassetteInterviewer(cassette: Cassette, inner?: Interviewer): Interviewer {
  if (cassette.mode === 'replay') {
    return {
      async ask(question: Question): Promise<Answer> {
        const recorded = cassette.take('answer', question.stage, questionRequest(question));
        const answer = AnswerSchema.safeParse((recorded as { answer?: unknown } | null)?.answer);
        if (!answer.success) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${cassette.file}: the recorded answer of stage ${question.stage} is not an answer`);
        return answer.data;
      },
      inform: (message, stage) => inner?.inform?.(message, stage),
    };
  }
  if (!inner) throw new TypeError('recording a cassette needs the interviewer that answers the run');
  return {
    async ask(question: Question, options?: AskOptions): Promise<Answer> {
      const answer = await inner.ask(question, options);
      cassette.record('answer', question.stage, questionRequest(question), { answer });
      return answer;
    },
    inform: (message, stage) => inner.inform?.(message, stage),
  };
}
