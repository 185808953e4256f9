import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../src/index.js';
import { readManifest } from '../../src/store.js';
import { dot, run, runInMemory, statusAt, tempDir, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** A handler for type `s` that writes `summary` from `topic`, and fails when `topic` is `bad`. */
const summarise: Handler = {
  execute({ context }) {
    const topic = context.getString('topic');
    if (topic === 'bad') return { status: 'fail', failureReason: 'nothing to say about bad' };
    return { status: 'success', contextUpdates: { summary: `about ${topic}`, secret: 'child only', saw_private: context.has('private') } };
  },
};

/** Writes the child pipeline and a parent that runs it as node `sub`; returns the parent's file. */
function pipelines(parentBody: string, childBody = '  work [type="s"]\n  start -> work -> exit'): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'child.dot'), dot(childBody, 'Child'));
  const parent = join(dir, 'parent.dot');
  writeFileSync(parent, dot(parentBody, 'Parent'));
  return parent;
}

async function runFile(parent: string) {
  const { readFileSync } = await import('node:fs');
  const source = readFileSync(parent, 'utf8');
  return run(source, { handlers: { s: summarise }, source, sourceFile: parent });
}

describe('sub-pipeline node (type="pipeline", spec §9.4)', () => {
  it('runs the child as one step: named keys go in and come back, the rest stays apart', async () => {
    const parent = pipelines(
      '  prep [type="s"]\n  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic", pipeline.outputs="summary, saw_private"]\n  start -> sub -> exit',
    );
    const { result, logsRoot } = await run(dot('  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic", pipeline.outputs="summary, saw_private"]\n  start -> sub -> exit', 'Parent'), {
      handlers: { s: summarise },
      sourceFile: parent,
      initialContext: { topic: 'otters', private: 'parent only' },
    });
    expect(result.status).toBe('success');
    expect(result.context.summary).toBe('about otters');
    expect(result.context.saw_private).toBe(false); // only the listed inputs reach the child
    expect(result.context).not.toHaveProperty('secret'); // only the listed outputs come back
    // The child's run directory nests in the node's stage, with the child's own file recorded.
    const childRun = join(logsRoot, 'sub', 'run-1');
    expect(readManifest(childRun)).toMatchObject({ pipeline: 'Child', source_file: join(parent, '..', 'child.dot') });
  });

  it("keeps the child run in the parent's store: on a memory store nothing of either is written to disk", async () => {
    const parent = pipelines('  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic", pipeline.outputs="summary"]\n  start -> sub -> exit');
    const before = readdirSync(join(parent, '..')).sort();
    const source = readFileSync(parent, 'utf8');
    const { result, store } = await runInMemory(source, { handlers: { s: summarise }, source, sourceFile: parent, initialContext: { topic: 'otters' } });
    expect(result).toMatchObject({ status: 'success', context: { summary: 'about otters' } });
    const child = store.child('sub', 'run-1');
    expect(child.location).toBe(`${store.location}/sub/run-1`);
    expect(child.readManifest()).toMatchObject({ pipeline: 'Child' });
    expect(child.readJournal().entries.map((e) => e.node)).toEqual(['start', 'work', 'exit']);
    expect(readdirSync(join(parent, '..')).sort()).toEqual(before);
  });

  it("takes the child's failure as the node's, so the parent's failure edges route it", async () => {
    const parent = pipelines('  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic"]\n  fix [type="s"]\n  start -> sub -> exit\n  sub -> fix [condition="outcome=fail"]\n  fix -> exit');
    const { result, logsRoot } = await run(dot('  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic"]\n  fix [shape=diamond]\n  start -> sub\n  sub -> exit [condition="outcome=success"]\n  sub -> fix [condition="outcome=fail"]\n  fix -> exit', 'Parent'), {
      handlers: { s: summarise },
      sourceFile: parent,
      initialContext: { topic: 'bad' },
    });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'sub', 'fix', 'exit']);
    expect(statusAt(logsRoot, 'sub')).toMatchObject({ outcome: 'fail', failure_reason: expect.stringMatching(/^sub-pipeline .*child\.dot failed: work failed: nothing to say about bad/) });
  });

  it('fails the node, with the reason, for a missing file, an invalid child, or a child that would run its parent', async () => {
    const missing = pipelines('  sub [type="pipeline", pipeline="nope.dot"]\n  start -> sub -> exit');
    const gone = await runFile(missing);
    expect(gone.result.status).toBe('fail');
    expect(gone.result.failureReason).toContain(`cannot read the sub-pipeline ${join(missing, '..', 'nope.dot')}: no such file`);

    const invalid = pipelines('  sub [type="pipeline", pipeline="child.dot"]\n  start -> sub -> exit', '  work [type="s"]\n  work -> exit');
    const bad = await runFile(invalid);
    expect(bad.result.failureReason).toMatch(/sub-pipeline .*child\.dot is invalid: .*child\.dot:\d+:\d+: /);

    // child.dot runs parent.dot again: refused before it starts a second time.
    const cyclic = pipelines('  sub [type="pipeline", pipeline="child.dot"]\n  start -> sub -> exit', '  back [type="pipeline", pipeline="parent.dot"]\n  start -> back -> exit');
    const loop = await runFile(cyclic);
    expect(loop.result.status).toBe('fail');
    expect(loop.result.failureReason).toContain('would run itself');
    expect(existsSync(join(loop.logsRoot, 'sub', 'run-1', 'back', 'run-1'))).toBe(false);
  });

  it('refuses, before the run starts, a pipeline node that names no file', async () => {
    await expect(run(dot('  sub [type="pipeline"]\n  start -> sub -> exit'))).rejects.toThrow('node sub has type "pipeline" but no pipeline attribute naming the file to run');
  });

  it('runs the child again on each visit inside a parallel branch, and on each visit of the fan-out (run-<fan-out visit>.<visit>)', async () => {
    const tick: Handler = { execute: ({ context }) => ({ status: 'success', contextUpdates: { ticks: ((context.get('ticks') as number | undefined) ?? 0) + 1 } }) };
    const runParent = async (body: string[]) => {
      const parent = pipelines(body.join('\n'));
      const source = readFileSync(parent, 'utf8');
      const { result, logsRoot } = await run(source, { handlers: { s: summarise, tick }, source, sourceFile: parent, initialContext: { topic: 'otters' } });
      expect(result.status).toBe('success');
      return readdirSync(join(logsRoot, 'sub')).filter((name) => name.startsWith('run-')).sort();
    };
    const nodes = ['  fan [shape=component]', '  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic"]', '  tick [type="tick"]', '  merge [shape=tripleoctagon]'];
    // A loop inside the branch: sub runs twice in the branch of the fan-out's first visit.
    const inBranch = await runParent([...nodes, '  start -> fan -> sub -> tick', '  tick -> sub [condition="context.ticks=1"]', '  tick -> merge [condition="context.ticks=2"]', '  merge -> exit']);
    expect(inBranch).toEqual(['run-1.1', 'run-1.2']);
    // A loop around the fan-out: each of its visits starts a new child.
    const around = await runParent([...nodes, '  start -> fan -> sub -> merge -> tick', '  tick -> fan [condition="context.ticks=1"]', '  tick -> exit [condition="context.ticks=2"]']);
    expect(around).toEqual(['run-1.1', 'run-2.1']);
  });
});
