import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryRunCatalogue } from '@orchestra/testing';
import { describe, expect, it } from 'vitest';
import { FileRunCatalogue, RunSupervisor, runPipeline, loadPipeline, simulationBackend, type ChildRunOrigin, type RunEvent } from '../../src/index.js';
import { fixturePath } from '../helpers.js';

/** Who hears a run's child runs (RunOptions.onChildEvent), and a supervisor's observer of each run it drives (RunSupervisorOptions.observe). */

describe('child runs heard through onChildEvent', () => {
  it("a sub-pipeline's events reach onChildEvent, named by the child and the node that started it; never onEvent", async () => {
    const file = fixturePath('sub-pipeline.dot');
    const { graph, source } = loadPipeline(readFileSync(file, 'utf8'), { file });
    if (!graph) throw new Error('the fixture does not load');
    const own: RunEvent[] = [];
    const children: [RunEvent, ChildRunOrigin][] = [];
    const logsRoot = join(mkdtempSync(join(tmpdir(), 'observe-')), 'parent');
    const result = await runPipeline(graph, { backend: simulationBackend, source, sourceFile: file, logsRoot, onEvent: (e) => own.push(e), onChildEvent: (e, origin) => children.push([e, origin]) });
    expect(result.status).toBe('success');
    expect(children.length).toBeGreaterThan(3);
    const origins = new Set(children.map(([, o]) => JSON.stringify(o)));
    expect([...origins].map((o) => JSON.parse(o) as ChildRunOrigin)).toEqual([{ logsRoot: join(logsRoot, 'review', 'run-1'), parentLogsRoot: logsRoot, nodeId: 'review' }]);
    expect(children[0]?.[0]).toMatchObject({ type: 'pipeline.started', logsRoot: join(logsRoot, 'review', 'run-1') });
    expect(children.at(-1)?.[0].type).toBe('pipeline.completed');
    // The parent's own stream is unchanged: one pipeline.started, its own.
    expect(own.filter((e) => e.type === 'pipeline.started')).toEqual([expect.objectContaining({ logsRoot })]);
  });
});

describe('RunSupervisorOptions.observe', () => {
  it('is asked once for each run started or resumed, and its observer hears that run (and its child runs) alone', async () => {
    const catalogue = new MemoryRunCatalogue();
    const heard = new Map<string, string[]>();
    const runs = new RunSupervisor({
      catalogue,
      checkpointIntervalMs: 0,
      observe: ({ id }) => {
        const types: string[] = [];
        heard.set(id, types);
        return { onEvent: (e) => types.push(e.type) };
      },
    });
    const simple = readFileSync(fixturePath('simple.dot'), 'utf8');
    const [a, b] = await Promise.all([runs.start({ source: simple, options: { simulate: true } }), runs.start({ source: simple, options: { simulate: true } })]);
    await Promise.all([a.done, b.done]);
    expect([...heard.keys()].sort()).toEqual([a.id, b.id].sort());
    for (const types of heard.values()) {
      expect(types[0]).toBe('pipeline.started');
      expect(types.at(-1)).toBe('pipeline.completed');
      expect(types.filter((t) => t === 'pipeline.started')).toHaveLength(1);
    }
    catalogue.dispose();
  });

  it("hears a driven run's child runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observe-'));
    const children: string[] = [];
    const runs = new RunSupervisor({ catalogue: new FileRunCatalogue(dir), checkpointIntervalMs: 0, observe: () => ({ onChildEvent: (e, origin) => children.push(`${origin.nodeId}:${e.type}`) }) });
    const file = fixturePath('sub-pipeline.dot');
    const run = await runs.start({ source: readFileSync(file, 'utf8'), sourceFile: file, options: { simulate: true } });
    expect((await run.done).status).toBe('success');
    expect(children[0]).toBe('review:pipeline.started');
    expect(children.at(-1)).toBe('review:pipeline.completed');
  });
});
