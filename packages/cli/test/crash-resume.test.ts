import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core/store';
import { orchestra, startOrchestra, tempDir } from './cli-helpers.js';

/** Tool nodes in the soak pipeline, in one chain. */
const NODES = 50;
/**
 * Nodes whose tool sleeps long enough to still be running when a resume
 * started at once reaches its orphan check: they exercise `resume` stopping
 * the process groups a killed run left behind.
 */
const LONG_NODES = [9, 24, 39];
const LONG_SLEEP_MS = 1200; // long enough that a resume started at once, on a loaded machine, finds the tool still running
/** Kills in all: at least this many, each followed by a resume started at once. */
const TARGET_KILLS = 52;
/** Kills in one trial before its final resume (the first one of `run`, the others of `resume`s). */
const KILLS_PER_TRIAL = 13;
/** Trials run this many at a time (a resume after a kill mostly waits: see the report in the test below). */
const CONCURRENT_TRIALS = 2;
const MAX_TRIALS = 10;
/** Trial `n` draws its kill moments from `lcg(SEED + n)`: a failure names its trial, and replays with the same seed. */
const SEED = Number(process.env.ORCHESTRA_SOAK_SEED ?? 20261123);

/** How long node `i`'s tool sleeps: deterministic, 10-40 ms (a few nodes {@link LONG_SLEEP_MS}). */
function sleepMs(i: number): number {
  return LONG_NODES.includes(i) ? LONG_SLEEP_MS : 10 + ((i * 17) % 31);
}

/**
 * A chain of `nodes` tool nodes. Each appends `start tN <pid>` to the
 * side-effect log `$ORCHESTRA_CTX_SIDE` (outside the run's state), sleeps,
 * appends `end tN <pid>`, then prints a deterministic value built from the
 * previous node's output. When stopped (SIGTERM) it appends `term tN <pid>`.
 * `$$` is the PID of the shell, which leads the tool's process group.
 *
 * SIGPIPE is ignored: once orchestra is killed, nothing reads the tool's
 * stderr, and dash reports the `sleep` a SIGTERM ended ("Terminated") on
 * stderr before it runs the trap; that write would kill it silently.
 */
function soakPipeline(nodes = NODES): string {
  const dot = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const lines = ['digraph Soak {', '  graph [goal="Survive a SIGKILL soak"]', '  node [shape=parallelogram]', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 0; i < nodes; i++) {
    const log = (what: string) => `echo "${what} t${i} $$" >> "$ORCHESTRA_CTX_SIDE"`;
    const command = [
      `trap '' PIPE`,
      `trap '${log('term')}; exit 143' TERM`,
      log('start'),
      `sleep ${(sleepMs(i) / 1000).toFixed(3)}`,
      log('end'),
      `echo step${i}-$ORCHESTRA_CTX_TOOL_OUTPUT | cut -c1-40`,
    ].join('; ');
    lines.push(`  t${i} [tool_command="${dot(command)}"]`);
  }
  lines.push(`  start -> ${Array.from({ length: nodes }, (_, i) => `t${i}`).join(' -> ')} -> exit`, '}', '');
  return lines.join('\n');
}

interface Final {
  completed: string[];
  context: Record<string, unknown>;
}

/** The completed run's nodes and context, less the per-run `side` path. */
function final(dir: string, side: string): Final {
  const checkpoint = readCheckpoint(dir);
  expect(checkpoint.status).toBe('completed');
  const { side: recorded, ...context } = checkpoint.context;
  expect(recorded).toBe(side);
  return { completed: checkpoint.completed_nodes, context };
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The nodes in the journal, in order (complete lines only). */
function journalNodes(dir: string): string[] {
  const nodes: string[] = [];
  for (const line of readText(join(dir, 'journal.jsonl')).split('\n').slice(0, -1)) {
    try {
      nodes.push((JSON.parse(line) as { node: string }).node);
    } catch {
      break;
    }
  }
  return nodes;
}

/** The first tool node not in the journal: the one a kill interrupts. */
function inFlight(dir: string): string | null {
  const done = new Set(journalNodes(dir));
  for (let i = 0; i < NODES; i++) if (!done.has(`t${i}`)) return `t${i}`;
  return null;
}

/** The `run.orphans_stopped` events of a run: stopped PGIDs with their node. */
function orphansStopped(dir: string): Map<number, string> {
  const stopped = new Map<number, string>();
  for (const line of readText(join(dir, 'events.jsonl')).split('\n')) {
    if (!line.includes('run.orphans_stopped')) continue;
    let event: { processes: { pgid: number; node: string }[] };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue; // a line a kill cut short
    }
    for (const p of event.processes) stopped.set(p.pgid, p.node);
  }
  return stopped;
}

/** What a failure message needs to tell what happened: the run's events about processes, journal and process records. */
function diagnosis(dir: string): string {
  const events = readText(join(dir, 'events.jsonl'))
    .split('\n')
    .filter((l) => /pipeline\.started|orphans_stopped|"stage\.started"|pipeline\.completed/.test(l))
    .map((l) => l.replace(/,"(label|handlerType|index|logsRoot|pipeline)":("[^"]*"|\d+)/g, ''));
  return [`events.jsonl (excerpt):`, ...events, `journal: ${journalNodes(dir).join(' ')}`, `processes.json: ${readText(join(dir, 'processes.json')) || '(none)'}`].join('\n');
}

/** One run of a tool command, as the side-effect log tells it. */
interface Attempt {
  node: string;
  pid: number;
  line: number;
  end?: number;
  term?: number;
}

/**
 * Reads the side-effect log. The pipeline is a chain, so at most one tool
 * may run at any time, whichever orchestra process started it: a `start`
 * while another attempt has neither ended nor been stopped means two tools
 * ran at once (a killed run's tool survived into its resume).
 */
function sideEffects(path: string): { attempts: Attempt[]; running: Attempt | undefined; violations: string[]; text: string } {
  const text = readText(path);
  const attempts: Attempt[] = [];
  const violations: string[] = [];
  let running: Attempt | undefined;
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((line, i) => {
    const match = /^(start|end|term) (t\d+) (\d+)$/.exec(line);
    if (!match) return void violations.push(`line ${i + 1} is damaged: ${JSON.stringify(line)}`);
    const [, what, node, pidText] = match as unknown as [string, string, string, string];
    const pid = Number(pidText);
    if (what === 'start') {
      if (running) violations.push(`line ${i + 1}: ${node} (pid ${pid}) started while ${running.node} (pid ${running.pid}, started line ${running.line}) still ran`);
      running = { node, pid, line: i + 1 };
      attempts.push(running);
      return;
    }
    const attempt = attempts.findLast((a) => a.pid === pid && a.node === node);
    if (!attempt) return void violations.push(`line ${i + 1}: ${what} of ${node} (pid ${pid}) that never started`);
    if (what === 'end') {
      if (attempt.end !== undefined || attempt.term !== undefined) violations.push(`line ${i + 1}: ${node} (pid ${pid}) ended twice or after being stopped`);
      attempt.end = i + 1;
    } else {
      if (attempt.term !== undefined) violations.push(`line ${i + 1}: ${node} (pid ${pid}) stopped twice`);
      attempt.term = i + 1;
    }
    if (running === attempt) running = undefined;
    else if (attempt.end === i + 1) violations.push(`line ${i + 1}: ${node} (pid ${pid}) ended after another tool had started: they ran at once`);
  });
  return { attempts, running, violations, text };
}

/** Processes (other than this one) whose command line or environment mentions `marker`. */
function processesMentioning(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const read = (file: string) => {
      try {
        return readFileSync(`/proc/${entry}/${file}`, 'latin1');
      } catch {
        return ''; // gone, or not ours
      }
    };
    if (read('cmdline').includes(marker) || read('environ').includes(marker)) found.push(`pid ${entry}: ${read('cmdline').replaceAll('\0', ' ').trim()}`);
  }
  return found;
}

/** True when `pid` runs and is a process of ours that mentions `marker` (a reused PID does not). */
function survives(pid: number, marker: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker);
  } catch {
    return false;
  }
}

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where a kill landed. */
interface Kill {
  phase: number;
  command: 'run' | 'resume';
  moment: string;
  /** A tool of the killed process was still running (started, neither ended nor stopped). */
  midTool: boolean;
  /** The node the kill interrupted (the first not in the journal). */
  inFlight: string | null;
}

/** Waits until `ready()` or until the child has exited, whichever comes first. */
async function until(child: ReturnType<typeof startOrchestra>['child'], ready: () => boolean): Promise<void> {
  while (!ready() && child.exitCode === null && child.signalCode === null) await sleep(2);
}

/**
 * One trial: `run`, SIGKILLed at a random moment, then `resume` at once,
 * SIGKILLed at a random moment, ... ({@link KILLS_PER_TRIAL} kills, fewer if
 * the run ends first), then a last `resume` to the end. Checks the side
 * effects after every kill and the whole outcome at the end.
 */
async function soakTrial(trial: number, work: string, pipeline: string, expected: Final): Promise<{ kills: Kill[]; orphansStopped: number }> {
  const seed = SEED + trial;
  const random = lcg(seed);
  const base = join(work, `trial-${trial}`);
  mkdirSync(base);
  const side = join(base, 'side.log');
  let attempt = 0;
  let dir = join(base, `run-${attempt}`);
  const kills: Kill[] = [];
  let finished = false;
  for (let phase = 0; kills.length < KILLS_PER_TRIAL && !finished; phase++) {
    const command = existsSync(join(dir, 'manifest.json')) ? 'resume' : 'run';
    const startsBefore = sideEffects(side).attempts.length;
    const journalBefore = journalNodes(dir).length;
    const next = inFlight(dir);
    const nextIndex = next === null ? NODES : Number(next.slice(1));
    const longAhead = LONG_NODES.find((i) => i >= nextIndex && i < nextIndex + 5);
    const run = command === 'run' ? startOrchestra('run', pipeline, '--quiet', '--logs-dir', dir, '--set', `side=${side}`) : startOrchestra('resume', dir, '--quiet');
    // A random moment: during a tool (sometimes a long one, whose orphan outlives the killed
    // orchestra), a little after a node completed, or any time after the process started.
    const pick = random();
    let moment: string;
    if (pick < 0.2 && longAhead !== undefined) {
      const extra = random() * 150;
      moment = `${Math.round(extra)} ms into long t${longAhead}`;
      await until(run.child, () => sideEffects(side).attempts.slice(startsBefore).some((a) => a.node === `t${longAhead}`));
      await sleep(extra);
    } else if (pick < 0.6) {
      const n = 1 + Math.floor(random() * 4);
      const fraction = random();
      await until(run.child, () => sideEffects(side).attempts.length >= startsBefore + n);
      const started = sideEffects(side).attempts[startsBefore + n - 1];
      const extra = started ? fraction * Math.min(sleepMs(Number(started.node.slice(1))), 150) : 0;
      moment = `${Math.round(extra)} ms into tool #${n} of the phase${started ? ` (${started.node})` : ''}`;
      await sleep(extra);
    } else if (pick < 0.85) {
      const n = 1 + Math.floor(random() * 4);
      const extra = random() * 30;
      moment = `${n} nodes + ${Math.round(extra)} ms`;
      await until(run.child, () => journalNodes(dir).length >= journalBefore + n);
      await sleep(extra);
    } else {
      const delay = random() * 400;
      moment = `${Math.round(delay)} ms after start`;
      await sleep(delay);
    }
    run.child.kill('SIGKILL');
    const ended = await run.done;
    const where = `trial ${trial} (ORCHESTRA_SOAK_SEED=${SEED}) phase ${phase} (${command} ${dir}) killed ${moment}`;
    if (ended.signal !== 'SIGKILL') {
      // It finished before the kill.
      expect(ended.code, `${where}: ${ended.stderr}`).toBe(0);
      finished = true;
      break;
    }
    const effects = sideEffects(side);
    if (effects.violations.length > 0) {
      await sleep(1000); // let a tool that still runs finish: did it survive?
      expect(effects.violations, `${where}\nside-effect log:\n${effects.text}\na second later:\n${sideEffects(side).text}\n${diagnosis(dir)}`).toEqual([]);
    }
    if (!existsSync(join(dir, 'manifest.json'))) {
      // Killed before the run directory held a run: nothing to resume; start over in a new one.
      expect(command).toBe('run');
      dir = join(base, `run-${++attempt}`);
      continue;
    }
    // Whatever the moment, the checkpoint (once written) parses and validates.
    if (existsSync(join(dir, 'checkpoint.json'))) expect(() => readCheckpoint(dir), where).not.toThrow();
    kills.push({ phase, command, moment, midTool: effects.running !== undefined, inFlight: inFlight(dir) });
  }

  // The last resume, at once, runs to the end, like the uninterrupted run.
  const where = `trial ${trial} (ORCHESTRA_SOAK_SEED=${SEED}, ${dir}); kills: ${JSON.stringify(kills)}`;
  if (!finished) {
    const resumed = await startOrchestra('resume', dir, '--quiet').done;
    expect(resumed.code, `${where}\n${resumed.stderr}`).toBe(0);
  }
  expect(final(dir, side), where).toEqual(expected);
  const journal = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seq: number });
  expect(journal.map((e) => e.seq), where).toEqual(journal.map((_, i) => i + 1));
  expect(existsSync(join(dir, 'run.lock')), `${where}: run.lock left behind`).toBe(false);
  expect(existsSync(join(dir, 'processes.json')), `${where}: processes.json left behind`).toBe(false);

  // No process of any killed orchestra, nor any of their tools, survives.
  const { attempts, running, violations, text } = sideEffects(side);
  const marker = `${base}/`; // in the command line of each orchestra, in the environment of each tool
  expect(processesMentioning(marker), where).toEqual([]);
  expect(attempts.filter((a) => survives(a.pid, marker)).map((a) => `${a.node} pid ${a.pid}`), where).toEqual([]);

  // Side effects: never two tools at once; every attempt ended, or was stopped (SIGTERM: only a
  // resume sends it here, to the tools a killed run left); each node's last attempt completed;
  // no node ran more often than the kills that interrupted it allow.
  const log = `${where}\nside-effect log:\n${text}\n${diagnosis(dir)}`;
  expect(violations, log).toEqual([]);
  expect(running, log).toBeUndefined();
  for (const a of attempts) expect(a.end ?? a.term, `${a.node} (pid ${a.pid}) neither ended nor was stopped\n${log}`).toBeDefined();
  // A resume records the groups it stopped (run.orphans_stopped), though a resume killed
  // during its first node loses that event with the rest of the node's batch.
  const stopped = orphansStopped(dir);
  for (const [pgid, node] of stopped) {
    const ran = attempts.find((a) => a.pid === pgid);
    if (ran) expect(ran.node, `run.orphans_stopped names pgid ${pgid} as ${node}\n${log}`).toBe(node);
  }
  for (let i = 0; i < NODES; i++) {
    const node = `t${i}`;
    const mine = attempts.filter((a) => a.node === node);
    const interrupted = kills.filter((k) => k.inFlight === node).length;
    const ran = `${node} ran ${mine.length} times, interrupted ${interrupted} times\n${log}`;
    expect(mine.length, ran).toBeGreaterThanOrEqual(1);
    expect(mine.length, ran).toBeLessThanOrEqual(1 + interrupted);
    expect(mine.at(-1)?.end, `${node}'s last attempt did not complete\n${log}`).toBeDefined();
  }
  return { kills, orphansStopped: stopped.size };
}

describe('crash safety (SIGKILL at random moments)', () => {
  /*
   * About the duration: a resume after a kill mid-tool stops the killed
   * run's tool group, and waits until the group is gone. Where PID 1 reaps
   * orphans lazily (it took ~1.5 s in a Firecracker VM), the exited tool
   * stays a zombie that still counts as the group: the resume waits that
   * long. Trials run two at a time to overlap those waits.
   */
  it(`a ${NODES}-node tool pipeline SIGKILLed ${TARGET_KILLS}+ times, each time resumed at once, always ends like the uninterrupted run, runs no tool twice at once and leaves no process behind`, async () => {
    const work = tempDir('orchestra-soak-');
    const pipeline = join(work, 'soak-tools.dot');
    writeFileSync(pipeline, soakPipeline());

    const referenceSide = join(work, 'reference-side.log');
    const reference = join(work, 'reference');
    const ran = orchestra('run', pipeline, '--quiet', '--logs-dir', reference, '--set', `side=${referenceSide}`);
    expect(ran.code, ran.stderr).toBe(0);
    const expected = final(reference, referenceSide);
    expect(expected.completed).toHaveLength(NODES + 2);
    const clean = sideEffects(referenceSide);
    expect(clean.violations).toEqual([]);
    expect(clean.attempts.map((a) => [a.node, a.end !== undefined])).toEqual(Array.from({ length: NODES }, (_, i) => [`t${i}`, true]));

    const kills: Kill[] = [];
    let orphansStoppedTotal = 0;
    for (let trial = 0; kills.length < TARGET_KILLS; trial += CONCURRENT_TRIALS) {
      expect(trial, `only ${kills.length} kills in ${MAX_TRIALS} trials`).toBeLessThan(MAX_TRIALS);
      const batch = Array.from({ length: CONCURRENT_TRIALS }, (_, i) => soakTrial(trial + i, work, pipeline, expected));
      for (const result of await Promise.allSettled(batch)) {
        if (result.status === 'rejected') throw result.reason; // once the other trials of the batch are done
        kills.push(...result.value.kills);
        orphansStoppedTotal += result.value.orphansStopped;
      }
    }

    // The soak is only meaningful if the kills landed where they matter.
    const summary = JSON.stringify({
      kills: kills.length,
      ofResumes: kills.filter((k) => k.command === 'resume').length,
      midTool: kills.filter((k) => k.midTool).length,
      orphansStopped: orphansStoppedTotal,
    });
    expect(kills.length, summary).toBeGreaterThanOrEqual(50);
    expect(kills.filter((k) => k.command === 'resume').length, summary).toBeGreaterThanOrEqual(40);
    expect(kills.filter((k) => k.midTool).length, summary).toBeGreaterThanOrEqual(15);
    // Most killed tools finish (10-40 ms) before the resume starts; only those still running are stopped
    // (exited ones no longer count, zombies included). run-ownership.test.ts covers the stop deterministically.
    expect(orphansStoppedTotal, summary).toBeGreaterThanOrEqual(1);
    rmSync(work, { recursive: true, force: true }); // kept when the test fails, to look into
  }, 180_000);

  /*
   * SIGKILL between the manifest and the first checkpoint leaves manifest.json
   * and pipeline.dot (and a dead owner's run.lock) but no checkpoint: resume
   * starts over from the start node with the run's `--set` values and
   * `graph.goal`. The window is a few ms wide; the soak above can land in it.
   */
  it('a run killed before its first checkpoint resumes with its initial context', () => {
    const work = tempDir('orchestra-early-');
    const pipeline = join(work, 'early.dot');
    writeFileSync(pipeline, soakPipeline(3));
    const side = join(work, 'side.log');
    const reference = join(work, 'reference', 'run');
    mkdirSync(join(work, 'reference'));
    expect(orchestra('run', pipeline, '--quiet', '--logs-dir', reference, '--set', `side=${side}`).code).toBe(0);
    const expected = final(reference, side);
    const killed = join(work, 'killed', 'run');
    mkdirSync(killed, { recursive: true });
    for (const file of ['manifest.json', 'pipeline.dot']) copyFileSync(join(reference, file), join(killed, file));
    const resumed = orchestra('resume', killed, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(final(killed, side)).toEqual(expected);
  });
});
