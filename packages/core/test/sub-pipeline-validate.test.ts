import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPipelineFile } from '../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (name → DOT body between start and exit) into a new directory. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-subvalidate-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), `digraph G {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n}\n`);
  }
  return dir;
}

const sub = (id: string, file: string) => `  ${id} [type="pipeline", pipeline="${file}"]\n  start -> ${id} -> exit`;

describe('validating sub-pipelines (rule sub_pipeline)', () => {
  it('accepts a parent whose children are valid, and follows them down', async () => {
    const dir = project({ 'a.dot': sub('b', 'b.dot'), 'b.dot': sub('c', 'c.dot'), 'c.dot': '  start -> exit' });
    const loaded = await loadPipelineFile(join(dir, 'a.dot'));
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.ok).toBe(true);
  });

  it("reports a missing file, a node naming none, and a child's own errors with the child's file name", async () => {
    const dir = project({
      'a.dot': `  gone [type="pipeline", pipeline="nope.dot"]\n  blank [type="pipeline"]\n  bad [type="pipeline", pipeline="bad.dot"]\n  start -> gone -> blank -> bad -> exit`,
      'bad.dot': '  orphan [shape=parallelogram, tool_command="true"]\n  start -> exit\n  lost -> exit\n  start -> lost [condition="=x"]',
    });
    const loaded = await loadPipelineFile(join(dir, 'a.dot'));
    expect(loaded.ok).toBe(false);
    const own = loaded.diagnostics.filter((d) => d.rule === 'sub_pipeline');
    expect(own.map((d) => [d.nodeId, d.message, d.location?.line])).toEqual([
      ['gone', `node gone runs nope.dot (${join(dir, 'nope.dot')}), which does not exist`, 4],
      ['blank', 'node blank has type "pipeline" but no pipeline attribute naming the file to run', 5],
    ]);
    const child = loaded.diagnostics.filter((d) => d.location?.file === join(dir, 'bad.dot'));
    expect(child.length).toBeGreaterThan(0);
    expect(child.some((d) => d.severity === 'error')).toBe(true);
  });

  it('reports a chain of sub-pipelines that comes back to its own file', async () => {
    const dir = project({ 'a.dot': sub('b', 'b.dot'), 'b.dot': sub('back', 'a.dot') });
    const loaded = await loadPipelineFile(join(dir, 'a.dot'));
    expect(loaded.diagnostics.map((d) => [d.rule, d.nodeId, d.message, d.location?.file])).toEqual([
      ['sub_pipeline', 'back', `node back runs a.dot, which is already running above it: ${join(dir, 'a.dot')} -> ${join(dir, 'b.dot')} -> ${join(dir, 'a.dot')}`, join(dir, 'b.dot')],
    ]);
  });
});
