import { join } from 'node:path';
import { createDefaultRegistry, resumePipeline, runPipeline } from '@orchestra/core';
import { readCheckpoint } from '@orchestra/core/store';
import { reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { emptyConfig } from '../../src/config/index.js';
import { dot, graphOf, tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer();
});

afterEach(async () => {
  await server.close();
});

describe('stopping a run while a model streams its reply', () => {
  it('aborts the request at once, keeps the checkpoint, and resume asks again and finishes', async () => {
    const source = dot('  a [prompt="first"]\n  b [prompt="second"]\n  start -> a -> b -> exit');
    const backend = () => createModelBackend({ config: emptyConfig(tempDir()), env: { OPENAI_BASE_URL: server.url }, flags: { model: 'm' } });
    const controller = new AbortController();
    // `a` answers at once; `b` streams slowly, and the run is stopped during it.
    server.enqueue(reply('A done'));
    server.respondWith((request) => {
      if (request.lastUserText === 'second') setTimeout(() => controller.abort(), 50);
      return reply('B done slowly', { chunks: 5, chunkDelayMs: 2_000 });
    });
    const logsRoot = join(tempDir(), 'run');
    const started = performance.now();
    const stopped = await runPipeline(graphOf(source), { backend: backend(), logsRoot, signal: controller.signal });
    expect(stopped.status).toBe('interrupted');
    expect(performance.now() - started).toBeLessThan(5_000); // not the 10 s the slow reply would take (generous for a loaded machine)
    expect(readCheckpoint(logsRoot)).toMatchObject({ status: 'interrupted', next_node: 'b', completed_nodes: ['start', 'a'] });

    server.respondWith(() => reply('B done'));
    const resumed = await resumePipeline(logsRoot, { registry: createDefaultRegistry({ backend: backend() }), graph: graphOf(source) });
    expect(resumed.status).toBe('success');
    expect(server.completions.map((r) => r.lastUserText)).toEqual(['first', 'second', 'second']);
  });
});
