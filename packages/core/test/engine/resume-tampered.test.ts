import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointError, resumePipeline, type Handler, type HandlerInput, type Outcome } from '../../src/index.js';
import { readRunReport } from '../../src/store.js';
import { checkpointAt, dot, newLogsRoot, registryWith, run, tempDir, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** start -> a -> b -> c -> exit, every node a scripted stage. */
const SOURCE = dot(['  a [type="s"]', '  b [type="s"]', '  c [type="s"]', '  start -> a -> b -> c -> exit'].join('\n'), 'Chain', 'goal="Stay as recorded"');

const succeed: Handler = { execute: ({ node }: HandlerInput): Outcome => ({ status: 'success', contextUpdates: { [`${node.id}.done`]: true } }) };

/** A run of SOURCE interrupted when `b` starts (so a and start are done, b is next). */
async function interruptedAtB(): Promise<string> {
  const controller = new AbortController();
  let fired = false;
  const stopping: Handler = {
    execute(input) {
      if (input.node.id === 'b' && !fired) {
        fired = true;
        controller.abort();
        return untilAborted(input.signal);
      }
      return succeed.execute(input);
    },
  };
  const { result, logsRoot } = await run(SOURCE, { handlers: { s: stopping }, signal: controller.signal, source: SOURCE });
  expect(result.status).toBe('interrupted');
  expect(checkpointAt(logsRoot)).toMatchObject({ status: 'interrupted', journal_seq: 2, next_node: 'b' });
  return logsRoot;
}

/** Every file of a run directory with its contents (stage directories by name), to show a refusal changed nothing. */
function filesOf(dir: string): [string, string][] {
  return readdirSync(dir)
    .sort()
    .map((name) => [name, statSync(join(dir, name)).isDirectory() ? '<dir>' : readFileSync(join(dir, name), 'utf8')]);
}

/** Resume refuses `dir` with a CheckpointError whose message matches, leaves it as it was and runs no node. */
async function expectRefused(dir: string, message: RegExp): Promise<void> {
  const before = filesOf(dir);
  let ran = 0;
  const counting: Handler = {
    execute: (input) => {
      ran += 1;
      return succeed.execute(input);
    },
  };
  const error = await resumePipeline(dir, { registry: registryWith({ s: counting }) }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CheckpointError);
  expect(error).toMatchObject({ code: 'ORCH_CHECKPOINT' });
  expect((error as Error).message).toMatch(message);
  expect(ran).toBe(0);
  expect(filesOf(dir)).toEqual(before);
}

function rewriteCheckpoint(dir: string, change: Record<string, unknown>): void {
  writeFileSync(join(dir, 'checkpoint.json'), JSON.stringify({ ...checkpointAt(dir), ...change }));
}

describe('resume refuses a run whose records were changed after they were written', () => {
  it('records the SHA-256 of the pipeline it was started with in the manifest', async () => {
    const dir = await interruptedAtB();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { pipeline_sha256?: string };
    expect(manifest.pipeline_sha256).toMatch(/^[0-9a-f]{64}$/);
    // Untouched, it resumes and finishes.
    const resumed = await resumePipeline(dir, { registry: registryWith({ s: succeed }) });
    expect(resumed).toMatchObject({ status: 'success', completedNodes: ['start', 'a', 'b', 'c', 'exit'] });
  });

  it('an edited pipeline.dot: the command it adds never runs', async () => {
    const dir = await interruptedAtB();
    const marker = join(tempDir(), 'pwned');
    const edited = SOURCE.replace('  c [type="s"]', `  c [shape=parallelogram, tool_command="touch ${marker}"]`);
    expect(edited).not.toBe(SOURCE);
    writeFileSync(join(dir, 'pipeline.dot'), edited);
    await expectRefused(dir, /pipeline\.dot is not the pipeline the run was started with .*it was changed after the run began; the run was left untouched/);
    expect(existsSync(marker)).toBe(false);
  });

  it('a manifest whose pipeline hash was removed', async () => {
    const dir = await interruptedAtB();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    delete manifest.pipeline_sha256;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await expectRefused(dir, /records no pipeline_sha256/);
  });

  it('a lowered journal_seq (steps would be replayed twice)', async () => {
    const dir = await interruptedAtB();
    rewriteCheckpoint(dir, { journal_seq: 1 });
    await expectRefused(dir, /checkpoint\.json does not match journal\.jsonl: its list of completed nodes is "2 node\(s\)" where the journal's first 1 step\(s\) give "1 node\(s\)"/);
    // orchestra status (and the server) read the run the same way.
    await expect(readRunReport(dir)).rejects.toThrow(CheckpointError);
  });

  it('a changed next_node (a node would be skipped)', async () => {
    const dir = await interruptedAtB();
    rewriteCheckpoint(dir, { next_node: 'c' });
    await expectRefused(dir, /its next_node is "c" where the journal's first 2 step\(s\) give "b"/);
  });

  it('status "completed" over an unfinished journal', async () => {
    const dir = await interruptedAtB();
    rewriteCheckpoint(dir, { status: 'completed', next_node: null });
    await expectRefused(dir, /its status is "completed" where the journal's first 2 step\(s\) give "a run that has not ended"/);
  });

  it('completed nodes, outcomes or retries that the journal does not give', async () => {
    const dir = await interruptedAtB();
    const original = checkpointAt(dir);
    rewriteCheckpoint(dir, { completed_nodes: ['start', 'b'] });
    await expectRefused(dir, /list of completed nodes/);
    rewriteCheckpoint(dir, { ...original, node_outcomes: { start: 'success', a: 'fail' } });
    await expectRefused(dir, /node_outcomes/);
    rewriteCheckpoint(dir, { ...original, total_retries: 3 });
    await expectRefused(dir, /total_retries/);
  });

  it('a journal with entries after the one that ended the run', async () => {
    const { logsRoot: dir } = await run(SOURCE, { handlers: { s: succeed }, source: SOURCE });
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
    writeFileSync(join(dir, 'journal.jsonl'), `${lines.join('\n')}\n${JSON.stringify({ ...last, seq: (last.seq as number) + 1, end: undefined, next: 'a' })}\n`);
    await expectRefused(dir, /follows step 5, which ended the run \(completed\)/);
  });
});

describe('checkpoints the engine wrote are accepted, also where they differ from the journal in form', () => {
  it('a checkpoint of an earlier build, which listed a zero for every node in node_retries, resumes', async () => {
    const dir = await interruptedAtB();
    rewriteCheckpoint(dir, { node_retries: { start: 0, a: 0 } });
    const resumed = await resumePipeline(dir, { registry: registryWith({ s: succeed }) });
    expect(resumed).toMatchObject({ status: 'success', completedNodes: ['start', 'a', 'b', 'c', 'exit'] });
  });

  /** g is a goal gate that fails the first time and goes on to the exit, which sends the run back to the graph's retry target `fix` (a jump no journal entry records). */
  const GATED = dot(
    ['  fix [type="s"]', '  g [type="s", goal_gate=true]', '  start -> fix -> g', '  g -> exit [condition="outcome=fail"]', '  g -> exit'].join('\n'),
    'Gated',
    'goal="Pass the gate", retry_target="fix"',
  );

  it('a run interrupted right after a goal gate at the exit sent it back resumes from the retry target', async () => {
    const controller = new AbortController();
    let gateVisits = 0;
    let fixVisits = 0;
    const handler: Handler = {
      execute(input) {
        if (input.node.id === 'g') return (gateVisits += 1) === 1 ? { status: 'fail', failureReason: 'not yet' } : { status: 'success' };
        if (input.node.id === 'fix' && (fixVisits += 1) === 2) {
          controller.abort();
          return untilAborted(input.signal);
        }
        return { status: 'success' };
      },
    };
    const logsRoot = newLogsRoot();
    const { result } = await run(GATED, { handlers: { s: handler }, signal: controller.signal, source: GATED, logsRoot });
    expect(result.status).toBe('interrupted');
    const checkpoint = checkpointAt(logsRoot);
    // The journal's last step (g, failed) goes to the exit; the engine's gate check sent the run back to fix.
    expect(checkpoint).toMatchObject({ next_node: 'fix', completed_nodes: ['start', 'fix', 'g'] });
    const resumed = await resumePipeline(logsRoot, { registry: registryWith({ s: handler }) });
    expect(resumed).toMatchObject({ status: 'success', completedNodes: ['start', 'fix', 'g', 'fix', 'g', 'exit'] });
  });
});
