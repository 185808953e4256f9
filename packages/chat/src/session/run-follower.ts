import type { Answer, Interviewer, Question } from '@orchestra/core';
import type { RunResult } from '../runs/run-result.js';
import type { RunPort, RunQuestion } from './run-port.js';

/** How a followed run ended. */
export interface FollowedRun {
  result: RunResult;
  /**
   * One of its questions got no answer (`SKIPPED`: nobody can answer, the
   * input ended), so the run was cancelled where it stood, resumable.
   */
  unanswered: boolean;
}

/** A run's question as the person is asked it: labelled with the run, its node as the stage. */
export function runQuestion(runId: string, q: RunQuestion): Question {
  return { text: `[run ${runId}] ${q.text}`, type: q.type, options: q.options, stage: q.node_id, metadata: { run: runId } };
}

/** What an answer says to the run: the option's key, else the text, else the value. */
function answerText(answer: Answer): string {
  return answer.selectedOption?.key ?? answer.text ?? answer.value;
}

/**
 * Follows run `id` to its end, asking each of its questions once, in order,
 * through `interviewer` (labelled with the run, see {@link runQuestion}) and
 * passing the answers on. A question still open when the run stops (it was
 * cancelled) is withdrawn: its `ask` is aborted. A question answered
 * `SKIPPED` cancels the run and asks nothing more. Resolves with the run's
 * result once it has stopped.
 */
export async function followRun(runs: RunPort, interviewer: Interviewer, id: string): Promise<FollowedRun> {
  const asked = new Set<string>();
  const stopAsking = new AbortController();
  let unanswered = false;
  const ask = async (questions: RunQuestion[]) => {
    for (const q of questions) {
      if (asked.has(q.id)) continue;
      asked.add(q.id);
      const answer = await interviewer.ask(runQuestion(id, q), { signal: stopAsking.signal });
      if (answer.value === 'SKIPPED') {
        unanswered = true;
        await runs.cancel(id).catch(() => {});
        return;
      }
      await runs.answer(id, q.id, answerText(answer)).catch(() => {});
    }
  };
  let chain = Promise.resolve();
  await runs.follow(id, (questions) => {
    chain = chain.then(() => ask(questions)).catch(() => {});
  });
  stopAsking.abort(new Error(`run ${id} stopped`));
  return { result: await runs.result(id), unanswered };
}
