import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { MemoryRunCatalogue } from '@orchestra/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutoApproveInterviewer, RunSupervisor, type RunStore } from '../../src/index.js';
import { FIXTURES_DIR, fixturePath } from '../helpers.js';

/** Every file under `dir` with its size and modification time: what a write would change. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(`${relative(dir, path)} ${statSync(path).size} ${statSync(path).mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

const pipelines = readdirSync(FIXTURES_DIR).filter((name) => name.endsWith('.dot'));

describe('every fixture pipeline runs on the memory catalogue and writes no file', () => {
  let workdir: string;
  let before: { workdir: string[]; fixtures: string[]; cwd: string[] };
  const catalogue = new MemoryRunCatalogue('fixtures');
  const runs = new RunSupervisor({ catalogue, checkpointIntervalMs: 0 });
  const stores: RunStore[] = [];

  beforeAll(() => {
    workdir = mkdtempSync(join(tmpdir(), 'orchestra-readonly-'));
    chmodSync(workdir, 0o555); // read-only (for a user without root's override)
    before = { workdir: snapshot(workdir), fixtures: snapshot(FIXTURES_DIR), cwd: readdirSync(process.cwd()).sort() };
  });

  afterAll(() => {
    catalogue.dispose();
    chmodSync(workdir, 0o755);
    rmSync(workdir, { recursive: true, force: true });
  });

  it.each(pipelines)('%s', async (name) => {
    const run = await new RunSupervisor({ catalogue, checkpointIntervalMs: 0, workdir }).start(
      { source: readFileSync(fixturePath(name), 'utf8'), file: name, sourceFile: fixturePath(name), options: { simulate: true } },
      { questions: new AutoApproveInterviewer() },
    );
    const result = await run.done;
    expect(['success', 'fail']).toContain(result.status);
    expect(run.store.location.startsWith(`${catalogue.location}/`)).toBe(true);
    stores.push(run.store);
    expect(snapshot(workdir)).toEqual(before.workdir);
  }, 30_000);

  it('kept child runs (sub-pipelines, manager loops) in the parent run, in memory, and wrote nothing anywhere', async () => {
    const listed = await runs.list();
    expect(listed).toHaveLength(pipelines.length);
    const parent = (pipeline: string) => stores.find((s) => s.runId.endsWith(`-${pipeline}`)) as RunStore;
    const review = parent('Parent').child('review', 'run-1');
    expect(await review.exists()).toBe(true);
    expect((await review.readManifest()).pipeline).toBe('Review');
    const build = parent('Manager').child('supervise', 'child-1');
    expect((await build.readJournal()).entries.map((e) => e.node)).toEqual(['start', 'compile', 'test', 'exit']);
    expect(snapshot(workdir)).toEqual(before.workdir);
    expect(snapshot(FIXTURES_DIR)).toEqual(before.fixtures);
    expect(readdirSync(process.cwd()).sort()).toEqual(before.cwd);
  });
});
