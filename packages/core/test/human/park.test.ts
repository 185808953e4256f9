import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnswerLater, FileRunStore, createDefaultRegistry, resumePipeline, simulationBackend, type Interviewer } from '../../src/index.js';
import { RecordedAnswersInterviewer, recordAnswer } from '../../src/human.js';
import { readPendingQuestions } from '../../src/store.js';
import { checkpointAt, dot, eventsOf, run, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

const GATE = dot('  gate [shape=hexagon, label="Go?"]\n  yes [prompt="y"]\n  no [prompt="n"]\n  start -> gate\n  gate -> yes [label="[Y] Yes"]\n  gate -> no [label="[N] No"]\n  yes -> exit\n  no -> exit');

describe('parking (durable waits)', () => {
  it('an interviewer that says "not now" parks the run; a recorded answer resumes it', async () => {
    const later: Interviewer = { ask: async (question) => Promise.reject(new AnswerLater(question)) };
    const { result, logsRoot, events } = await run(GATE, { registry: createDefaultRegistry({ backend: simulationBackend, interviewer: later }), source: GATE });
    expect(result.status).toBe('parked');
    expect(checkpointAt(logsRoot)).toMatchObject({ status: 'parked', next_node: 'gate', completed_nodes: ['start'] });
    expect((await readPendingQuestions(new FileRunStore(logsRoot))).map((p) => [p.id, p.question.options.map((o) => o.key)])).toEqual([['gate', ['Y', 'N']]]);
    expect(eventsOf(events, 'pipeline.parked')).toEqual([expect.objectContaining({ nodeId: 'gate', questionText: 'Go?' })]);
    expect(existsSync(join(logsRoot, 'gate', 'status.json'))).toBe(false);

    expect((await recordAnswer(new FileRunStore(logsRoot), 'perhaps'))).toBe('"perhaps" is not a choice of gate: answer with Y (Yes), N (No)');
    expect((await recordAnswer(new FileRunStore(logsRoot), 'no'))).toMatchObject({ id: 'gate', answer: { value: 'N' } });
    const resumed = await resumePipeline(logsRoot, { backend: simulationBackend, interviewer: new RecordedAnswersInterviewer(new FileRunStore(logsRoot), undefined) });
    expect(resumed.status).toBe('success');
    expect(resumed.completedNodes).toEqual(['start', 'gate', 'no', 'exit']);
    expect((await readPendingQuestions(new FileRunStore(logsRoot)))).toEqual([]);
    expect(JSON.parse(readFileSync(join(logsRoot, 'answers.json'), 'utf8')).answers).toEqual({}); // used once
  });
});
