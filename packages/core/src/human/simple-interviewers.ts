import type { AskOptions, Interviewer } from './interviewer.js';
import { isConversationQuestion } from './conversation-question.js';
import { matchOption, type Answer, type Question } from '../engine/question.js';

/**
 * Answers without a human (spec §6.4): YES to yes/no and confirmations, the
 * first option of a choice, `auto-approved` to free text, and `/approve` to
 * an interactive node's first agent message (ending the conversation). For CI.
 */
export class AutoApproveInterviewer implements Interviewer {
  async ask(question: Question): Promise<Answer> {
    if (question.type === 'YES_NO' || question.type === 'CONFIRMATION') return { value: 'YES' };
    if (isConversationQuestion(question)) return { value: '/approve', text: '/approve' };
    const first = question.options[0];
    if (question.type === 'MULTIPLE_CHOICE' && first) return { value: first.key, selectedOption: first };
    return { value: 'auto-approved', text: 'auto-approved' };
  }
}

/** What a queued answer may be: a ready answer, or a string (option key or label, yes/no, free text). */
export type QueuedAnswer = Answer | string;

/** Turns a scripted string into the answer it means for a question. */
export function answerFromText(text: string, question: Question): Answer {
  if (question.type === 'MULTIPLE_CHOICE') {
    const option = matchOption(text, question.options);
    return option ? { value: option.key, selectedOption: option } : { value: text, text };
  }
  if (question.type === 'YES_NO' || question.type === 'CONFIRMATION') {
    const t = text.trim().toLowerCase();
    if (t === 'y' || t === 'yes') return { value: 'YES' };
    if (t === 'n' || t === 'no') return { value: 'NO' };
  }
  return { value: text, text };
}

/**
 * Answers from a prepared list, in order (spec §6.4); SKIPPED once it is
 * empty. The interviewer for pipeline tests and `--answers`.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { QueueInterviewer, loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';
 *
 * const { graph } = loadPipeline(`digraph Review {
 *   start  [shape=Mdiamond]
 *   exit   [shape=Msquare]
 *   draft  [prompt="Draft the notes"]
 *   review [shape=hexagon, label="Review the notes"]
 *   start -> draft -> review
 *   review -> exit  [label="[A] Approve"]
 *   review -> draft [label="[R] Revise"]
 * }`);
 * if (!graph) throw new Error('invalid pipeline');
 * // One answer per question, in order: an option's key or label, a target node's id, yes/no, free text.
 * const interviewer = new QueueInterviewer(['R', 'Approve']);
 * const result = await runPipeline(graph, {
 *   backend: simulationBackend,
 *   interviewer,
 *   logsRoot: join(mkdtempSync(join(tmpdir(), 'review-')), 'run'),
 * });
 * console.log(result.status, result.completedNodes.join(' > '));
 * // Prints:
 * // success start > draft > review > draft > review > exit
 * ```
 */
export class QueueInterviewer implements Interviewer {
  private readonly queue: QueuedAnswer[];

  constructor(answers: Iterable<QueuedAnswer>) {
    this.queue = [...answers];
  }

  /** Answers not used yet. */
  get remaining(): number {
    return this.queue.length;
  }

  async ask(question: Question): Promise<Answer> {
    const next = this.queue.shift();
    if (next === undefined) return { value: 'SKIPPED' };
    return typeof next === 'string' ? answerFromText(next, question) : next;
  }
}

/** Delegates to a function (spec §6.4): Slack, a web page, an API. */
export class CallbackInterviewer implements Interviewer {
  constructor(private readonly callback: (question: Question, options: AskOptions) => Answer | Promise<Answer>) {}

  async ask(question: Question, options: AskOptions = {}): Promise<Answer> {
    return this.callback(question, options);
  }
}

/** Wraps another interviewer and keeps every question with its answer (spec §6.4). */
export class RecordingInterviewer implements Interviewer {
  private readonly pairs: { question: Question; answer: Answer }[] = [];

  constructor(private readonly inner: Interviewer) {}

  /** Every question asked so far, with its answer, in order. */
  get recordings(): readonly { question: Question; answer: Answer }[] {
    return this.pairs;
  }

  async ask(question: Question, options?: AskOptions): Promise<Answer> {
    const answer = await this.inner.ask(question, options);
    this.pairs.push({ question, answer });
    return answer;
  }

  inform(message: string, stage: string): void {
    this.inner.inform?.(message, stage);
  }
}
