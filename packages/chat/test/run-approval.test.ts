import { describe, expect, it } from 'vitest';
import { CallbackInterviewer, type Answer, type Question } from '@orchestra/core';
import { LaunchRunInputSchema, describeProposal, type PreparedRun } from '../src/index.js';
import { askApproval } from '../src/session/run-approval.js';

function prepared(input: Record<string, unknown>): PreparedRun {
  return { input: LaunchRunInputSchema.parse(input), pipeline: 'template:multi', mode: 'multi', source: '', file: 'multi.dot', context: {} };
}

/** An interviewer that gives `answers` in order and keeps the questions. */
function answering(...answers: Answer[]) {
  const asked: Question[] = [];
  const interviewer = new CallbackInterviewer((q) => {
    asked.push(q);
    const next = answers.shift();
    if (!next) throw new Error(`unexpected question: ${q.text}`);
    return next;
  });
  return { interviewer, asked };
}

const run = prepared({ task: 'Plan the shed', agents: ['a', 'b'], context: 'x'.repeat(300), context_paths: ['notes.md', 'plans/'] });

describe('describeProposal', () => {
  it('shows the task, the pipeline, the agents, the context cut at 200 characters, the context paths and the coordination overrides', () => {
    expect(describeProposal(run)).toBe(['Run: Plan the shed', '  pipeline: template:multi', '  agents: a, b', `  context: ${'x'.repeat(199)}…`, '  context paths: notes.md, plans/'].join('\n'));
    expect(describeProposal(prepared({ task: 'Short', context: 'ship Friday' }))).toBe('Run: Short\n  pipeline: template:multi\n  context: ship Friday');
    expect(describeProposal(prepared({ task: 'Vote', coordination_overrides: { voting_rounds: 2, agent_timeout: '5m' } }))).toBe('Run: Vote\n  pipeline: template:multi\n  coordination: voting_rounds 2, agent_timeout 5m');
  });
});

describe('askApproval', () => {
  it('asks Approve / Edit / Cancel about the proposal, as the launch_run stage', async () => {
    const { interviewer, asked } = answering({ value: 'A', selectedOption: { key: 'A', label: 'Approve' } });
    expect(await askApproval(interviewer, run)).toBe('approve');
    expect(asked).toEqual([
      expect.objectContaining({
        text: `Launch this run?\n${describeProposal(run)}`,
        type: 'MULTIPLE_CHOICE',
        options: [
          { key: 'A', label: 'Approve' },
          { key: 'E', label: 'Edit' },
          { key: 'C', label: 'Cancel' },
        ],
        stage: 'launch_run',
        metadata: { kind: 'approval' },
      }),
    ]);
  });

  it('takes an answer that names no option as Approve when it is YES, as Cancel otherwise', async () => {
    expect(await askApproval(answering({ value: 'YES' }).interviewer, run)).toBe('approve');
    expect(await askApproval(answering({ value: 'NO' }).interviewer, run)).toBe('cancel');
    expect(await askApproval(answering({ value: 'SKIPPED' }).interviewer, run)).toBe('cancel');
    // An option typed by its label matches it.
    expect(await askApproval(answering({ value: 'Approve' }).interviewer, run)).toBe('approve');
  });

  it('on Edit asks what should change; an empty, skipped or timed-out reply cancels', async () => {
    const edit: Answer = { value: 'E', selectedOption: { key: 'E', label: 'Edit' } };
    const { interviewer, asked } = answering(edit, { value: 'use oak', text: '  use oak  ' });
    expect(await askApproval(interviewer, run)).toEqual({ edit: 'use oak' });
    expect(asked[1]).toMatchObject({ text: 'What should change?', type: 'FREEFORM', stage: 'launch_run', metadata: { kind: 'approval-edit' } });
    expect(await askApproval(answering(edit, { value: '', text: '   ' }).interviewer, run)).toBe('cancel');
    expect(await askApproval(answering(edit, { value: 'SKIPPED' }).interviewer, run)).toBe('cancel');
    expect(await askApproval(answering(edit, { value: 'TIMEOUT' }).interviewer, run)).toBe('cancel');
  });
});
