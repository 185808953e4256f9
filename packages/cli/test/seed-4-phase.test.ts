import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startScriptedOpenAIServer, toolCall, type RecordedRequest, type ScriptedOpenAIServer, type ScriptStep } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** fixtures/seed-4-phase.dot end to end through `orchestra run`, against the scripted server. */

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});
afterEach(async () => {
  await server.close();
});

const env = () => modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
const pipeline = join(ROOT, 'fixtures', 'seed-4-phase.dot');
const brainstorm = join(ROOT, 'fixtures', 'seed', 'brainstorm.json');

const ARTIFACTS: Record<string, unknown> = {
  submit_entity_curation: {
    decisions: [
      { entity_id: 'e_mara', decision: 'retain' },
      { entity_id: 'e_jonah', decision: 'retain' },
      { entity_id: 'e_vault', decision: 'retain' },
      { entity_id: 'e_ledger', decision: 'retain' },
      { entity_id: 'e_parrot', decision: 'cut', reason: 'tonal mismatch' },
    ],
  },
  submit_thread_design: {
    threads: [
      { thread_id: 't_heist', title: 'The last job', entities: ['e_mara', 'e_vault'] },
      { thread_id: 't_betrayal', title: 'Who sells whom', entities: ['e_jonah', 'e_ledger'] },
    ],
    tensions: [{ tension_id: 'x_trust', threads: ['t_heist', 't_betrayal'] }],
  },
  submit_initial_beats: {
    initial_beats: [
      { beat_id: 'b_1', summary: 'Mara times the tide.', threads: ['t_heist'], entities: ['e_mara', 'e_vault'], location: 'harbour' },
      { beat_id: 'b_2', summary: 'Jonah finds the ledger.', threads: ['t_betrayal', 't_heist'], entities: ['e_jonah', 'e_ledger'], location: 'vault' },
    ],
  },
  submit_convergence: {
    ending: 'The tide comes in early.',
    resolutions: [
      { thread_id: 't_heist', resolution: 'The vault floods with the crew inside.' },
      { thread_id: 't_betrayal', resolution: 'The ledger surfaces in the newspaper.' },
    ],
  },
};

/** Answers each phase by what the request offers: the ready tool (Discuss), nothing (Summarize), a submit tool (Serialize). */
function phases(firstBeats: unknown) {
  let beatsCalls = 0;
  return (request: RecordedRequest): ScriptStep => {
    const names = ((request.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    if (names.includes('ready_to_summarize')) return toolCall('ready_to_summarize', {});
    if (names.length === 0) return reply('Brief: as discussed.');
    const tool = names[0] as string;
    if (tool === 'submit_initial_beats' && beatsCalls++ === 0) return toolCall(tool, firstBeats as Record<string, unknown>);
    return toolCall(tool, ARTIFACTS[tool] as Record<string, unknown>);
  };
}

describe('orchestra run fixtures/seed-4-phase.dot', () => {
  it('runs the four phases and the merge; an invented thread id in the beats is sent back, and the seed holds only valid ids', async () => {
    const phantom = { initial_beats: [{ beat_id: 'b_1', summary: 'Revenge.', threads: ['t_revenge'], entities: ['e_mara'], location: 'harbour' }] };
    server.respondWith(phases(phantom));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'scripted-model', '--context-file', brainstorm, '--logs-dir', dir, '--quiet'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The beats prompt listed the thread ids the design produced, before the model chose any.
    const beatsDiscuss = server.completions.find((r) => r.lastUserText?.startsWith('Write the opening beats'));
    expect(beatsDiscuss?.lastUserText).toContain('Use only these thread ids:\nt_heist\nt_betrayal\n\nand only these entity ids:\ne_mara\ne_jonah\ne_vault\ne_ledger\ne_parrot');
    // The phantom was caught and sent back with the valid ids.
    const feedback = server.completions
      .map((r) => r.messages?.at(-1))
      .filter((m) => m?.role === 'tool')
      .map((m) => JSON.parse(m?.content as string));
    expect(feedback).toContainEqual(
      expect.objectContaining({
        issues: expect.objectContaining({
          invalid: [
            expect.objectContaining({ field: 'initial_beats[0].threads[0]', provided: 't_revenge', requirement: "one of 't_heist', 't_betrayal'" }),
            // and the count per thread: neither real thread has a beat yet
            expect.objectContaining({ field: 'initial_beats[]', problem: "threads[] 't_heist' has 0 items", requirement: '1 to 4 items per threads[]' }),
            expect.objectContaining({ field: 'initial_beats[]', problem: "threads[] 't_betrayal' has 0 items" }),
          ],
        }),
      }),
    );
    const seed = JSON.parse(readFileSync(join(dir, 'merge', 'seed.json'), 'utf8'));
    expect(seed.entities).toEqual(['e_mara', 'e_jonah', 'e_vault', 'e_ledger']);
    expect(seed.initial_beats.flatMap((b: { threads: string[] }) => b.threads)).toEqual(['t_heist', 't_betrayal', 't_heist']);
    for (const node of ['entity_curation', 'thread_design', 'initial_beats', 'convergence']) {
      expect(JSON.parse(readFileSync(join(dir, node, 'output.json'), 'utf8')), node).toEqual(ARTIFACTS[`submit_${node}`]);
    }
    const checkpoint = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.context['seed.output']).toEqual(seed);
  });

  it('fails loudly on an invented entity id in the beats (a fatal check): exit 1, no retry, no seed', async () => {
    const ghost = { initial_beats: [{ beat_id: 'b_1', summary: 'A ghost.', threads: ['t_heist'], entities: ['e_ghost'], location: 'harbour' }] };
    server.respondWith(phases(ghost));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'scripted-model', '--context-file', brainstorm, '--logs-dir', dir, '--quiet'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain("initial_beats: the output failed a fatal check (1 issue): initial_beats[0].entities[0]: 'e_ghost' is not among brainstorm.entities[].id");
    expect(server.completions.filter((r) => (r.tools as { function: { name: string } }[] | undefined)?.[0]?.function.name === 'submit_initial_beats')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')).completed_nodes).not.toContain('merge');
  });
});
