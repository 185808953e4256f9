import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueueInterviewer, RecordingInterviewer, loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';

const source = `digraph Plan {
  graph [goal="Plan a small garden shed"]
  start   [shape=Mdiamond]
  exit    [shape=Msquare]
  draft   [prompt="Write a first outline of a plan to: $goal"]
  refine  [agent.mode="interactive", prompt="Improve the outline with the human. Goal: $goal"]
  publish [prompt="Write the final plan"]
  start -> draft -> refine
  refine -> publish [condition="outcome=success"]
  refine -> draft   [condition="context.interactive.command=reject"]
  publish -> exit
}`;

function load() {
  const loaded = loadPipeline(source, { file: 'plan.dot' });
  if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  return loaded.graph;
}

const newRunDir = () => join(mkdtempSync(join(tmpdir(), 'plan-test-')), 'run');

describe('plan pipeline', () => {
  it('talks with the agent until /done, then publishes', async () => {
    // Each queued answer is one human turn: a message for the agent, or a command.
    const interviewer = new RecordingInterviewer(new QueueInterviewer(['Make it 2 by 3 metres', '/done']));
    const result = await runPipeline(load(), { backend: simulationBackend, interviewer, logsRoot: newRunDir() });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'draft', 'refine', 'publish', 'exit']);
    // Every question of the conversation is an agent message; metadata.turn counts them.
    expect(interviewer.recordings.map((r) => r.question.metadata.turn)).toEqual([1, 2]);
    expect(result.context['interactive.command']).toBe('done');
    expect(result.context['interactive.history']).toEqual([{ agent: interviewer.recordings[0]?.question.text, human: 'Make it 2 by 3 metres' }]);
    const transcript = readFileSync(join(result.logsRoot, 'refine', 'conversation.md'), 'utf8');
    expect(transcript).toContain('Make it 2 by 3 metres');
  });

  it('drafts again after /reject', async () => {
    const interviewer = new QueueInterviewer(['/reject too big', '/approve']);
    const result = await runPipeline(load(), { backend: simulationBackend, interviewer, logsRoot: newRunDir() });
    expect(result.completedNodes).toEqual(['start', 'draft', 'refine', 'draft', 'refine', 'publish', 'exit']);
  });

  it('fails when nobody answers', async () => {
    const result = await runPipeline(load(), { backend: simulationBackend, interviewer: new QueueInterviewer([]), logsRoot: newRunDir() });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('no reply for refine at turn 1');
  });
});
