/**
 * Server benchmark: `npx pnpm@10.34.8 --filter @orchestra/bench bench:server [--json] [--runs N]
 * [--clients N] [--nodes N] [--at-once N] [--at-once-nodes N] [--dir DIR] [--fanout-on tmpfs|disk]`
 * (what each figure means: README.md, "Server benchmark"). With `--stalled [--clients N]
 * [--stages N] [--deltas N]` it measures stalled clients instead (server-stalled.ts).
 *
 * 1. SSE fan-out: `--clients` (100) event streams, in a child process, on one
 *    run of the HTTP server (run directory on tmpfs where there is one, or
 *    `--fanout-on disk`) that waits at a human gate; then the gate is
 *    answered and the run goes through a linear chain of `--nodes` (200) LLM
 *    stages, simulated (as fast as the engine goes) and paced (each stage
 *    waits a few ms, as a slow stage would), each also with 1 client (the
 *    baselines). For every recorded event: the
 *    time from the moment the run's event log delivered it in the server's
 *    process to its arrival at each client, on a clock both processes share.
 * 2. `--at-once` (50) simulated runs started at once through the API (concurrent
 *    POSTs from the child process, each followed over SSE to its `end`) against
 *    the same runs through the library in one process (Promise.all of
 *    runPipeline, FileRunStore in the same directory tree), and against
 *    MemoryRunStore (no disk: the floor).
 *
 * Progress goes to stderr. Reported, not judged: exits 0, 1 when a run or a
 * stream gives a wrong result, 2 on bad arguments.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadPipeline, runPipeline, simulationBackend, type CodergenBackend, type Graph, type RunResult } from '@orchestra/core';
import { startServer, type RunningServer } from '@orchestra/server';
import { MemoryRunStore, generateLinearPipeline } from '@orchestra/testing';
import { formatSpread, parseRunArgs, type RunArgs } from './args.js';
import { summarize, type Stats } from './measure.js';
import { Clients } from './server-clients.js';
import { stalledCaseMain, stalledMain } from './server-stalled.js';
import { requestJson, sharedNow, type StreamRecord } from './server-sse.js';
import { describeFileSystem } from './store-places.js';

/** How long each stage of the paced chain waits (a timer), so events come as a steady stream. */
export const PACE_MS = 5;

interface ServerArgs extends RunArgs {
  clients: number;
  nodes: number;
  atOnce: number;
  /** Stages of each of the runs started at once. */
  atOnceNodes: number;
  dir: string;
  /** Where the fan-out's run goes (tmpfs when there is one, unless `--fanout-on disk`). */
  fanOutOn: 'tmpfs' | 'disk';
}

function intFlag(argv: readonly string[], flag: string, fallback: number): number {
  const at = argv.indexOf(flag);
  if (at === -1) return fallback;
  const value = argv[at + 1];
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 1) throw new RangeError(`${flag} needs a positive integer, got ${value ?? 'nothing'}`);
  return n;
}

function parseServerArgs(argv: readonly string[]): ServerArgs {
  const base = parseRunArgs(argv, 3);
  const at = argv.indexOf('--dir');
  const dir = at === -1 ? tmpdir() : argv[at + 1];
  if (dir === undefined || dir.startsWith('--')) throw new RangeError('--dir needs a directory');
  const on = argv.indexOf('--fanout-on');
  const fanOutOn = on === -1 ? 'tmpfs' : argv[on + 1];
  if (fanOutOn !== 'tmpfs' && fanOutOn !== 'disk') throw new RangeError(`--fanout-on needs tmpfs or disk, got ${fanOutOn ?? 'nothing'}`);
  return {
    ...base,
    clients: intFlag(argv, '--clients', 100),
    nodes: intFlag(argv, '--nodes', 200),
    atOnce: intFlag(argv, '--at-once', 50),
    atOnceNodes: intFlag(argv, '--at-once-nodes', 20),
    dir,
    fanOutOn,
  };
}

/** start → gate (a human gate, one option) → s0 → … → s<n-1> → exit. */
function gatedChain(nodes: number): string {
  const lines = ['digraph FanOut {', '  graph [goal="Measure the event streams"]', '  start [shape=Mdiamond]', '  exit [shape=Msquare]', '  gate [shape=hexagon, label="Go?"]'];
  for (let i = 0; i < nodes; i++) lines.push(`  s${i} [label="Stage ${i}", prompt="Do step ${i} of $goal"]`);
  lines.push('  start -> gate', '  gate -> s0 [label="[Y] Yes"]');
  for (let i = 0; i + 1 < nodes; i++) lines.push(`  s${i} -> s${i + 1}`);
  lines.push(`  s${nodes - 1} -> exit`, '}', '');
  return lines.join('\n');
}

/** An LLM backend whose every stage waits {@link PACE_MS} ms on a timer (the event loop is free meanwhile). */
const pacedBackend: CodergenBackend = {
  run: async ({ node }) => {
    await sleep(PACE_MS);
    return `[Paced] Response for stage: ${node.id}`;
  },
};

// ---------------------------------------------------------------------------
// 1. SSE fan-out.

/** p50, p99 and max of a list of latencies (nearest rank), in ms. */
interface Spread {
  p50: number;
  p99: number;
  max: number;
}

function spread(values: number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
  return { p50: rank(50), p99: rank(99), max: sorted[sorted.length - 1] as number };
}

interface FanOutSample {
  /** Events measured (recorded events after the gate was answered). */
  events: number;
  /** Latency of each event to the last client that got it. */
  perEvent: Spread;
  /** Latency of every (event, client) delivery. */
  perDelivery: Spread;
  /** First measured event's emit to the last event's emit: how long the measured stretch of the run took. */
  emitSpanMs: number;
  clockOffsetMs: number;
  clockHalfRttMs: number;
}

async function fanOutOnce(server: RunningServer, clients: Clients, source: string, simulate: boolean, count: number): Promise<FanOutSample> {
  const run = (await requestJson('POST', `${server.url}/pipelines`, { source, ...(simulate ? { simulate: true } : {}) }, 201)) as { id: string };
  const id = run.id;
  let questions = await server.runs.questions(id);
  for (let waited = 0; questions.length === 0; waited += 5) {
    if (waited > 10_000) throw new Error(`run ${id} did not reach its gate`);
    await sleep(5);
    questions = await server.runs.questions(id);
  }
  const log = await server.runs.events(id);
  // The benchmark's listener follows first, so it sees each event before any stream does.
  const emitted = new Map<number, number>();
  const unfollow = log.follow(log.size, {
    event: (e) => {
      if (e.id !== undefined) emitted.set(e.id, sharedNow());
    },
    end: () => {},
  });
  try {
    const clock = await clients.clockOffset();
    const ready = clients.next('ready');
    const finished = clients.next('fanout-done');
    clients.send({ op: 'fanout', url: `${server.url}/pipelines/${encodeURIComponent(id)}/events`, clients: count });
    await ready;
    if (log.followers !== count + 1) throw new Error(`${log.followers - 1} streams follow run ${id}, expected ${count}`);
    const first = log.size + 1;
    await requestJson('POST', `${server.url}/pipelines/${encodeURIComponent(id)}/questions/${encodeURIComponent(questions[0]!.id)}/answer`, { answer: 'Y' }, 200);
    const { streams } = await finished;
    for (let waited = 0; !log.ended; waited += 5) {
      if (waited > 10_000) throw new Error(`run ${id} did not end`);
      await sleep(5);
    }
    const summary = (await requestJson('GET', `${server.url}/pipelines/${encodeURIComponent(id)}`, undefined, 200)) as { state: string };
    if (summary.state !== 'completed') throw new Error(`run ${id} ended ${summary.state}`);
    const last = log.size;
    if (last < first) throw new Error(`run ${id} recorded nothing after its gate`);
    return { ...latencies(streams, emitted, first, last, clock.offset), clockOffsetMs: clock.offset, clockHalfRttMs: clock.halfRtt };
  } finally {
    unfollow();
  }
}

function latencies(streams: StreamRecord[], emitted: Map<number, number>, first: number, last: number, offset: number): Omit<FanOutSample, 'clockOffsetMs' | 'clockHalfRttMs'> {
  const events = last - first + 1;
  const emit = new Float64Array(events);
  for (let id = first; id <= last; id++) {
    const t = emitted.get(id);
    if (t === undefined) throw new Error(`event ${id} was not seen by the benchmark's listener`);
    emit[id - first] = t;
  }
  const lastArrival = new Float64Array(events).fill(-Infinity);
  const deliveries: number[] = [];
  streams.forEach((s, c) => {
    if (!s.ended) throw new Error(`client ${c} did not get the end event`);
    const from = s.ids.indexOf(first);
    const got = from === -1 ? 0 : s.ids.length - from;
    if (got !== events) throw new Error(`client ${c} got ${got} of the ${events} events after the gate`);
    for (let k = 0; k < events; k++) {
      if (s.ids[from + k] !== first + k) throw new Error(`client ${c}: event ${s.ids[from + k]} where ${first + k} was expected`);
      const latency = (s.at[from + k] as number) - offset - (emit[k] as number);
      deliveries.push(latency);
      if (latency > (lastArrival[k] as number)) lastArrival[k] = latency;
    }
  });
  return { events, perEvent: spread(Array.from(lastArrival)), perDelivery: spread(deliveries), emitSpanMs: (emit[events - 1] as number) - (emit[0] as number) };
}

// ---------------------------------------------------------------------------
// 2. Runs at once.

async function apiRunsOnce(server: RunningServer, clients: Clients, source: string, count: number): Promise<number> {
  const done = clients.next('runs-done');
  clients.send({ op: 'runs', url: server.url, source, count });
  const { ms, ids, states } = await done;
  if (ids.length !== count || new Set(ids).size !== count) throw new Error(`${new Set(ids).size} distinct runs started, expected ${count}`);
  const wrong = states.filter((s) => s !== 'completed');
  if (wrong.length) throw new Error(`${wrong.length} runs through the API did not complete (${wrong.slice(0, 3).join(', ')})`);
  return ms;
}

let libraryRuns = 0;

/** `count` runs of `source` through runPipeline at once, each in its own run directory under `base` (MemoryRunStore without one). */
async function libraryRunsOnce(source: string, count: number, nodes: number, base: string | undefined): Promise<number> {
  const batch = libraryRuns++;
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: count }, (_, i): Promise<RunResult> => {
      const graph = loadPipeline(source).graph as Graph;
      return runPipeline(graph, { backend: simulationBackend, source, ...(base ? { logsRoot: join(base, `batch-${batch}`, `run-${i}`) } : { store: new MemoryRunStore() }) });
    }),
  );
  const ms = performance.now() - started;
  for (const r of results) {
    if (r.status !== 'success' || r.completedNodes.length !== nodes + 2) throw new Error(`a library run ended ${r.status} after ${r.completedNodes.length} nodes${r.failureReason ? `: ${r.failureReason}` : ''}`);
  }
  return ms;
}

// ---------------------------------------------------------------------------

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1));
const pad = (s: string, n: number) => s.padEnd(n);

/** Where the runs at once go: a server and a library directory on one file system. */
interface Place {
  name: 'disk' | 'tmpfs';
  root: string;
  fileSystem: string;
  server: RunningServer;
  libraryDir: string;
}

async function openPlace(name: Place['name'], parent: string): Promise<Place> {
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(join(parent, 'orchestra-server-bench-'));
  const runsDir = join(root, 'server-runs');
  const libraryDir = join(root, 'library-runs');
  mkdirSync(runsDir);
  mkdirSync(libraryDir);
  // Non-simulated runs (the paced chain) get the paced backend.
  const server = await startServer({ runsDir, port: 0, backendFor: async () => pacedBackend });
  return { name, root, fileSystem: describeFileSystem(root), server, libraryDir };
}

/** A fan-out case: the chain simulated or paced, with some number of clients. */
interface FanOutCase {
  key: string;
  label: string;
  simulate: boolean;
  clients: number;
}

/** A runs-at-once case. */
interface AtOnceCase {
  key: string;
  label: string;
  run: () => Promise<number>;
}

async function main(): Promise<number> {
  if (process.argv.includes('--stalled-case')) return stalledCaseMain(process.argv.slice(2));
  if (process.argv.includes('--stalled')) return stalledMain(process.argv.slice(2));
  let args: ServerArgs;
  try {
    args = parseServerArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench:server: ${(error as Error).message}`);
    return 2;
  }
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const benchStarted = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const places: Place[] = [];
  let clients: Clients | undefined;
  try {
    places.push(await openPlace('disk', args.dir));
    if (existsSync('/dev/shm')) places.push(await openPlace('tmpfs', '/dev/shm'));
    const fanPlace = places.find((p) => p.name === args.fanOutOn) ?? (places[0] as Place);
    clients = new Clients();
    const c = clients;

    // 1. Fan-out (run directories are kept until the end: removing them during the benchmark slows the disk).
    const fanSource = gatedChain(args.nodes);
    const fanCases: FanOutCase[] = [
      { key: 'simulated', label: `simulated chain (as fast as the engine goes), ${args.clients} clients`, simulate: true, clients: args.clients },
      { key: 'paced', label: `paced chain (each stage waits ${PACE_MS} ms), ${args.clients} clients`, simulate: false, clients: args.clients },
      { key: 'simulated1', label: 'simulated chain, 1 client (baseline)', simulate: true, clients: 1 },
      { key: 'paced1', label: 'paced chain, 1 client (baseline)', simulate: false, clients: 1 },
    ];
    progress(`bench:server: SSE fan-out, ${args.nodes}-stage chain behind a gate; 1 warm-up run, then ${args.runs} rounds of ${fanCases.map((f) => f.key).join(', ')}`);
    const fan: Record<string, FanOutSample[]> = Object.fromEntries(fanCases.map((f) => [f.key, []]));
    for (let round = -1; round < args.runs; round++) {
      const order = round < 0 ? fanCases.slice(0, 1) : round % 2 === 1 ? [...fanCases].reverse() : fanCases;
      for (const f of order) {
        const sample = await fanOutOnce(fanPlace.server, c, fanSource, f.simulate, f.clients);
        if (round >= 0) fan[f.key]!.push(sample);
        progress(
          `  ${round < 0 ? 'warm-up' : `round ${round + 1}`} ${f.key}: ${sample.events} events in ${fmt(sample.emitSpanMs)} ms; per event p50 ${fmt(sample.perEvent.p50)} p99 ${fmt(sample.perEvent.p99)} max ${fmt(sample.perEvent.max)} ms (clock offset ${sample.clockOffsetMs.toFixed(3)} ± ${sample.clockHalfRttMs.toFixed(3)} ms)`,
        );
      }
    }

    // 2. Runs at once.
    const atOnceSource = generateLinearPipeline(args.atOnceNodes);
    const atOnceCases: AtOnceCase[] = [];
    for (const p of places) {
      atOnceCases.push(
        { key: `api-${p.name}`, label: `${p.name}: API, ${args.atOnce} POSTs at once, each followed over SSE to its end`, run: () => apiRunsOnce(p.server, c, atOnceSource, args.atOnce) },
        { key: `library-${p.name}`, label: `${p.name}: library, Promise.all of ${args.atOnce} runPipeline (FileRunStore)`, run: () => libraryRunsOnce(atOnceSource, args.atOnce, args.atOnceNodes, p.libraryDir) },
      );
    }
    atOnceCases.push({ key: 'memory', label: 'library with MemoryRunStore (no files: the floor)', run: () => libraryRunsOnce(atOnceSource, args.atOnce, args.atOnceNodes, undefined) });
    // The warm-up round skips the disk (the JIT does not care where files go; the disk would take seconds).
    const warmCases = atOnceCases.filter((a) => !a.key.endsWith('-disk'));
    progress(`bench:server: ${args.atOnce} runs at once (${args.atOnceNodes}-stage simulated chain); 1 warm-up round, then ${args.runs} rounds of ${atOnceCases.map((a) => a.key).join(', ')}`);
    const atOnce: Record<string, number[]> = Object.fromEntries(atOnceCases.map((a) => [a.key, []]));
    for (let round = -1; round < args.runs; round++) {
      const order = round < 0 ? warmCases : round % 2 === 1 ? [...atOnceCases].reverse() : atOnceCases;
      const line: string[] = [];
      for (const a of order) {
        const ms = await a.run();
        if (round >= 0) atOnce[a.key]!.push(ms);
        line.push(`${a.key} ${fmt(ms)}`);
      }
      progress(`  ${round < 0 ? 'warm-up' : `round ${round + 1}`}: ${line.join(', ')} ms`);
    }

    // Report.
    const load = loadavg()[0] ?? 0;
    const seconds = (performance.now() - benchStarted) / 1000;
    const over = (list: FanOutSample[], pick: (s: FanOutSample) => number) => summarize(list.map(pick));
    const fanStats = Object.fromEntries(
      fanCases.map((f) => {
        const list = fan[f.key]!;
        const of = (which: 'perEvent' | 'perDelivery') => ({ p50: over(list, (x) => x[which].p50), p99: over(list, (x) => x[which].p99), max: over(list, (x) => x[which].max) });
        return [f.key, { clients: f.clients, simulated: f.simulate, events: list[0]!.events, runMs: over(list, (x) => x.emitSpanMs), perEvent: of('perEvent'), perDelivery: of('perDelivery') }];
      }),
    );
    const all = Object.values(fan).flat();
    const clockOffsetMax = Math.max(...all.map((x) => Math.abs(x.clockOffsetMs)));
    const clockBoundMax = Math.max(...all.map((x) => x.clockHalfRttMs));
    const atOnceStats: Record<string, Stats> = Object.fromEntries(atOnceCases.map((a) => [a.key, summarize(atOnce[a.key]!)]));
    const ratios = Object.fromEntries(places.map((p) => [p.name, atOnceStats[`api-${p.name}`]!.median / atOnceStats[`library-${p.name}`]!.median]));
    const floorRatios = Object.fromEntries(places.map((p) => [p.name, atOnceStats[`library-${p.name}`]!.median / atOnceStats.memory!.median]));
    const fileSystems = Object.fromEntries(places.map((p) => [p.name, `${p.root}: ${p.fileSystem}`]));
    if (args.json) {
      console.log(
        JSON.stringify({
          node: process.version,
          cpus: cpus().length,
          load: { start: loadAtStart, end: load },
          fileSystems,
          seconds,
          fanOut: { nodes: args.nodes, paceMs: PACE_MS, rounds: args.runs, clientsIn: 'child process', place: fanPlace.name, clockOffsetMaxMs: clockOffsetMax, clockBoundMaxMs: clockBoundMax, cases: fanStats, samples: fan },
          atOnce: { runs: args.atOnce, nodes: args.atOnceNodes, rounds: args.runs, clientsIn: 'child process', cases: atOnceStats, apiOverLibrary: ratios, libraryOverMemory: floorRatios },
        }),
      );
      return 0;
    }
    console.log(`orchestra server benchmark (node ${process.version}; load ${loadAtStart.toFixed(2)} → ${load.toFixed(2)} on ${cpus().length} CPUs; ${seconds.toFixed(0)} s)`);
    for (const p of places) console.log(`  ${p.name}: run directories under ${p.root}, ${p.fileSystem}`);
    console.log(`SSE fan-out: clients in a child process (node:http, one connection each) follow one run (run directory on ${fanPlace.name}): a human gate, answered once all are connected, then ${args.nodes} LLM stages.`);
    console.log(`  ms from the run's event log in the server process to arrival at the client, on a clock both processes share`);
    console.log(`  (offset between them measured ≤ ${clockOffsetMax.toFixed(3)} ms ± ${clockBoundMax.toFixed(3)}, corrected); median (min–max) over ${args.runs} rounds, after one warm-up run`);
    console.log(`      ${pad('', 36)}${pad('p50', 22)}${pad('p99', 22)}max`);
    for (const f of fanCases) {
      const s = fanStats[f.key]!;
      console.log(`    ${f.label}: ${s.events} events; the run after the gate took ${formatSpread(s.runMs)} ms`);
      for (const [which, name] of [
        ['perEvent', 'per event (to its last client)'],
        ['perDelivery', `per delivery (each event × client)`],
      ] as const) {
        const x = s[which];
        console.log(`      ${pad(name, 36)}${pad(formatSpread(x.p50, 2), 22)}${pad(formatSpread(x.p99, 2), 22)}${formatSpread(x.max, 2)}`);
      }
    }
    console.log(`${args.atOnce} runs at once: ${args.atOnceNodes}-stage linear chain (generateLinearPipeline), simulated; wall time in ms, median (min–max) over ${args.runs} rounds after a warm-up round, cases interleaved`);
    for (const a of atOnceCases) console.log(`    ${pad(a.label, 76)}${formatSpread(atOnceStats[a.key]!)}`);
    console.log(`    API ÷ library: ${places.map((p) => `${p.name} ×${ratios[p.name]!.toFixed(2)}`).join(', ')}; library ÷ MemoryRunStore: ${places.map((p) => `${p.name} ×${floorRatios[p.name]!.toFixed(2)}`).join(', ')}`);
    return 0;
  } finally {
    clients?.close();
    for (const p of places) {
      await p.server.close();
      rmSync(p.root, { recursive: true, force: true });
    }
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`bench:server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
