import { AnswerLater } from '../engine/answer-later.js';
import { timeoutAnswer, type Answer, type Question } from '../engine/question.js';
import { answerForQuestion } from '../human/park.js';
import type { AskOptions, Interviewer } from '../human/interviewer.js';

/** A question a run waits for, held until it is answered. */
export interface PendingQuestion {
  /** Unique within the run: `<node id>.<n>`, n counting the questions the run has asked, also before a resume (never reused). */
  id: string;
  question: Question;
  askedAt: string;
}

/** Why an answer was not taken: `not_pending` (answered, timed out or never asked) or `invalid` (it fits no option). */
export type AnswerRefusal = { reason: 'not_pending' | 'invalid'; message: string };

interface Waiting extends PendingQuestion {
  resolve: (answer: Answer) => void;
  /** Gives the question up so that the run parks with it pending. */
  park: () => void;
}

/**
 * The interviewer of a run a {@link RunSupervisor} drives for somebody not
 * at a terminal (a web page, a chat, an MCP client): each question waits,
 * pending, until {@link HeldInterviewer.answer} is called, its `timeoutMs`
 * runs out (it then answers with the question's default, else TIMEOUT), or
 * the run's signal gives up (a node timeout, a cancel). Parallel branches may
 * wait at the same time.
 */
export class HeldInterviewer implements Interviewer {
  private readonly waiting = new Map<string, Waiting>();
  private asked: number;

  /**
   * @param askedBefore questions the run asked before (its recorded
   *   `interview.started` events), so ids go on where they stopped.
   * @param onChange called when a question starts or stops waiting.
   */
  constructor(
    askedBefore = 0,
    private readonly onChange: () => void = () => {},
  ) {
    this.asked = askedBefore;
  }

  /** Numbers the next questions from `askedBefore + 1` (a `loop_restart`'s new run numbers its own, from its own events). */
  renumber(askedBefore: number): void {
    this.asked = askedBefore;
  }

  /** The questions waiting now, oldest first. */
  pending(): PendingQuestion[] {
    return [...this.waiting.values()].map(({ id, question, askedAt }) => ({ id, question, askedAt }));
  }

  ask(question: Question, options: AskOptions = {}): Promise<Answer> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.asked += 1;
    const id = `${question.stage}.${this.asked}`;
    return new Promise<Answer>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stop = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
        this.onChange();
      };
      const onAbort = () => {
        stop();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (answer: Answer) => {
        stop();
        resolve(answer);
      };
      if (question.timeoutMs !== undefined) timer = setTimeout(() => settle(timeoutAnswer(question)), question.timeoutMs);
      const park = () => {
        stop();
        reject(new AnswerLater(question, [], 'server-stopped'));
      };
      this.waiting.set(id, { id, question, askedAt: new Date().toISOString(), resolve: settle, park });
      this.onChange();
    });
  }

  /**
   * Parks the run: every waiting question is given up as "answer later", so
   * the run stops with them pending in its directory (`orchestra answer`
   * and `orchestra resume`, or a server, take it from there). Returns how
   * many there were.
   */
  parkAll(): number {
    const waiting = [...this.waiting.values()];
    for (const entry of waiting) entry.park();
    return waiting.length;
  }

  /**
   * Answers a waiting question with text (an option key or label, yes/no,
   * free text or a conversation command), checked as `orchestra answer`
   * checks it.
   */
  answer(id: string, text: string): Answer | AnswerRefusal {
    const entry = this.waiting.get(id);
    if (!entry) {
      const ids = [...this.waiting.keys()];
      return { reason: 'not_pending', message: `question ${JSON.stringify(id)} is not pending${ids.length ? `; pending: ${ids.join(', ')}` : ''}` };
    }
    const answer = answerForQuestion(entry.question, text);
    if (typeof answer === 'string') return { reason: 'invalid', message: answer };
    entry.resolve(answer);
    return answer;
  }
}
