import type { Interviewer, Question } from '@orchestra/core';
import { matchOption } from '@orchestra/core/human';
import type { PreparedRun } from '../runs/run-launcher.js';

/** The proposal shown for approval. */
export function describeProposal(prepared: PreparedRun): string {
  const p = prepared.input;
  const lines = [`Run: ${p.task}`, `  pipeline: ${prepared.pipeline}`];
  if (p.agents) lines.push(`  agents: ${p.agents.join(', ')}`);
  if (p.context) lines.push(`  context: ${p.context.length > 200 ? `${p.context.slice(0, 199)}…` : p.context}`);
  if (p.context_paths?.length) lines.push(`  context paths: ${p.context_paths.join(', ')}`);
  const overrides = Object.entries(p.coordination_overrides ?? {}).filter(([, v]) => v !== undefined);
  if (overrides.length) lines.push(`  coordination: ${overrides.map(([k, v]) => `${k} ${String(v)}`).join(', ')}`);
  return lines.join('\n');
}

/** What the person decided about a proposed run: launch it, drop it, or change it first (what to change). */
export type Approval = 'approve' | 'cancel' | { edit: string };

/** The question that proposes a run: Approve, Edit or Cancel. */
export function approvalQuestion(prepared: PreparedRun): Question {
  return {
    text: `Launch this run?\n${describeProposal(prepared)}`,
    type: 'MULTIPLE_CHOICE',
    options: [
      { key: 'A', label: 'Approve' },
      { key: 'E', label: 'Edit' },
      { key: 'C', label: 'Cancel' },
    ],
    stage: 'launch_run',
    metadata: { kind: 'approval' },
  };
}

/**
 * Asks the person whether to launch `prepared`. An answer that names no
 * option counts as Approve when it is YES and as Cancel otherwise; Edit asks
 * what should change, and an empty, skipped or timed-out reply to that is a
 * Cancel.
 */
export async function askApproval(interviewer: Interviewer, prepared: PreparedRun): Promise<Approval> {
  const question = approvalQuestion(prepared);
  const answer = await interviewer.ask(question);
  const key = answer.selectedOption?.key ?? matchOption(answer.value, question.options)?.key ?? (answer.value === 'YES' ? 'A' : 'C');
  if (key === 'A') return 'approve';
  if (key !== 'E') return 'cancel';
  const edit = await interviewer.ask({ text: 'What should change?', type: 'FREEFORM', options: [], stage: 'launch_run', metadata: { kind: 'approval-edit' } });
  const text = (edit.text ?? edit.value).trim();
  return text && edit.value !== 'SKIPPED' && edit.value !== 'TIMEOUT' ? { edit: text } : 'cancel';
}
