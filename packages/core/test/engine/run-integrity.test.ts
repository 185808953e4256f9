import { appendFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRunStore, OrchestraError, resumePipeline, runPipeline, type Clock, type Graph } from '../../src/index.js';
import { systemClock } from '../../src/handlers.js';
import { dot, graphFrom, newLogsRoot, registryWith, run, scripted, useTempDirs } from './engine-helpers.js';

useTempDirs();

const CHAIN = dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit');

/** A clock whose timers fire at once (and records what was asked): back-off and timeouts without waiting. */
function instantClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => 0,
    setTimeout: (fn, ms) => {
      waits.push(ms);
      return systemClock.setTimeout(fn, 0);
    },
    clearTimeout: (handle) => systemClock.clearTimeout(handle),
  };
}

describe('the engine guards its store', () => {
  it('refuses a graph built in code whose node id would leave the run directory', async () => {
    const graph = graphFrom(CHAIN);
    const evil: Graph = { ...graph, nodes: new Map([...graph.nodes].map(([id, node]) => (id === 'a' ? ['../../x', { ...node, id: '../../x' }] : [id, node]))) };
    const logsRoot = newLogsRoot();
    const error = await runPipeline(evil, { registry: registryWith({ s: scripted().handler }), logsRoot }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestraError);
    expect(error).toMatchObject({ code: 'ORCH_BAD_NODE_ID' });
    expect(() => new FileRunStore(logsRoot).stage('../x')).toThrow(/not a stage file name/);
  });

  it('resumes a run killed between its manifest and its first checkpoint from the start node', async () => {
    const { logsRoot, result } = await run(CHAIN, { handlers: { s: scripted().handler }, source: CHAIN, initialContext: { seeded: 'yes' } });
    expect(result.status).toBe('success');
    for (const f of ['checkpoint.json', 'journal.jsonl', 'events.jsonl']) rmSync(join(logsRoot, f));
    const resumed = await resumePipeline(logsRoot, { registry: registryWith({ s: scripted().handler }) });
    expect(resumed).toMatchObject({ status: 'success', completedNodes: ['start', 'a', 'b', 'exit'] });
    expect(resumed.context).toMatchObject({ 'graph.goal': '', seeded: 'yes' });
  });

  it('a run directory whose creation was killed before its manifest can be used again', async () => {
    const logsRoot = newLogsRoot();
    mkdirSync(logsRoot);
    writeFileSync(join(logsRoot, 'pipeline.dot.4242.new'), 'half');
    writeFileSync(join(logsRoot, 'pipeline.dot.4242.new.4242.tmp'), 'ha');
    writeFileSync(join(logsRoot, 'manifest.json.4242.new'), '{"form');
    const { result } = await run(CHAIN, { handlers: { s: scripted().handler }, source: CHAIN, logsRoot });
    expect(result.status).toBe('success');
    expect(readFileSync(join(logsRoot, 'pipeline.dot'), 'utf8')).toBe(CHAIN);
  });

  it('a --logs-dir holding only somebody\'s pipeline.dot is not a run: refused, and the file is kept', async () => {
    const logsRoot = newLogsRoot();
    mkdirSync(logsRoot);
    writeFileSync(join(logsRoot, 'pipeline.dot'), 'digraph Mine { start -> exit }\n');
    const error = await run(CHAIN, { handlers: { s: scripted().handler }, source: CHAIN, logsRoot }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestraError);
    expect(error).toMatchObject({ code: 'ORCH_RUN_EXISTS', message: expect.stringContaining('is not empty and holds no run') });
    expect(readdirSync(logsRoot)).toEqual(['pipeline.dot']);
    expect(readFileSync(join(logsRoot, 'pipeline.dot'), 'utf8')).toBe('digraph Mine { start -> exit }\n');
    // Nor is it taken for a run by resume.
    await expect(resumePipeline(logsRoot, { registry: registryWith({ s: scripted().handler }) })).rejects.toThrow(/not an orchestra run directory/);
  });

  it('a run killed between its manifest and naming its pipeline copy resumes from the copy', async () => {
    const { logsRoot, result } = await run(CHAIN, { handlers: { s: scripted().handler }, source: CHAIN });
    expect(result.status).toBe('success');
    for (const f of ['checkpoint.json', 'journal.jsonl', 'events.jsonl']) rmSync(join(logsRoot, f));
    renameSync(join(logsRoot, 'pipeline.dot'), join(logsRoot, 'pipeline.dot.4242.new'));
    const resumed = await resumePipeline(logsRoot, { registry: registryWith({ s: scripted().handler }) });
    expect(resumed).toMatchObject({ status: 'success', completedNodes: ['start', 'a', 'b', 'exit'] });
  });

  it('trims a torn last line of events.jsonl before appending, like the journal', async () => {
    const controller = new AbortController();
    const stopAfterA = scripted({ a: () => (controller.abort(), { status: 'success' }) });
    const { logsRoot, result } = await run(CHAIN, { handlers: { s: stopAfterA.handler }, source: CHAIN, signal: controller.signal });
    expect(result.status).toBe('interrupted');
    appendFileSync(join(logsRoot, 'events.jsonl'), '{"type":"stage.sta'); // a crash cut this line short
    const resumed = await resumePipeline(logsRoot, { registry: registryWith({ s: scripted().handler }) });
    expect(resumed.status).toBe('success');
    const lines = readFileSync(join(logsRoot, 'events.jsonl'), 'utf8').trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.some((l) => l.includes('"resumed":true'))).toBe(true);
  });

  it('waits out retry back-off and node timeouts on the injected clock', async () => {
    const flaky = scripted({ a: [{ status: 'retry' }, { status: 'retry' }, { status: 'success' }] });
    const source = dot('  a [type="s", max_retries=3]\n  start -> a -> exit', 'P', 'default_max_retry=0');
    const clock = instantClock();
    const started = performance.now();
    const { result } = await run(source, { handlers: { s: flaky.handler }, clock });
    expect(result.status).toBe('success');
    expect(clock.waits.slice(0, 2)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(Math.min(...clock.waits.slice(0, 2))).toBeGreaterThanOrEqual(50); // real back-off asked for, not waited
    const asked = (clock.waits[0] ?? 0) + (clock.waits[1] ?? 0);
    expect(performance.now() - started).toBeLessThan(asked);

    const never = { execute: () => new Promise<undefined>(() => {}) };
    const timed = dot('  a [type="s", timeout="1h"]\n  start -> a -> exit');
    const timeout = await run(timed, { handlers: { s: never }, clock: instantClock() });
    expect(timeout.result).toMatchObject({ status: 'fail', failureReason: expect.stringContaining('timed out after 1h') });
  });
});
