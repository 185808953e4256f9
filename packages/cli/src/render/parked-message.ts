import type { Question } from '@orchestra/core';
import { CONVERSATION_COMMANDS, isConversationQuestion } from '@orchestra/core/human';
import { escapeControl } from '@orchestra/core/loader';
import type { PendingQuestions } from '@orchestra/core/store';
import { shellCommand } from '../shell-quote.js';

/** A question a parked run waits for, as `pending-questions.json` lists it. */
type Pending = PendingQuestions['questions'][number];

/** What the message about a parked run needs. */
export interface ParkedMessageInput {
  /** The run directory. */
  logsRoot: string;
  /** The questions the run waits for (`pending-questions.json`). */
  pending: readonly Pending[];
  /** The flags `orchestra resume` must repeat (`--simulate`, `--model NAME`, ...), one argument each. */
  resumeArgs: readonly string[];
  /** Arguments that, after the run's reference, say where it is kept (`--store <url>`): repeated by every command. */
  storeArgs?: readonly string[];
  /** Answering queues the run for a worker (a PostgreSQL store): say so, and how to continue it here instead. */
  queuedOnAnswer?: boolean;
  /** The run parked because the console's input ended (Ctrl-D, or stdin closed): say so, and how to run unattended. */
  inputEnded: boolean;
}

/** A node id or a name from the pipeline as one visible line. */
function shown(text: string): string {
  return escapeControl(text, { keepNewlines: false });
}

/** What a question waits for, for the message's first line. */
function describe(entry: Pending): string {
  const { question } = entry;
  if (isConversationQuestion(question)) return `a reply to ${shown(entry.id)} (turn ${shown(String(question.metadata.turn))} of its conversation; orchestra status shows the agent's message)`;
  return `${shown(question.text)} (${shown(entry.id)})`;
}

/** The answers a question takes, in words. */
function accepted(question: Question): string {
  if (isConversationQuestion(question)) return `a reply to the agent, or ${CONVERSATION_COMMANDS.join(', ')}`;
  if (question.type === 'MULTIPLE_CHOICE') return `one of ${question.options.map((o) => `[${shown(o.key)}] ${shown(o.label)}`).join(', ')}`;
  if (question.type === 'FREEFORM') return 'your text';
  return 'yes or no';
}

/** The answers to print a command for: every choice, yes and no, or a quoted placeholder for text. */
function answers(question: Question): string[] {
  if (isConversationQuestion(question)) return ['<your reply>', '/done'];
  if (question.type === 'MULTIPLE_CHOICE') return question.options.map((o) => o.key);
  if (question.type === 'FREEFORM') return ['<your answer>'];
  return ['yes', 'no'];
}

/** `orchestra answer` commands for one question (with `--question` when several are pending), ready to paste. */
export function answerCommands(logsRoot: string, entry: Pending, several: boolean, extra: readonly string[] = []): string[] {
  const which = several ? ['--question', entry.id] : [];
  return answers(entry.question).map((answer) => shellCommand(['orchestra', 'answer', logsRoot, ...which, ...extra, answer]));
}

/**
 * The message (for stderr) of a run that parked: what it waits for, the
 * `orchestra answer` commands for each question, then the `orchestra resume`
 * command; when it parked because the console's input ended, also how to
 * run unattended (`--auto-approve`, `--answers <file.json>`). Every command
 * is quoted to paste as it is into a POSIX shell.
 */
export function parkedMessage(input: ParkedMessageInput): string {
  const { logsRoot, pending, inputEnded } = input;
  const store = input.storeArgs ?? [];
  const first = pending[0];
  const several = pending.length > 1;
  const what = several ? `${pending.length} questions (${pending.map((p) => shown(p.id)).join(', ')}; orchestra status shows them)` : first ? describe(first) : '';
  const head = inputEnded
    ? `orchestra: standard input ended before a human answered${what ? ` ${what}` : ''}; the run is parked, not failed.`
    : `orchestra: waiting for a human${what ? `: ${what}` : ''}.`;
  const lines: string[] = [];
  if (!several && first) {
    lines.push(`${head} Answer with ${accepted(first.question)}:`, ...answerCommands(logsRoot, first, false, store).map((c) => `  ${c}`));
  } else {
    lines.push(`${head} Answer each question:`);
    for (const entry of pending) lines.push(`  ${describe(entry)}, ${accepted(entry.question)}:`, ...answerCommands(logsRoot, entry, true, store).map((c) => `    ${c}`));
  }
  if (input.queuedOnAnswer) lines.push('then a worker continues it (orchestra worker); or continue it here:', `  ${shellCommand(['orchestra', 'resume', logsRoot, ...input.resumeArgs])}`);
  else lines.push('then continue:', `  ${shellCommand(['orchestra', 'resume', logsRoot, ...input.resumeArgs])}`);
  if (inputEnded) {
    lines.push(
      'For a run with nobody at the terminal (CI), pass --auto-approve (the first choice at every gate) or --answers <file.json> (the answers, in order). To continue this one with the first choices:',
      `  ${shellCommand(['orchestra', 'resume', logsRoot, ...input.resumeArgs, '--auto-approve'])}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
