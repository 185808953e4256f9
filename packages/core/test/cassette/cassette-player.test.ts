import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CassettePlayer, CassetteRecorder, isOrchestraError, readCassette } from '../../src/index.js';

const SOURCE = 'digraph P { start [shape=Mdiamond] exit [shape=Msquare] start -> exit }';

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'cassette-'));
}

async function recorded(entries: [kind: 'model' | 'answer' | 'tool' | 'tool_call', stage: string, request: unknown, response: unknown][], options: { secrets?: string[] } = {}): Promise<string> {
  const file = join(dir(), 'p.cassette');
  const recorder = await CassetteRecorder.create(file, { pipeline: 'P', source: SOURCE, flags: { model: 'm' }, ...options });
  for (const [kind, stage, request, response] of entries) recorder.record(kind, stage, request, response);
  await recorder.flush();
  return file;
}

async function failure(work: () => unknown): Promise<Error & { code?: string }> {
  try {
    await work();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a failure');
}

describe('cassette files', () => {
  it('numbers exchanges per stage and kind, in the order they complete, after a header naming the pipeline', async () => {
    const file = await recorded([
      ['model', 'a', { q: 1 }, { r: 1 }],
      ['model', 'b', { q: 2 }, { r: 2 }],
      ['model', 'a', { q: 3 }, { r: 3 }],
      ['answer', 'a', { text: 'ok?' }, { answer: { value: 'YES' } }],
    ]);
    const contents = await readCassette(file);
    expect(contents.header).toMatchObject({ cassette: 'orchestra', version: 1, pipeline: 'P', flags: { model: 'm' } });
    expect(contents.header.pipeline_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(contents.entries.map((e) => `${e.type}:${e.stage}:${e.n}@${e.line}`)).toEqual(['model:a:1@2', 'model:b:1@3', 'model:a:2@4', 'answer:a:1@5']);
  });

  it('never writes a secret or a credential header', async () => {
    const key = 'sk-live-abcdefghijklmnop';
    const file = await recorded([['model', 'a', { messages: [`my key is ${key}`], headers: { Authorization: `Bearer ${key}`, 'x-api-key': key, accept: 'json' } }, { text: `echo ${key}` }]], { secrets: [key, 'ab'] });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/authorization|x-api-key/i);
    const [entry] = (await readCassette(file)).entries;
    expect(entry?.request).toEqual({ messages: ['my key is [redacted]'], headers: { accept: 'json' } });
    // A value too short to be a key is left alone: it would blank ordinary text.
    expect(entry?.response).toEqual({ text: 'echo [redacted]' });
  });

  it('replaces an earlier cassette, never another file', async () => {
    const file = await recorded([['model', 'a', {}, {}]]);
    const again = await CassetteRecorder.create(file, { pipeline: 'P', source: SOURCE });
    await again.flush();
    expect((await readCassette(file)).entries).toEqual([]);
    const pipeline = join(dir(), 'p.dot');
    writeFileSync(pipeline, SOURCE);
    const error = await failure(() => CassetteRecorder.create(pipeline, { pipeline: 'P', source: SOURCE }));
    expect(error.code).toBe('ORCH_PATH');
    expect(error.message).toBe(`${pipeline} exists and is not a cassette; --record writes a new file or replaces a cassette: choose another name`);
    expect(readFileSync(pipeline, 'utf8')).toBe(SOURCE);
    const folder = dir();
    expect((await failure(() => CassetteRecorder.create(folder, { pipeline: 'P', source: SOURCE }))).message).toMatch(/is a directory; /);
  });

  it('names the line of a damaged cassette', async () => {
    const file = await recorded([['model', 'a', {}, {}], ['model', 'a', {}, {}]]);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0], lines[1], '{"type":"model","stage":"a","n":2,"request":{}', lines[2]].join('\n'));
    const notJson = await failure(() => readCassette(file));
    expect(notJson.code).toBe('ORCH_CASSETTE_DAMAGED');
    expect(notJson.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: the cassette is damaged: the line is not JSON`));

    writeFileSync(file, [lines[0], lines[1], '{"type":"telegram","stage":"a","n":1,"request":{},"response":{}}'].join('\n'));
    const badKind = await failure(() => readCassette(file));
    expect(badKind.message).toMatch(/p\.cassette:3: the cassette is damaged: type: /);

    writeFileSync(file, `${lines[1]}\n`);
    expect((await failure(() => readCassette(file))).message).toMatch(/p\.cassette:1: not an orchestra cassette \(the first line must be its header/);
    writeFileSync(file, '');
    expect((await failure(() => readCassette(file))).message).toMatch(/p\.cassette:1: the cassette is empty/);
    expect((await failure(() => readCassette(join(dir(), 'missing.cassette')))).message).toMatch(/^cannot read the cassette .*missing\.cassette: no such file$/);
  });
});

describe('CassettePlayer', () => {
  it('refuses a cassette recorded from another pipeline', async () => {
    const file = await recorded([]);
    const error = await failure(() => CassettePlayer.open(file, { source: `${SOURCE}\n` }));
    expect(isOrchestraError(error, 'ORCH_CASSETTE_FOREIGN')).toBe(true);
    expect(error.message).toMatch(/was recorded from another pipeline \(P, sha256 [0-9a-f]{12}…; this one is [0-9a-f]{12}…\): record it again with orchestra run --record$/);
  });

  it('gives each request the reply recorded for it, whatever order concurrent requests arrive in', async () => {
    const file = await recorded([
      ['model', 'review', { role: 'critic' }, { says: 'critic' }],
      ['model', 'review', { role: 'editor' }, { says: 'editor' }],
    ]);
    const player = await CassettePlayer.open(file, { source: SOURCE });
    expect(player.take('model', 'review', { role: 'editor' })).toEqual({ says: 'editor' });
    expect(player.take('model', 'review', { role: 'critic' })).toEqual({ says: 'critic' });
    expect(player.unused()).toEqual([]);
    expect(() => player.finish()).not.toThrow();
  });

  it('strict: stops at the first request it does not hold, naming the stage, the number and the first difference', async () => {
    const file = await recorded([['model', 'draft', { messages: [{ role: 'human', content: 'Summarise the notes for the release' }] }, { chunks: [] }]]);
    const player = await CassettePlayer.open(file, { source: SOURCE });
    const heard: string[] = [];
    player.onMismatch((error) => heard.push(error.code));
    const error = await failure(() => player.take('model', 'draft', { messages: [{ role: 'human', content: 'Summarize the notes for the release' }] }));
    expect(error.code).toBe('ORCH_CASSETTE_MISMATCH');
    expect(error.message).toBe(`stage draft, model request 1: messages[0].content differs: cassette "Summarise the notes for the release", now "Summarize the notes for the release" (${file}:2)`);
    expect(heard).toEqual(['ORCH_CASSETTE_MISMATCH']);
    expect(player.mismatch?.message).toBe(error.message);
    expect((error as { retryable?: boolean }).retryable).toBe(false);
  });

  it('says when a stage asks more than the cassette holds, or a stage it never recorded asks', async () => {
    const file = await recorded([['tool', 'build', { command: 'make' }, { outcome: { status: 'success' } }]]);
    const player = await CassettePlayer.open(file, { source: SOURCE });
    player.take('tool', 'build', { command: 'make' });
    expect((await failure(() => player.take('tool', 'build', { command: 'make' }))).message).toBe('stage build, tool run 2: the cassette holds only 1 tool run for this stage');
    expect((await failure(() => player.take('answer', 'gate', { text: 'Ship?' }))).message).toBe('stage gate, question 1: the cassette holds no questions for this stage');
  });

  it('shows a long text around where it starts to differ, with control characters escaped', async () => {
    const long = `${'a'.repeat(200)}\u001b[31m`;
    const file = await recorded([['model', 's', { p: `${long}X` }, {}]]);
    const player = await CassettePlayer.open(file, { source: SOURCE });
    const error = await failure(() => player.take('model', 's', { p: `${long}Y` }));
    expect(error.message).toMatch(/^stage s, model request 1: p differs: cassette …"a+\\u001b\[31mX", now …"a+\\u001b\[31mY" \(/);
    expect(error.message).not.toContain('\u001b');
  });

  it('lenient: answers with the stage next recorded reply and warns; ends with a warning for what was left', async () => {
    const file = await recorded([
      ['model', 'draft', { p: 'one' }, { r: 1 }],
      ['model', 'draft', { p: 'two' }, { r: 2 }],
    ]);
    const warnings: string[] = [];
    const player = await CassettePlayer.open(file, { source: SOURCE, mode: 'lenient', onWarning: (w) => warnings.push(w) });
    expect(player.take('model', 'draft', { p: 'uno' })).toEqual({ r: 1 });
    expect(warnings).toEqual([`stage draft, model request 1: p differs: cassette "one", now "uno" (${file}:2); answered with the recorded reply`]);
    player.finish();
    expect(warnings[1]).toBe(`the run ended with 1 recorded exchange unused, the first: stage draft, model request 2 (${file}:3)`);
    expect(player.mismatch).toBeUndefined();
  });

  it('strict: a run that ends leaving recorded exchanges unused fails', async () => {
    const file = await recorded([['answer', 'gate', { text: 'Ship?' }, { answer: { value: 'YES' } }]]);
    const player = await CassettePlayer.open(file, { source: SOURCE });
    const error = await failure(() => player.finish());
    expect(error.code).toBe('ORCH_CASSETTE_UNUSED');
    expect(error.message).toBe(`the run ended with 1 recorded exchange unused, the first: stage gate, question 1 (${file}:2)`);
  });
});
