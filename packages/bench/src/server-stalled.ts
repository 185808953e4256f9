/**
 * `bench:server --stalled`: what clients that open a run's event stream and
 * never read cost the server (README.md, "Stalled clients").
 *
 * One run of `start → gate → s0 → … → s<stages-1> → exit` whose LLM stages
 * stream their reply as `llm.delta` events (`--deltas` pieces of 40
 * characters per stage, {@link PER_TICK} every millisecond: a model's stream
 * in fast motion), on a server, run directory on tmpfs. Each measured run is
 * in a fresh process, after a warm-up run there with no client; the cases
 * alternate: no client; `--clients` (100) stalled connections in another
 * process (each sends its GET and never reads: the socket paused from the
 * start); with `--reading`, as many clients that read everything.
 *
 * For each run: the time from answering the gate to the end, and of its
 * second half (from `s<stages/2>` starting to the end, by the events' times);
 * the server process's RSS, V8 heap, young generation and buffers, sampled
 * every 20 ms (the peaks); RSS and heap after a GC once the run has ended
 * with the clients still connected, and again once they have closed; when
 * the streams were dropped.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import type { CodergenBackend, RunEventLog } from '@orchestra/core';
import { startServer, type RunningServer } from '@orchestra/server';
import { formatSpread, parseRunArgs, type RunArgs } from './args.js';
import { summarize, type Stats } from './measure.js';
import { Clients } from './server-clients.js';
import { requestJson } from './server-sse.js';

interface StalledArgs extends RunArgs {
  clients: number;
  stages: number;
  deltas: number;
  /** Also measure as many clients that read everything (slow: every piece goes to every client). */
  reading: boolean;
}

/** Pieces streamed per millisecond tick, and the text of each. */
export const PER_TICK = 50;
const PIECE = 'The quick brown fox jumps over the dog. ';

function intFlag(argv: readonly string[], flag: string, fallback: number): number {
  const at = argv.indexOf(flag);
  if (at === -1) return fallback;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${flag} needs a positive integer, got ${argv[at + 1] ?? 'nothing'}`);
  return n;
}

/** A backend that streams `deltas` pieces per stage, {@link PER_TICK} per millisecond timer. */
function streamingBackend(deltas: number): CodergenBackend {
  return {
    run: async ({ node, report }) => {
      for (let sent = 0; sent < deltas; ) {
        for (let k = 0; k < PER_TICK && sent < deltas; k++, sent++) report.delta(PIECE);
        await sleep(1);
      }
      return `[Streamed] ${deltas} pieces for ${node.id}`;
    },
  };
}

function gatedChain(stages: number): string {
  const lines = ['digraph Stalled {', '  start [shape=Mdiamond]', '  exit [shape=Msquare]', '  gate [shape=hexagon, label="Go?"]'];
  for (let i = 0; i < stages; i++) lines.push(`  s${i} [prompt="Write part ${i}"]`);
  lines.push('  start -> gate', '  gate -> s0 [label="[Y] Yes"]');
  for (let i = 0; i + 1 < stages; i++) lines.push(`  s${i} -> s${i + 1}`);
  lines.push(`  s${stages - 1} -> exit`, '}', '');
  return lines.join('\n');
}

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

interface Memory {
  rss: number;
  heap: number;
}

/** RSS and heap in MB after the garbage is collected (three times, 100 ms apart). */
async function settled(): Promise<Memory> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(100);
  }
  const m = process.memoryUsage();
  return { rss: m.rss / MB, heap: m.heapUsed / MB };
}

/** Who follows the run: nobody, connections that never read, or clients that read every event. */
type Followers = { kind: 'none' } | { kind: 'stalled' | 'reading'; count: number };

/** One run's figures (ms and MB). */
interface StalledSample {
  runMs: number;
  secondHalfMs: number;
  before: Memory;
  /** Peaks; `newSpace`: the size of V8's young generation, which grows with the rate of allocation. */
  peak: Memory & { buffers: number; newSpace: number };
  /** The run over, the clients still connected. */
  end: Memory;
  /** The clients gone. */
  after: Memory;
  /** Streams that followed the run when it ended (the others were dropped). */
  followingAtEnd: number;
  /** When the first and the last stream were dropped, ms after the gate was answered. */
  firstDroppedAtMs?: number;
  allDroppedAtMs?: number;
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await sleep(5)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** From `s<half>` starting to the run's end, by the events' own times. */
function secondHalf(log: RunEventLog, stages: number): number {
  const half = `s${Math.floor(stages / 2)}`;
  let from: number | undefined;
  let to: number | undefined;
  for (const logged of log.since(0)) {
    const event = JSON.parse(logged.data) as { type: string; nodeId?: string; at: string };
    if (event.type === 'stage.started' && event.nodeId === half) from = Date.parse(event.at);
    if (event.type === 'pipeline.completed') to = Date.parse(event.at);
  }
  if (from === undefined || to === undefined) throw new Error('the run has no second half to time');
  return to - from;
}

async function runOnce(server: RunningServer, clients: Clients, source: string, stages: number, followers: Followers): Promise<StalledSample> {
  const before = await settled();
  const run = (await requestJson('POST', `${server.url}/pipelines`, { source }, 201)) as { id: string };
  await waitFor('the gate', async () => (await server.runs.questions(run.id)).length > 0);
  const [question] = await server.runs.questions(run.id);
  const log = await server.runs.events(run.id);
  const url = `${server.url}/pipelines/${encodeURIComponent(run.id)}/events`;
  let read: Promise<unknown> | undefined;
  if (followers.kind === 'stalled') {
    const stalled = clients.next('stalled');
    clients.send({ op: 'stall', url, clients: followers.count });
    await stalled;
  } else if (followers.kind === 'reading') {
    const ready = clients.next('ready');
    read = clients.next('fanout-done');
    clients.send({ op: 'fanout', url, clients: followers.count });
    await ready;
  }
  if (followers.kind !== 'none') await waitFor(`${followers.count} streams`, () => log.followers >= followers.count);
  const peak = { rss: 0, heap: 0, buffers: 0, newSpace: 0 };
  let following = log.followers;
  let firstDroppedAtMs: number | undefined;
  let allDroppedAtMs: number | undefined;
  const started = performance.now();
  const sample = () => {
    if (followers.kind !== 'none' && !log.ended) {
      following = log.followers;
      if (firstDroppedAtMs === undefined && following < followers.count) firstDroppedAtMs = performance.now() - started;
      if (allDroppedAtMs === undefined && following === 0) allDroppedAtMs = performance.now() - started;
    }
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss / MB);
    peak.heap = Math.max(peak.heap, m.heapUsed / MB);
    peak.buffers = Math.max(peak.buffers, m.arrayBuffers / MB);
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    peak.newSpace = Math.max(peak.newSpace, (young?.space_size ?? 0) / MB);
  };
  const sampler = setInterval(sample, 20);
  await requestJson('POST', `${server.url}/pipelines/${encodeURIComponent(run.id)}/questions/${encodeURIComponent(question!.id)}/answer`, { answer: 'Y' }, 200);
  await waitFor('the end of the run', () => log.ended, 600_000);
  const runMs = performance.now() - started;
  sample();
  clearInterval(sampler);
  const summary = (await requestJson('GET', `${server.url}/pipelines/${encodeURIComponent(run.id)}`, undefined, 200)) as { state: string };
  if (summary.state !== 'completed') throw new Error(`run ${run.id} ended ${summary.state}`);
  const end = await settled();
  if (followers.kind === 'stalled') {
    const released = clients.next('released');
    clients.send({ op: 'release' });
    await released;
  }
  await read;
  const after = await settled();
  return {
    runMs,
    secondHalfMs: secondHalf(log, stages),
    before,
    peak,
    end,
    after,
    followingAtEnd: following,
    ...(firstDroppedAtMs !== undefined ? { firstDroppedAtMs } : {}),
    ...(allDroppedAtMs !== undefined ? { allDroppedAtMs } : {}),
  };
}

const f0 = (v: number) => v.toFixed(0);

function parseStalledArgs(argv: readonly string[]): StalledArgs {
  return { ...parseRunArgs(argv, 3), clients: intFlag(argv, '--clients', 100), stages: intFlag(argv, '--stages', 200), deltas: intFlag(argv, '--deltas', 1500), reading: argv.includes('--reading') };
}

function followersOf(key: string, clients: number): Followers {
  if (key === 'none') return { kind: 'none' };
  if (key === 'stalled' || key === 'reading') return { kind: key, count: clients };
  throw new RangeError(`--stalled-case needs none, stalled or reading, got ${key}`);
}

/**
 * One case in a process of its own (`--stalled-case <key>`, forked by
 * {@link stalledMain}): a warm-up run with no client, then the measured run;
 * prints its {@link StalledSample} as one JSON line. A process per run keeps
 * one case's garbage and grown heap out of the next one's figures.
 */
export async function stalledCaseMain(argv: readonly string[]): Promise<number> {
  const args = parseStalledArgs(argv);
  const followers = followersOf(argv[argv.indexOf('--stalled-case') + 1] ?? '', args.clients);
  // The run directory on tmpfs where there is one: the disk's stalls are not what is measured.
  const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'orchestra-stalled-bench-'));
  const server = await startServer({ runsDir: root, port: 0, backendFor: async () => streamingBackend(args.deltas) });
  const clients = new Clients();
  try {
    const source = gatedChain(args.stages);
    await runOnce(server, clients, source, args.stages, { kind: 'none' });
    console.log(JSON.stringify(await runOnce(server, clients, source, args.stages, followers)));
    return 0;
  } finally {
    clients.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs one case in a fresh process (this script with `--stalled-case`); its sample. */
function caseInProcess(key: string, argv: readonly string[]): Promise<StalledSample> {
  return new Promise((resolve, reject) => {
    const script = process.argv[1] as string;
    const child = spawn(process.execPath, ['--expose-gc', script, ...argv, '--stalled-case', key], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`the ${key} case exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() as string) as StalledSample);
    });
  });
}

/** The stalled-clients benchmark; the exit code. */
export async function stalledMain(argv: readonly string[]): Promise<number> {
  let args: StalledArgs;
  try {
    args = parseStalledArgs(argv);
  } catch (error) {
    console.error(`bench:server: ${(error as Error).message}`);
    return 2;
  }
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const benchStarted = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const caseArgs = ['--clients', String(args.clients), '--stages', String(args.stages), '--deltas', String(args.deltas)];
  const cases: { key: string; label: string }[] = [
    { key: 'none', label: 'no client' },
    { key: 'stalled', label: `${args.clients} stalled clients` },
    ...(args.reading ? [{ key: 'reading', label: `${args.clients} reading clients` }] : []),
  ];
  const samples: Record<string, StalledSample[]> = Object.fromEntries(cases.map((c) => [c.key, []]));
  progress(`bench:server --stalled: ${args.stages} stages streaming ${args.deltas} pieces each; ${args.runs} rounds of ${cases.map((c) => c.key).join(', ')}, each run in a fresh process after a warm-up run`);
  for (let round = 0; round < args.runs; round++) {
    for (const c of round % 2 === 1 ? [...cases].reverse() : cases) {
      const s = await caseInProcess(c.key, caseArgs);
      samples[c.key]!.push(s);
      const dropped = s.firstDroppedAtMs === undefined ? '' : ` (dropped ${f0(s.firstDroppedAtMs)}–${s.allDroppedAtMs === undefined ? '…' : f0(s.allDroppedAtMs)} ms)`;
      progress(
        `  round ${round + 1} ${c.key}: run ${f0(s.runMs)} ms, second half ${f0(s.secondHalfMs)} ms; RSS ${f0(s.before.rss)} → peak ${f0(s.peak.rss)} → end ${f0(s.end.rss)} → after ${f0(s.after.rss)} MB; heap ${f0(s.before.heap)} → peak ${f0(s.peak.heap)} → end ${f0(s.end.heap)} → after ${f0(s.after.heap)} MB; buffers peak ${s.peak.buffers.toFixed(1)} MB, young generation peak ${f0(s.peak.newSpace)} MB; ${s.followingAtEnd} streams at the end${dropped}`,
      );
    }
  }
  const stat = (key: string, pick: (s: StalledSample) => number): Stats => summarize(samples[key]!.map(pick));
  const figures = {
    runMs: (s: StalledSample) => s.runMs,
    secondHalfMs: (s: StalledSample) => s.secondHalfMs,
    peakRssMb: (s: StalledSample) => s.peak.rss,
    peakHeapMb: (s: StalledSample) => s.peak.heap,
    peakYoungMb: (s: StalledSample) => s.peak.newSpace,
    endRssMb: (s: StalledSample) => s.end.rss,
    endHeapMb: (s: StalledSample) => s.end.heap,
    afterRssMb: (s: StalledSample) => s.after.rss,
    afterHeapMb: (s: StalledSample) => s.after.heap,
  };
  type Figure = keyof typeof figures;
  const report = Object.fromEntries(cases.map((c) => [c.key, Object.fromEntries(Object.entries(figures).map(([name, pick]) => [name, stat(c.key, pick)])) as Record<Figure, Stats>]));
  const ratios = Object.fromEntries((Object.keys(figures) as Figure[]).map((name) => [name, report.stalled![name].median / report.none![name].median]));
  const seconds = (performance.now() - benchStarted) / 1000;
  if (args.json) {
    console.log(JSON.stringify({ node: process.version, cpus: cpus().length, load: { start: loadAtStart, end: loadavg()[0] ?? 0 }, seconds, clients: args.clients, stages: args.stages, deltas: args.deltas, perTick: PER_TICK, rounds: args.runs, cases: report, stalledOverNone: ratios, samples }));
    return 0;
  }
  console.log(`orchestra server benchmark, stalled clients (node ${process.version}; load ${loadAtStart.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)} on ${cpus().length} CPUs; ${seconds.toFixed(0)} s)`);
  console.log(`  ${args.stages} stages, each streaming ${args.deltas} llm.delta pieces (${PER_TICK} per ms); ms and MB, median (min–max) over ${args.runs} rounds, each run in a fresh process after a warm-up run`);
  const rows: [Figure, string][] = [
    ['runMs', 'run (gate answered → end)'],
    ['secondHalfMs', 'second half of the run'],
    ['peakRssMb', 'peak RSS'],
    ['peakHeapMb', 'peak heap'],
    ['peakYoungMb', 'peak young generation (V8 new space)'],
    ['endRssMb', 'RSS at the end (clients connected)'],
    ['endHeapMb', 'heap at the end (clients connected)'],
    ['afterRssMb', 'RSS once the clients closed'],
    ['afterHeapMb', 'heap once the clients closed'],
  ];
  console.log(`    ${''.padEnd(38)}${cases.map((c) => c.label.padEnd(26)).join('')}stalled ÷ none`);
  for (const [name, label] of rows) console.log(`    ${label.padEnd(38)}${cases.map((c) => formatSpread(report[c.key]![name]).padEnd(26)).join('')}×${ratios[name]!.toFixed(2)}`);
  return 0;
}
