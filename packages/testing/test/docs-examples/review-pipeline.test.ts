import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  QueueInterviewer,
  RecordingInterviewer,
  createDefaultRegistry,
  loadPipeline,
  runPipeline,
  simulationBackend,
} from '@orchestra/core';

// The pipeline under test (in a real project: loadPipelineFile('pipelines/review.dot')).
const source = `digraph Review {
  start       [shape=Mdiamond]
  exit        [shape=Msquare]
  review_gate [shape=hexagon, label="Review Changes"]
  ship_it     [label="Ship It", prompt="Prepare the approved changes for release"]
  fixes       [label="Fixes", prompt="Address the review comments"]
  start -> review_gate
  review_gate -> ship_it [label="[A] Approve"]
  review_gate -> fixes   [label="[F] Fix"]
  ship_it -> exit
  fixes -> review_gate
}`;

function load() {
  const loaded = loadPipeline(source, { file: 'review.dot' });
  if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  return loaded.graph;
}

const newRunDir = () => join(mkdtempSync(join(tmpdir(), 'review-test-')), 'run');

describe('review pipeline', () => {
  it('ships when the reviewer approves', async () => {
    const result = await runPipeline(load(), {
      backend: simulationBackend,
      interviewer: new QueueInterviewer(['A']),
      logsRoot: newRunDir(),
    });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'review_gate', 'ship_it', 'exit']);
    expect(result.context['human.gate.selected']).toBe('A');
    expect(result.context['human.gate.label']).toBe('Approve');
  });

  it('goes through fixes and asks again after "Fix"', async () => {
    // Answers are matched by key, then label, then target node id, ignoring case.
    const interviewer = new RecordingInterviewer(new QueueInterviewer(['f', 'approve']));
    const result = await runPipeline(load(), { backend: simulationBackend, interviewer, logsRoot: newRunDir() });
    expect(result.completedNodes).toEqual(['start', 'review_gate', 'fixes', 'review_gate', 'ship_it', 'exit']);
    expect(interviewer.recordings.map((r) => r.answer.value)).toEqual(['F', 'A']);
    expect(interviewer.recordings[0]?.question.options).toEqual([
      { key: 'A', label: 'Approve' },
      { key: 'F', label: 'Fix' },
    ]);
  });

  it('fails when the answers run out', async () => {
    const result = await runPipeline(load(), {
      backend: simulationBackend,
      interviewer: new QueueInterviewer(['F']), // the second question gets SKIPPED
      logsRoot: newRunDir(),
    });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('no answer for human gate review_gate');
  });

  it('records every answer in interviews.jsonl (with an explicit registry)', async () => {
    const registry = createDefaultRegistry({ backend: simulationBackend, interviewer: new QueueInterviewer(['Fix', 'ship_it']) });
    const result = await runPipeline(load(), { registry, logsRoot: newRunDir() });
    const lines = readFileSync(join(result.logsRoot, 'interviews.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.answerValue, l.selectedKey, l.selectedLabel])).toEqual([
      ['F', 'F', 'Fix'],
      ['ship_it', 'A', 'Approve'],
    ]);
  });
});
