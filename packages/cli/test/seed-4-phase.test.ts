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

const STORY_DIRECTION = 'A heist that turns into a reckoning: the crew learns the bank robbed them first, and the tide decides who gets out.';

const CURATION = {
  story_direction: STORY_DIRECTION,
  retained: { characters: ['e_mara', 'e_jonah'], locations: ['e_vault', 'e_harbour'], objects: ['e_ledger'] },
  cut: [{ entity_id: 'e_parrot', reason: 'tonal mismatch' }],
};
const DESIGN = {
  threads: [
    { thread_id: 't_heist', title: 'The last job', entities: ['e_mara', 'e_vault'] },
    { thread_id: 't_betrayal', title: 'Who sells whom', entities: ['e_jonah', 'e_ledger'] },
  ],
  tensions: [{ tension_id: 'x_trust', threads: ['t_heist', 't_betrayal'] }],
  consequences: [
    { thread_id: 't_heist', consequence: 'Whoever opens the vault owes the sea.' },
    { thread_id: 't_betrayal', consequence: 'Mara can trust nobody on the boat.' },
  ],
  beat_hooks: [
    { thread_id: 't_heist', hook: 'timing the tide' },
    { thread_id: 't_heist', hook: 'the door that floods' },
    { thread_id: 't_betrayal', hook: 'a second buyer for the ledger' },
    { thread_id: 't_betrayal', hook: 'a knot that was tied wrong' },
  ],
};
const BEATS = {
  initial_beats: [
    { beat_id: 'b_1', summary: 'Mara times the tide from the quay.', threads: ['t_heist'], entities: ['e_mara'], location: 'e_harbour' },
    { beat_id: 'b_2', summary: 'The vault door sweats salt.', threads: ['t_heist'], entities: ['e_mara', 'e_vault'], location: 'e_vault' },
    { beat_id: 'b_3', summary: 'Jonah meets a second buyer.', threads: ['t_betrayal'], entities: ['e_jonah'], location: 'e_harbour' },
    { beat_id: 'b_4', summary: 'Jonah finds the ledger.', threads: ['t_betrayal', 't_heist'], entities: ['e_jonah', 'e_ledger'], location: 'e_vault' },
  ],
};
const CONVERGENCE = {
  ending: 'The tide comes in early.',
  resolutions: [
    { thread_id: 't_heist', resolution: 'The vault floods with the crew inside.' },
    { thread_id: 't_betrayal', resolution: 'The ledger surfaces in the newspaper.' },
  ],
};
const SECTIONS = ['threads', 'tensions', 'consequences', 'beat_hooks'] as const;

/** What each finalization tool is answered with once its scripted first answers are used up. */
const ANSWERS: Record<string, unknown> = {
  submit_entity_curation: CURATION,
  ...Object.fromEntries(SECTIONS.map((s) => [`submit_thread_design_${s}`, { [s]: DESIGN[s] }])),
  submit_initial_beats: BEATS,
  submit_convergence: CONVERGENCE,
};

const toolsOf = (request: RecordedRequest) => ((request.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

/**
 * Answers each phase by what the request offers: the ready tool (Discuss), nothing (Summarize),
 * a submit tool (Serialize: `first` answers for a tool are used before its usual one).
 */
function phases(first: Record<string, unknown[]> = {}) {
  const queued = Object.fromEntries(Object.entries(first).map(([tool, answers]) => [tool, [...answers]]));
  return (request: RecordedRequest): ScriptStep => {
    const names = toolsOf(request);
    if (names.includes('ready_to_summarize')) return toolCall('ready_to_summarize', {});
    if (names.length === 0) return reply('Brief: as discussed.');
    const tool = names[0] as string;
    const next = queued[tool]?.shift() ?? ANSWERS[tool];
    if (next === undefined) throw new Error(`nothing scripted for ${tool}`);
    return toolCall(tool, next as Record<string, unknown>);
  };
}

const run = async (dir: string) => cliWith(['run', pipeline, '--model', 'scripted-model', '--context-file', brainstorm, '--logs-dir', dir, '--quiet'], { env: env() });
const discussOf = (start: string) => server.completions.find((r) => toolsOf(r).includes('ready_to_summarize') && r.lastUserText?.includes(start))?.lastUserText ?? '';
const callsOf = (tool: string) => server.completions.filter((r) => toolsOf(r)[0] === tool);
const feedbackSent = () =>
  server.completions
    .map((r) => r.messages?.at(-1))
    .filter((m) => m?.role === 'tool')
    .map((m) => JSON.parse(m?.content as string) as { result: string });

describe('orchestra run fixtures/seed-4-phase.dot', () => {
  it('hands each phase what the seed names: the story direction, the retained entities only, thread ids, locations, consequences, beat hooks, and the beats to Phase 4', async () => {
    server.respondWith(phases());
    const dir = join(tempDir(), 'run');
    const result = await run(dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const design = discussOf('Design two or three story threads');
    expect(design).toContain(STORY_DIRECTION);
    expect(design).toContain('Retained characters:\ne_mara\ne_jonah\n');
    expect(design).not.toContain('e_parrot');

    const beats = discussOf('Write the opening beats');
    expect(beats).toContain(STORY_DIRECTION);
    expect(beats).toContain('Use only these thread ids:\nt_heist\nt_betrayal\n');
    expect(beats).toContain('only these entity ids (the retained ones):\ne_mara\ne_jonah\ne_vault\ne_harbour\ne_ledger\n');
    expect(beats).toContain('and for each beat\'s location only one of these location ids:\ne_vault\ne_harbour\n');
    expect(beats).toContain('"hook":"timing the tide"');
    expect(beats).not.toContain('e_parrot');

    const convergence = discussOf('Say how the story ends');
    expect(convergence).toContain(STORY_DIRECTION);
    expect(convergence).toContain('Jonah finds the ledger.');

    const seed = JSON.parse(readFileSync(join(dir, 'merge', 'seed.json'), 'utf8'));
    expect(seed).toMatchObject({ story_direction: STORY_DIRECTION, entities: ['e_mara', 'e_jonah', 'e_vault', 'e_harbour', 'e_ledger'], consequences: DESIGN.consequences, beat_hooks: DESIGN.beat_hooks });
    expect(JSON.parse(readFileSync(join(dir, 'entity_curation', 'output.json'), 'utf8'))).toEqual(CURATION);
    expect(JSON.parse(readFileSync(join(dir, 'thread_design', 'output.json'), 'utf8'))).toEqual(DESIGN);
    expect(JSON.parse(readFileSync(join(dir, 'initial_beats', 'output.json'), 'utf8'))).toEqual(BEATS);
    const checkpoint = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.context['seed.output']).toEqual(seed);
  });

  it('sends beats back for fewer than two per thread and for a thread told in one location only', async () => {
    const thin = {
      initial_beats: [
        { beat_id: 'b_1', summary: 'Mara times the tide.', threads: ['t_heist'], entities: ['e_mara'], location: 'e_harbour' },
        { beat_id: 'b_2', summary: 'Jonah meets a buyer.', threads: ['t_betrayal'], entities: ['e_jonah'], location: 'e_harbour' },
      ],
    };
    server.respondWith(phases({ submit_initial_beats: [thin] }));
    const result = await run(join(tempDir(), 'run'));
    expect(result.code).toBe(0);
    expect(callsOf('submit_initial_beats')).toHaveLength(2);
    expect(feedbackSent()).toContainEqual(
      expect.objectContaining({
        issues: expect.objectContaining({
          invalid: expect.arrayContaining([
            expect.objectContaining({ field: 'initial_beats[]', problem: "threads[] 't_heist' has 1 item", requirement: '2 to 4 items per threads[]' }),
            expect.objectContaining({ field: 'initial_beats[]', problem: "threads[] 't_betrayal' has 1 distinct location value", requirement: 'at least 2 distinct location values per threads[]' }),
          ]),
        }),
      }),
    );
  });

  it.each([
    ['a cut entity', { entities: ['e_parrot'] }, "initial_beats[0].entities[0]: 'e_parrot' is not among entity_curation.output.retained.characters[]"],
    ['an invented thread id', { threads: ['t_revenge'] }, "initial_beats[0].threads[0]: 't_revenge' is not among thread_design.output.threads[].thread_id"],
    ['a location that is no retained location', { location: 'e_mara' }, "initial_beats[0].location: 'e_mara' is not among entity_curation.output.retained.locations[]"],
  ])('fails the beats phase at once (zero tolerance, fatal) on %s: one call, no merge', async (_what, change, message) => {
    const bad = { initial_beats: [{ ...BEATS.initial_beats[0], ...change }, ...BEATS.initial_beats.slice(1)] };
    server.respondWith(phases({ submit_initial_beats: [bad] }));
    const dir = join(tempDir(), 'run');
    const result = await run(dir);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(`initial_beats: the output failed a fatal check (1 issue): ${message}`);
    expect(callsOf('submit_initial_beats')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')).completed_nodes).not.toContain('merge');
  });

  it('serializes the thread design section by section; a cut entity in the threads sends back the threads section alone', async () => {
    const withParrot = { threads: [DESIGN.threads[0], { ...DESIGN.threads[1], entities: ['e_jonah', 'e_parrot'] }] };
    server.respondWith(phases({ submit_thread_design_threads: [withParrot] }));
    const dir = join(tempDir(), 'run');
    const result = await run(dir);
    expect(result.code).toBe(0);
    // One call per section, and one more for the section at fault: never the whole artifact.
    expect(callsOf('submit_thread_design')).toHaveLength(0);
    expect(SECTIONS.map((s) => callsOf(`submit_thread_design_${s}`).length)).toEqual([2, 1, 1, 1]);
    // Each call sees the sections before it as fixed context.
    const consequences = callsOf('submit_thread_design_consequences')[0]?.lastUserText ?? '';
    expect(consequences).toContain('"tension_id": "x_trust"');
    expect(consequences).not.toContain('"beat_hooks"');
    // The repair: the other three sections fixed, the threads section and its findings, and nothing about the others.
    const repair = callsOf('submit_thread_design_threads')[1];
    expect(repair?.lastUserText).toContain('"hook": "timing the tide"');
    const sent = JSON.parse(repair?.messages?.at(-1)?.content as string);
    expect(sent).toMatchObject({
      result: 'validation_failed',
      issues: { invalid: [{ field: 'threads[1].entities[1]', provided: 'e_parrot' }], missing: [], unknown: [] },
      issue_count: 1,
      action: 'Call submit_thread_design_threads() with corrected data.',
    });
    expect(JSON.parse(readFileSync(join(dir, 'thread_design', 'output.json'), 'utf8'))).toEqual(DESIGN);
  });
});
