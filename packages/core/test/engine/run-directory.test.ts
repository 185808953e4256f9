import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OrchestraError, runPipeline } from '../../src/index.js';
import {
  CheckpointSchema,
  JournalEntrySchema,
  ManifestSchema,
  ORCHESTRA_VERSION,
  RUN_FILES,
  StatusFileSchema,
  defaultLogsRoot,
  readCheckpoint,
  readJournal,
  readManifest,
} from '../../src/store.js';
import { checkpointAt, dot, graphFrom, journalAt, readJson, registryWith, run, scripted, statusAt, tempDir, useTempDirs } from './engine-helpers.js';

useTempDirs();

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const source = dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit', 'Build', 'goal="Make it so"');

describe('run directory (spec §5.6, docs/run-directory.md)', () => {
  it('has the documented file names', () => {
    expect(RUN_FILES).toEqual({
      manifest: 'manifest.json',
      checkpoint: 'checkpoint.json',
      journal: 'journal.jsonl',
      events: 'events.jsonl',
      interviews: 'interviews.jsonl',
      pendingQuestions: 'pending-questions.json',
      answers: 'answers.json',
      pipeline: 'pipeline.dot',
      status: 'status.json',
      lock: 'run.lock',
      processes: 'processes.json',
    });
  });

  it('writes manifest.json with the pipeline name, goal, source file, start node and version', async () => {
    const { logsRoot } = await run(source, { handlers: { s: scripted().handler }, source, sourceFile: 'pipelines/build.dot', initialContext: { who: 'me' } });
    const manifest = readJson(join(logsRoot, 'manifest.json'));
    expect(ManifestSchema.safeParse(manifest).success).toBe(true);
    expect(manifest).toMatchObject({
      format: 'orchestra.run/1',
      run_id: basename(logsRoot),
      pipeline: 'Build',
      goal: 'Make it so',
      source_file: 'pipelines/build.dot',
      orchestra_version: ORCHESTRA_VERSION,
      start_node: 'start',
      restarted_from: null,
      initial_context: { who: 'me' },
    });
    expect(manifest.started_at).toMatch(ISO);
    expect(readManifest(logsRoot)).toEqual(manifest);
  });

  it('copies the pipeline source to pipeline.dot when given, and only then', async () => {
    const withSource = await run(source, { handlers: { s: scripted().handler }, source });
    expect(readFileSync(join(withSource.logsRoot, 'pipeline.dot'), 'utf8')).toBe(source);
    expect(readJson(join(withSource.logsRoot, 'manifest.json')).source_file).toBeNull();
    const without = await run(source, { handlers: { s: scripted().handler } });
    expect(existsSync(join(without.logsRoot, 'pipeline.dot'))).toBe(false);
  });

  it('writes status.json per node in snake_case (Appendix C)', async () => {
    const s = scripted({
      a: { status: 'success', preferredLabel: 'Next', suggestedNextIds: ['b'], contextUpdates: { 'a.result': { ok: true } }, notes: 'a notes' },
      b: { status: 'partial_success', notes: 'b notes' },
    });
    const { logsRoot } = await run(source, { handlers: { s: s.handler } });
    const a = statusAt(logsRoot, 'a');
    expect(a).toEqual({
      outcome: 'success',
      preferred_label: 'Next',
      suggested_next_ids: ['b'],
      context_updates: { 'a.result': { ok: true } },
      notes: 'a notes',
    });
    expect(statusAt(logsRoot, 'b')).toEqual({ outcome: 'partial_success', preferred_label: '', suggested_next_ids: [], context_updates: {}, notes: 'b notes' });
    for (const node of ['start', 'a', 'b', 'exit']) {
      expect(StatusFileSchema.safeParse(statusAt(logsRoot, node)).success, node).toBe(true);
    }
    expect(readdirSync(logsRoot).sort()).toEqual(['a', 'b', 'checkpoint.json', 'events.jsonl', 'exit', 'journal.jsonl', 'manifest.json', 'start']);
  });

  it('records failure_reason in status.json only for failures', async () => {
    const s = scripted({ a: { status: 'fail', failureReason: 'it broke', notes: 'tried' } });
    const { logsRoot } = await run(source, { handlers: { s: s.handler } });
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'fail', failure_reason: 'it broke', notes: 'tried' });
    expect(statusAt(logsRoot, 'start')).not.toHaveProperty('failure_reason');
    expect(existsSync(join(logsRoot, 'b'))).toBe(false);
  });

  it('writes checkpoint.json with the spec fields and the final state', async () => {
    const s = scripted({ a: [{ status: 'fail' }, { status: 'success', contextUpdates: { x: 1 } }] });
    const { result, logsRoot } = await run(dot('  a [type="s", max_retries=1]\n  b [type="s"]\n  start -> a -> b -> exit'), { handlers: { s: s.handler } });
    const checkpoint = checkpointAt(logsRoot);
    expect(CheckpointSchema.safeParse(checkpoint).success).toBe(true);
    expect(checkpoint).toMatchObject({
      format: 'orchestra.checkpoint/1',
      status: 'completed',
      current_node: 'exit',
      next_node: null,
      completed_nodes: ['start', 'a', 'b', 'exit'],
      node_outcomes: { start: 'success', a: 'success', b: 'success', exit: 'success' },
      total_retries: 1,
      logs: [],
      journal_seq: 4,
      failure_reason: null,
      restarted_to: null,
    });
    // Only nodes whose latest visit retried: a node absent retried 0 times (a key per node would grow every checkpoint).
    expect(checkpoint.node_retries).toEqual({ a: 1 });
    expect(checkpoint.timestamp).toMatch(ISO);
    expect(checkpoint.context).toEqual(result.context);
    expect(readCheckpoint(logsRoot)).toEqual(checkpoint);
  });

  it('appends one journal line per completed node, with increasing seq and the next node', async () => {
    const s = scripted({ a: { status: 'success', contextUpdates: { k: 'v' } } });
    const { result, logsRoot } = await run(source, { handlers: { s: s.handler } });
    const text = readFileSync(join(logsRoot, 'journal.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const entries = journalAt(logsRoot);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(entries.map((e) => e.node)).toEqual(result.completedNodes);
    expect(entries.map((e) => e.next)).toEqual(['a', 'b', 'exit', null]);
    expect(entries.map((e) => e.end)).toEqual([undefined, undefined, undefined, 'completed']);
    expect(entries[1]?.context).toEqual({ current_node: 'a', outcome: 'success', k: 'v' });
    for (const e of entries) expect(JournalEntrySchema.safeParse(e).success).toBe(true);
    expect(readJournal(logsRoot)).toEqual({ entries, torn: false });
  });

  it('keeps checkpoint.json current after every node when the interval is 0', async () => {
    const seen: unknown[] = [];
    const s = scripted({
      a: { status: 'success', contextUpdates: { from_a: true } },
      b: ({ logsRoot }) => {
        const cp = checkpointAt(logsRoot);
        seen.push({ status: cp.status, current: cp.current_node, next: cp.next_node, completed: cp.completed_nodes, fromA: cp.context.from_a, lines: journalAt(logsRoot).length });
        return { status: 'success' };
      },
    });
    await run(source, { handlers: { s: s.handler }, checkpointIntervalMs: 0 });
    expect(seen).toEqual([{ status: 'running', current: 'a', next: 'b', completed: ['start', 'a'], fromA: true, lines: 2 }]);
  });

  it('journals every node at once even when checkpoint.json lags behind', async () => {
    const seen: unknown[] = [];
    const s = scripted({
      b: ({ logsRoot }) => {
        seen.push([checkpointAt(logsRoot).journal_seq, journalAt(logsRoot).map((e) => e.node)]);
        return { status: 'success' };
      },
    });
    await run(source, { handlers: { s: s.handler }, checkpointIntervalMs: 60_000 });
    expect(seen).toEqual([[0, ['start', 'a']]]);
  });

  it('refuses a directory that already holds a run (ORCH_RUN_EXISTS) and leaves it untouched', async () => {
    const first = await run(source, { handlers: { s: scripted().handler } });
    const before = Object.fromEntries(['manifest.json', 'checkpoint.json', 'journal.jsonl', 'events.jsonl'].map((f) => [f, readFileSync(join(first.logsRoot, f), 'utf8')]));
    const error = await runPipeline(graphFrom(source), { registry: registryWith({ s: scripted().handler }), logsRoot: first.logsRoot }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestraError);
    expect(error).toMatchObject({ code: 'ORCH_RUN_EXISTS' });
    for (const [file, text] of Object.entries(before)) expect(readFileSync(join(first.logsRoot, file), 'utf8'), file).toBe(text);

    // A lone checkpoint is enough to refuse; an existing empty directory is fine.
    const partial = join(tempDir(), 'run');
    mkdirSync(partial);
    writeFileSync(join(partial, 'checkpoint.json'), '{}');
    await expect(runPipeline(graphFrom(source), { registry: registryWith({ s: scripted().handler }), logsRoot: partial })).rejects.toMatchObject({ code: 'ORCH_RUN_EXISTS' });
    const empty = join(tempDir(), 'run');
    mkdirSync(empty);
    expect((await runPipeline(graphFrom(source), { registry: registryWith({ s: scripted().handler }), logsRoot: empty })).status).toBe('success');
  });

  it('defaults the run directory to <workdir>/.orchestra/runs/<timestamp>-<pipeline>', async () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    expect(defaultLogsRoot('My Pipeline!', '/base', now)).toBe(join('/base', '.orchestra', 'runs', '20260102-030405-678-My_Pipeline_'));
    // A graph name too long for a directory name is cut (it made run die with ENAMETOOLONG).
    expect(defaultLogsRoot('G'.repeat(300), '/base', now)).toBe(join('/base', '.orchestra', 'runs', `20260102-030405-678-${'G'.repeat(100)}`));
    const workdir = tempDir();
    const result = await runPipeline(graphFrom(source), { registry: registryWith({ s: scripted().handler }), workdir });
    expect(result.logsRoot.startsWith(join(workdir, '.orchestra', 'runs'))).toBe(true);
    expect(result.logsRoot).toMatch(/\d{8}-\d{6}-\d{3}-Build$/);
    expect(readCheckpoint(result.logsRoot).status).toBe('completed');
  });
});
