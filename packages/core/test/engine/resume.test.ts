import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointError, resumePipeline, type Handler, type HandlerInput, type Outcome, type RunEvent, type RunResult } from '../../src/index.js';
import { readJournal } from '../../src/store.js';
import { checkpointAt, dot, eventsOf, graphFrom, journalAt, newLogsRoot, registryWith, run, useTempDirs, untilAborted } from './engine-helpers.js';

useTempDirs();

/**
 * A pipeline with context flow, a retried node, a conditional and a branch:
 * start -> a -> b (fails once) -> c -> check -> d | e -> exit.
 */
const SOURCE = dot(
  [
    '  a [type="s"]',
    '  b [type="s", max_retries=1]',
    '  c [type="s"]',
    '  check [shape=diamond]',
    '  d [type="s"]',
    '  e [type="s"]',
    '  start -> a -> b -> c -> check',
    '  check -> d [condition="context.c.out=yes"]',
    '  check -> e [condition="context.c.out!=yes"]',
    '  d -> exit',
    '  e -> exit',
  ].join('\n'),
  'Resumable',
  'goal="Resume correctly"',
);

/** What every node does: a pure function of the node, the attempt and the context, so any run of it agrees. */
function behaviour({ node, attempt, context }: HandlerInput): Outcome {
  switch (node.id) {
    case 'a':
      return { status: 'success', preferredLabel: 'onward', contextUpdates: { 'a.value': { n: 41, tags: ['x'] } } };
    case 'b':
      if (attempt === 1) return { status: 'fail', failureReason: 'transient' };
      return { status: 'success', contextUpdates: { 'b.seen': context.getString('a.value') } };
    case 'c':
      return { status: 'success', contextUpdates: { 'c.out': ((context.get('a.value') as { n: number }).n === 41 ? 'yes' : 'no') } };
    default:
      return { status: 'success', contextUpdates: { [`${node.id}.done`]: true } };
  }
}

/** The normal handler, plus an interrupting one that aborts `controller` the first time it reaches `at`. */
function interrupting(at: string, controller: AbortController): Handler {
  let fired = false;
  return {
    execute(input) {
      if (input.node.id === at && !fired) {
        fired = true;
        controller.abort();
        return untilAborted(input.signal);
      }
      return behaviour(input);
    },
  };
}

const normal: Handler = { execute: behaviour };

let referenceRun: Promise<RunResult> | undefined;

/** The uninterrupted run every resumed run is compared with (run once per file). */
async function reference(): Promise<RunResult> {
  referenceRun ??= run(SOURCE, { handlers: { s: normal } }).then(({ result }) => result);
  const result = await referenceRun;
  expect(result.status).toBe('success');
  return result;
}

describe('interrupt and resume (spec §5.3, §11.7)', () => {
  it('the reference run takes the expected path', async () => {
    const result = await reference();
    expect(result.completedNodes).toEqual(['start', 'a', 'b', 'c', 'check', 'd', 'exit']);
    expect(result.retries).toBe(1);
    expect(result.context['c.out']).toBe('yes');
  });

  for (const [at, before] of [
    ['a', ['start']],
    ['c', ['start', 'a', 'b']],
    ['d', ['start', 'a', 'b', 'c', 'check']],
  ] as const) {
    it(`an interrupt at ${at} resumes to the same nodes and context as an uninterrupted run`, async () => {
      const expected = await reference();
      const controller = new AbortController();
      const first = await run(SOURCE, { handlers: { s: interrupting(at, controller) }, signal: controller.signal, source: SOURCE });
      expect(first.result.status).toBe('interrupted');
      expect(first.result.completedNodes).toEqual(before);
      const checkpoint = checkpointAt(first.logsRoot);
      expect(checkpoint).toMatchObject({ status: 'interrupted', next_node: at, current_node: before.at(-1), completed_nodes: before });
      expect(journalAt(first.logsRoot).map((e) => e.node)).toEqual(before);
      expect(existsSync(join(first.logsRoot, at, 'status.json'))).toBe(false);

      const events: RunEvent[] = [];
      const resumed = await resumePipeline(first.logsRoot, { registry: registryWith({ s: normal }), onEvent: (e) => events.push(e), random: () => 0 });
      expect(resumed.status).toBe('success');
      expect(resumed.alreadyFinished).toBeUndefined();
      expect(resumed.logsRoot).toBe(first.logsRoot);
      expect(resumed.completedNodes).toEqual(expected.completedNodes);
      expect(resumed.context).toEqual(expected.context);
      expect(resumed.retries).toBe(expected.retries);
      expect(events[0]).toMatchObject({ type: 'pipeline.started', resumed: true, startNode: at });
      expect(eventsOf(events, 'stage.started')[0]?.nodeId).toBe(at);

      const final = checkpointAt(first.logsRoot);
      expect(final.status).toBe('completed');
      expect(final.completed_nodes).toEqual(expected.completedNodes);
      expect(final.context).toEqual(expected.context);
      expect(journalAt(first.logsRoot).map((e) => e.seq)).toEqual(expected.completedNodes.map((_, i) => i + 1));
    });
  }

  it('an interrupt during a retry backoff resumes to the same result', async () => {
    const expected = await reference();
    const controller = new AbortController();
    const first = await run(SOURCE, {
      handlers: { s: normal },
      signal: controller.signal,
      source: SOURCE,
      onEvent: (e) => {
        if (e.type === 'stage.retrying') controller.abort('stop while waiting');
      },
    });
    expect(first.result.status).toBe('interrupted');
    expect(first.result.completedNodes).toEqual(['start', 'a']);
    expect(checkpointAt(first.logsRoot).next_node).toBe('b');
    const resumed = await resumePipeline(first.logsRoot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.completedNodes).toEqual(expected.completedNodes);
    expect(resumed.context).toEqual(expected.context);
  });

  it('an already-aborted signal stops before the first node; resume runs it all', async () => {
    const expected = await reference();
    const controller = new AbortController();
    controller.abort();
    const first = await run(SOURCE, { handlers: { s: normal }, signal: controller.signal, source: SOURCE });
    expect(first.result.status).toBe('interrupted');
    expect(first.result.completedNodes).toEqual([]);
    expect(checkpointAt(first.logsRoot)).toMatchObject({ status: 'interrupted', next_node: 'start', current_node: null });
    const resumed = await resumePipeline(first.logsRoot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.completedNodes).toEqual(expected.completedNodes);
    expect(resumed.context).toEqual(expected.context);
  });

  it('survives two interruptions in a row', async () => {
    const expected = await reference();
    const c1 = new AbortController();
    const first = await run(SOURCE, { handlers: { s: interrupting('b', c1) }, signal: c1.signal, source: SOURCE });
    expect(first.result.status).toBe('interrupted');
    const c2 = new AbortController();
    const second = await resumePipeline(first.logsRoot, { registry: registryWith({ s: interrupting('d', c2) }), signal: c2.signal, random: () => 0 });
    expect(second.status).toBe('interrupted');
    expect(second.completedNodes).toEqual(['start', 'a', 'b', 'c', 'check']);
    const third = await resumePipeline(first.logsRoot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(third.completedNodes).toEqual(expected.completedNodes);
    expect(third.context).toEqual(expected.context);
  });

  it('resumes with a graph passed in when the run directory has no pipeline.dot', async () => {
    const expected = await reference();
    const controller = new AbortController();
    const first = await run(SOURCE, { handlers: { s: interrupting('c', controller) }, signal: controller.signal });
    expect(existsSync(join(first.logsRoot, 'pipeline.dot'))).toBe(false);
    await expect(resumePipeline(first.logsRoot, { registry: registryWith({ s: normal }) })).rejects.toMatchObject({
      code: 'ORCH_CHECKPOINT',
      message: `${first.logsRoot} has no copy of the pipeline it was started with; pass the graph to resume it`,
    });
    const resumed = await resumePipeline(first.logsRoot, { registry: registryWith({ s: normal }), graph: graphFrom(SOURCE), random: () => 0 });
    expect(resumed.completedNodes).toEqual(expected.completedNodes);
    expect(resumed.context).toEqual(expected.context);
  });

  it('does not run a finished run again', async () => {
    const { result, logsRoot } = await run(SOURCE, { handlers: { s: normal }, source: SOURCE });
    const before = readdirSync(logsRoot).map((f) => [f, existsSync(join(logsRoot, f, 'status.json')) ? '' : readFileSync(join(logsRoot, f), 'utf8')]);
    let calls = 0;
    const counting: Handler = {
      execute: (input) => {
        calls++;
        return behaviour(input);
      },
    };
    const again = await resumePipeline(logsRoot, { registry: registryWith({ s: counting }) });
    expect(again.alreadyFinished).toBe(true);
    expect(again.status).toBe('success');
    expect(again.completedNodes).toEqual(result.completedNodes);
    expect(again.context).toEqual(result.context);
    expect(calls).toBe(0);
    const after = readdirSync(logsRoot).map((f) => [f, existsSync(join(logsRoot, f, 'status.json')) ? '' : readFileSync(join(logsRoot, f), 'utf8')]);
    expect(after).toEqual(before);
  });

  it('reports a failed run as failed without running it again', async () => {
    const failing: Handler = { execute: (input) => (input.node.id === 'c' ? { status: 'fail', failureReason: 'no way' } : behaviour(input)) };
    const { result, logsRoot } = await run(SOURCE, { handlers: { s: failing }, source: SOURCE });
    expect(result.status).toBe('fail');
    const again = await resumePipeline(logsRoot, { registry: registryWith({ s: normal }) });
    expect(again).toMatchObject({ alreadyFinished: true, status: 'fail', failureReason: 'c failed: no way', completedNodes: ['start', 'a', 'b', 'c'] });
  });
});

describe('crash recovery (journal replay)', () => {
  /**
   * Runs SOURCE and, when node `at` starts, copies the run directory as a
   * SIGKILL at that moment would leave it. Returns the copy.
   */
  async function crashCopy(at: string, checkpointIntervalMs: number, extra?: (input: HandlerInput, snapshot: string) => void): Promise<{ snapshot: string; full: RunResult }> {
    const snapshot = newLogsRoot();
    let copied = false;
    const copying: Handler = {
      execute(input) {
        if (!copied && input.node.id === at) {
          copied = true;
          cpSync(input.logsRoot, snapshot, { recursive: true });
          // A killed owner's lease is stale; this copy's holder (this process) is alive, so drop it.
          rmSync(join(snapshot, 'run.lock'), { force: true });
          extra?.(input, snapshot);
        }
        return behaviour(input);
      },
    };
    const { result } = await run(SOURCE, { handlers: { s: copying }, source: SOURCE, checkpointIntervalMs });
    expect(copied).toBe(true);
    return { snapshot, full: result };
  }

  it('replays journal lines written after a stale checkpoint', async () => {
    const { snapshot, full } = await crashCopy('d', 60_000);
    const stale = checkpointAt(snapshot);
    expect(stale.status).toBe('running');
    expect(stale.journal_seq).toBe(0);
    expect(journalAt(snapshot)).toHaveLength(5);
    const resumed = await resumePipeline(snapshot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.completedNodes).toEqual(full.completedNodes);
    expect(resumed.context).toEqual(full.context);
    expect(resumed.retries).toBe(full.retries);
  });

  it('replays only the lines after a checkpoint taken mid-run', async () => {
    // The checkpoint as it was when c started (after start, a, b), with the journal as it was when d started.
    let midCheckpoint = '';
    await crashCopy('c', 0, (input) => {
      midCheckpoint = readFileSync(join(input.logsRoot, 'checkpoint.json'), 'utf8');
    });
    const { snapshot, full } = await crashCopy('d', 0);
    writeFileSync(join(snapshot, 'checkpoint.json'), midCheckpoint);
    expect(checkpointAt(snapshot)).toMatchObject({ journal_seq: 3, completed_nodes: ['start', 'a', 'b'] });
    const resumed = await resumePipeline(snapshot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.completedNodes).toEqual(full.completedNodes);
    expect(resumed.context).toEqual(full.context);
  });

  it('ignores a torn last journal line (the node runs again)', async () => {
    const { snapshot, full } = await crashCopy('d', 60_000);
    appendFileSync(join(snapshot, 'journal.jsonl'), '{"seq":6,"node":"d","status":"succ');
    expect(readJournal(snapshot).entries).toHaveLength(5);
    const resumed = await resumePipeline(snapshot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.completedNodes).toEqual(full.completedNodes);
    expect(resumed.context).toEqual(full.context);
  });

  it('leaves a readable journal after resuming past a torn line, so the run can be resumed (or inspected) again', async () => {
    const { snapshot } = await crashCopy('d', 60_000);
    appendFileSync(join(snapshot, 'journal.jsonl'), '{"seq":6,"node":"d","status":"succ');
    const resumed = await resumePipeline(snapshot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.status).toBe('success');
    expect(readJournal(snapshot).problem).toBeUndefined();
    const again = await resumePipeline(snapshot, { registry: registryWith({ s: normal }) });
    expect(again.alreadyFinished).toBe(true);
  });

  it('cuts off a torn last line longer than the 64 KiB read back at a time, keeping every whole line before it', async () => {
    const { snapshot, full } = await crashCopy('d', 60_000);
    const journal = join(snapshot, 'journal.jsonl');
    const whole = readFileSync(journal, 'utf8');
    // A crash while a node with a large context value was being recorded: no newline for 100 KB back.
    appendFileSync(journal, `{"seq":6,"node":"d","status":"success","retries":0,"context":{"d.blob":"${'x'.repeat(100_000)}`);
    const resumed = await resumePipeline(snapshot, { registry: registryWith({ s: normal }), random: () => 0 });
    expect(resumed.completedNodes).toEqual(full.completedNodes);
    const after = readFileSync(journal, 'utf8');
    expect(after.startsWith(whole)).toBe(true);
    expect(after).not.toContain('xxxx');
    expect(readJournal(snapshot)).toMatchObject({ torn: false, entries: journalAt(snapshot) });
    expect(readJournal(snapshot).problem).toBeUndefined();
    expect(journalAt(snapshot).map((e) => e.seq)).toEqual(full.completedNodes.map((_, i) => i + 1));
  });

  it('keeps run-log entries of nodes completed before the crash', async () => {
    const logging: Handler = {
      execute(input) {
        input.context.appendLog(`ran ${input.node.id}`);
        return behaviour(input);
      },
    };
    const expectedRun = await run(SOURCE, { handlers: { s: logging } });
    const expectedLogs = checkpointAt(expectedRun.logsRoot).logs;
    expect(expectedLogs).toEqual(['ran a', 'ran b', 'ran b', 'ran c', 'ran d']);

    const snapshot = newLogsRoot();
    let copied = false;
    const crashing: Handler = {
      execute(input) {
        if (!copied && input.node.id === 'd') {
          copied = true;
          cpSync(input.logsRoot, snapshot, { recursive: true });
          rmSync(join(snapshot, 'run.lock'), { force: true }); // a killed owner's lease is stale
        }
        return logging.execute(input);
      },
    };
    await run(SOURCE, { handlers: { s: crashing }, source: SOURCE, checkpointIntervalMs: 60_000 });
    await resumePipeline(snapshot, { registry: registryWith({ s: logging }), random: () => 0 });
    expect(checkpointAt(snapshot).logs).toEqual(expectedLogs);
  });

  it('keeps the run log of a checkpoint taken mid-run and adds the journal lines after it, once each', async () => {
    const logging: Handler = {
      execute(input) {
        input.context.appendLog(`${input.node.id} at attempt ${input.attempt}`);
        return behaviour(input);
      },
    };
    const expected = ['a at attempt 1', 'b at attempt 1', 'b at attempt 2', 'c at attempt 1', 'd at attempt 1'];
    // The checkpoint as it was when c started (the log of start, a, b in it), the journal as it was when d started (c's line too).
    const copyAt = async (at: string): Promise<{ snapshot: string; checkpoint: string }> => {
      const snapshot = newLogsRoot();
      let checkpoint = '';
      const copying: Handler = {
        execute(input) {
          if (!checkpoint && input.node.id === at) {
            checkpoint = readFileSync(join(input.logsRoot, 'checkpoint.json'), 'utf8');
            cpSync(input.logsRoot, snapshot, { recursive: true });
            rmSync(join(snapshot, 'run.lock'), { force: true }); // a killed owner's lease is stale
          }
          return logging.execute(input);
        },
      };
      const { logsRoot } = await run(SOURCE, { handlers: { s: copying }, source: SOURCE, checkpointIntervalMs: 0 });
      expect(checkpointAt(logsRoot).logs).toEqual(expected);
      return { snapshot, checkpoint };
    };
    const { checkpoint: atC } = await copyAt('c');
    const { snapshot } = await copyAt('d');
    writeFileSync(join(snapshot, 'checkpoint.json'), atC);
    expect(checkpointAt(snapshot)).toMatchObject({ journal_seq: 3, logs: ['a at attempt 1', 'b at attempt 1', 'b at attempt 2'] });
    expect(journalAt(snapshot).find((e) => e.node === 'c')?.logs).toEqual(['c at attempt 1']);
    const resumed = await resumePipeline(snapshot, { registry: registryWith({ s: logging }), random: () => 0 });
    expect(resumed.status).toBe('success');
    expect(checkpointAt(snapshot).logs).toEqual(expected);
  });
});

describe('resume refuses unusable run directories, leaving them untouched', () => {
  async function finishedRun(): Promise<string> {
    // Nothing fails here, so no retry backoff slows these tests down.
    const { logsRoot } = await run(SOURCE, { handlers: { s: { execute: () => ({ status: 'success' }) } }, source: SOURCE });
    return logsRoot;
  }

  function filesOf(dir: string): Record<string, string> {
    return Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.includes('.'))
        .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
    );
  }

  /** Resume refuses `dir` with a message that names the problem (`message`), and leaves its files as they were. */
  async function expectRefused(dir: string, message: RegExp): Promise<void> {
    const before = existsSync(dir) ? filesOf(dir) : undefined;
    const error = await resumePipeline(dir, { registry: registryWith({ s: normal }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error).toMatchObject({ code: 'ORCH_CHECKPOINT' });
    expect((error as Error).message).toMatch(message);
    if (before) expect(filesOf(dir)).toEqual(before);
  }

  it('a truncated checkpoint.json', async () => {
    const dir = await finishedRun();
    const text = readFileSync(join(dir, 'checkpoint.json'), 'utf8');
    writeFileSync(join(dir, 'checkpoint.json'), text.slice(0, Math.floor(text.length / 2)));
    await expectRefused(dir, /corrupt or truncated/);
  });

  it('an empty checkpoint.json', async () => {
    const dir = await finishedRun();
    writeFileSync(join(dir, 'checkpoint.json'), '');
    await expectRefused(dir, /checkpoint\.json is corrupt or truncated \(not valid JSON\); it was left untouched$/);
  });

  it('a foreign JSON file in place of the checkpoint', async () => {
    const dir = await finishedRun();
    writeFileSync(join(dir, 'checkpoint.json'), '{"hello":1}');
    await expectRefused(dir, /not an orchestra checkpoint/);
  });

  it('a checkpoint ahead of its journal (a cut or deleted journal)', async () => {
    const dir = await finishedRun();
    writeFileSync(join(dir, 'journal.jsonl'), readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    await expectRefused(dir, /the journal has only 2: the journal was cut or deleted/);
    rmSync(join(dir, 'journal.jsonl'));
    await expectRefused(dir, /the journal has none/);
  });

  it('a journal naming a node the pipeline does not have', async () => {
    const dir = await finishedRun();
    rmSync(join(dir, 'checkpoint.json'));
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').replace('"node":"b"', '"node":"gone"');
    writeFileSync(join(dir, 'journal.jsonl'), lines);
    await expectRefused(dir, /names node "gone", which the pipeline does not have/);
  });

  it('rebuilds a missing checkpoint.json from the journal', async () => {
    const dir = await finishedRun();
    rmSync(join(dir, 'checkpoint.json'));
    const again = await resumePipeline(dir, { registry: registryWith({ s: normal }) });
    expect(again).toMatchObject({ alreadyFinished: true, status: 'success', completedNodes: ['start', 'a', 'b', 'c', 'check', 'e', 'exit'] });
  });

  it('a missing run directory', async () => {
    await expectRefused(join(newLogsRoot(), 'nope'), /\/run\/nope does not exist$/);
  });

  it('a directory that is not a run', async () => {
    const dir = newLogsRoot();
    cpSync(await finishedRun(), dir, { recursive: true });
    rmSync(join(dir, 'manifest.json'));
    await expectRefused(dir, /not an orchestra run directory/);
  });

  it('a journal damaged before its last line', async () => {
    const controller = new AbortController();
    const { logsRoot } = await run(SOURCE, { handlers: { s: interrupting('d', controller) }, signal: controller.signal, source: SOURCE, checkpointIntervalMs: 60_000 });
    // Make the checkpoint older than the journal, so the journal matters, then damage line 2.
    const cp = checkpointAt(logsRoot);
    writeFileSync(join(logsRoot, 'checkpoint.json'), JSON.stringify({ ...cp, journal_seq: 0, completed_nodes: [], current_node: null, next_node: 'start', node_retries: {}, node_outcomes: {}, total_retries: 0 }));
    const lines = readFileSync(join(logsRoot, 'journal.jsonl'), 'utf8').split('\n');
    lines[1] = lines[1]!.slice(0, 10);
    writeFileSync(join(logsRoot, 'journal.jsonl'), lines.join('\n'));
    await expectRefused(logsRoot, /line 2 is damaged/);
  });

  it('a journal that skips entries', async () => {
    const controller = new AbortController();
    const { logsRoot } = await run(SOURCE, { handlers: { s: interrupting('d', controller) }, signal: controller.signal, source: SOURCE });
    const cp = checkpointAt(logsRoot);
    writeFileSync(join(logsRoot, 'checkpoint.json'), JSON.stringify({ ...cp, journal_seq: 1 }));
    const lines = readFileSync(join(logsRoot, 'journal.jsonl'), 'utf8').split('\n');
    lines.splice(1, 1); // drop seq 2
    writeFileSync(join(logsRoot, 'journal.jsonl'), lines.join('\n'));
    await expectRefused(logsRoot, /skips/);
  });
});
