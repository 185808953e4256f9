/**
 * Store benchmark: `npx pnpm@10.34.8 --filter @orchestra/bench bench:store [--json] [--runs N] ...`
 * (flags: see store-args.ts; what each figure means: README.md, "Store benchmark").
 *
 * Per-node cost of orchestra on a chain of nodes that need no backend, with
 * MemoryRunStore (in process) and FileRunStore (tmpfs and the project disk),
 * side by side with LangGraph.js on the same chain (MemorySaver, SqliteSaver
 * on the same disks) and with the file-system floor of what the file store
 * writes per node; then the peak RSS of a 100,000-node chain (child
 * processes) and the wall time of a 1,000- and a 10,000-branch fan-out;
 * then PostgreSQL beside the file store (`PostgresRunStore` with the data
 * directory on tmpfs and on disk, on a 1,000-stage simulated chain, with the
 * database's INSERT round trip as its floor; `--postgres-only` runs just that).
 * Progress goes to stderr. Exits 0 whether or not the targets are met
 * (a missed one is printed as MISSED), 1 when a run gives a wrong result,
 * 2 on bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Graph } from '@orchestra/core';
import { parseStoreArgs, type StoreArgs } from './store-args.js';
import type { ChildReport } from './store-child.js';
import { benchRegistry, chainGraph, fanOutGraph } from './store-graphs.js';
import { langGraphChain, loadSqliteSaver, memorySaver, timeLangGraph, type ChainBuilder, type SqliteLoad } from './store-langgraph.js';
import { collectGarbage, measureGroup, type AsyncCase, type CaseResult } from './store-measure.js';
import { fileStoreMaker, memoryStoreMaker, timeFanOut, timeFloor, timeOrchestraChain } from './store-orchestra.js';
import { storePlaces, type Place } from './store-places.js';
import { runPostgresSection, type PostgresSectionResult } from './store-postgres-section.js';
import { postgresTable } from './store-postgres-report.js';
import { summarize, type Stats } from './measure.js';

/** Targets of the store benchmark. */
export const STORE_TARGETS = {
  /** orchestra + MemoryRunStore, µs per node. */
  memoryMicros: 30,
  /** orchestra + FileRunStore on tmpfs, µs per node. */
  tmpfsMicros: 150,
  /** LangGraph + MemorySaver time / orchestra + MemoryRunStore time. */
  vsMemorySaver: 10,
  /** LangGraph + SqliteSaver time / orchestra + FileRunStore time, same disk. */
  vsSqlite: 3,
  /** Peak RSS of the 100,000-node chain, MB. */
  peakRssMb: 250,
  /** Fan-out wall time, widest / narrowest, at most their width ratio (10,000 / 1,000 → ×10). */
} as const;

const CASES = {
  orchestraMemory: 'orchestra + MemoryRunStore',
  langgraphMemory: 'LangGraph + MemorySaver',
  floor: 'floor (fs calls only)',
  orchestraFile: 'orchestra + FileRunStore',
  orchestraFileSync: 'orchestra + FileRunStore (syncEveryNode)',
  langgraphSqlite: 'LangGraph + SqliteSaver',
} as const;

let args: StoreArgs;
try {
  args = parseStoreArgs(process.argv.slice(2));
} catch (error) {
  console.error(`bench:store: ${(error as Error).message}`);
  process.exit(2);
}
const progress = (line: string) => process.stderr.write(`${line}\n`);
const benchStarted = performance.now();
const loadAtStart = loadavg();
const registry = benchRegistry();
const places = storePlaces(args.diskDir);

/** PostgreSQL beside the file store (store-postgres-section.ts); undefined when it failed (exit code 1). */
async function measurePostgres(): Promise<PostgresSectionResult | undefined> {
  try {
    return await runPostgresSection({ nodes: args.postgresNodes, places, warmup: args.warmup, runs: args.runs, progress });
  } catch (error) {
    console.error(`bench:store: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
    return undefined;
  }
}

if (args.postgresOnly) {
  const section = await measurePostgres();
  if (section && args.json) console.log(JSON.stringify({ node: process.version, runs: args.runs, warmup: args.warmup, cores: cpus().length, loadAtStart, loadAtEnd: loadavg(), postgres: section }));
  else if (section) {
    const { lines } = postgresTable(section, args.runs, args.warmup);
    console.log([`orchestra store benchmark, PostgreSQL only (node ${process.version}; ${cpus().length} cores; load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')})`, '', ...lines, '', `total bench time ${((performance.now() - benchStarted) / 1000).toFixed(0)} s; load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`].join('\n'));
  }
  process.exit();
}

// ---------------------------------------------------------------------------
// What is available.

const memoryMaker = await memoryStoreMaker();
let sqlite: SqliteLoad | undefined;
let sqlitePragmas = '';
if (!args.noLanggraph && !args.noSqlite) {
  sqlite = await loadSqliteSaver(progress);
  if (sqlite.ok) {
    const probe = sqlite.module.SqliteSaver.fromConnString(':memory:');
    // Same as on a file, except journal_mode (the saver sets WAL, which an in-memory database reports as "memory").
    sqlitePragmas = `synchronous=${String(probe.db.pragma('synchronous', { simple: true }))} (0 off, 1 normal, 2 full)`;
    probe.db.close();
  } else {
    progress(`LangGraph SqliteSaver not available:\n${sqlite.reason}`);
  }
}

// ---------------------------------------------------------------------------
// Per-node cost on chains.

const lgMeasured = args.noLanggraph ? [] : args.langgraphSizes;
const allSizes = [...new Set([...args.sizes, ...lgMeasured])].sort((a, b) => a - b);
const chains = new Map<number, Graph>();
const chainOf = (n: number) => chains.get(n) ?? (chains.set(n, chainGraph(n)), chains.get(n) as Graph);
const builders = new Map<number, ChainBuilder>();
const builderOf = (n: number) => builders.get(n) ?? (builders.set(n, langGraphChain(n)), builders.get(n) as ChainBuilder);

/** LangGraph's warm-up is shorter: its runs take seconds, JIT warm-up is a small part of them. */
const LANGGRAPH_WARMUP = { warmupNodes: 200, maxWarmupRuns: 2 };
/** Where the warm-up runs of file-based cases write: tmpfs when there is one (the JIT does not care; the slow disk would). */
const warmPlace = places.find((p) => p.name === 'tmpfs') ?? (places[0] as Place);
const bases = new Map<Place['name'], string>(places.map((p) => [p.name, mkdtempSync(join(p.dir, 'orchestra-store-bench-'))]));
let sqliteFiles = 0;
let sqliteJournalMode = '';

/** Results by group (`memory`, `tmpfs`, `disk`), case name and size. */
const results = new Map<string, Map<string, Map<number, CaseResult>>>();
function record(group: string, list: readonly CaseResult[]): void {
  const byCase = results.get(group) ?? new Map<string, Map<number, CaseResult>>();
  results.set(group, byCase);
  for (const r of list) {
    const bySize = byCase.get(r.name) ?? new Map<number, CaseResult>();
    byCase.set(r.name, bySize);
    bySize.set(r.nodes, r);
  }
}

function memoryCases(n: number): AsyncCase[] {
  const cases: AsyncCase[] = [];
  if (memoryMaker && args.sizes.includes(n)) cases.push({ name: CASES.orchestraMemory, run: (k) => timeOrchestraChain(chainOf(k), k, registry, memoryMaker) });
  if (lgMeasured.includes(n)) cases.push({ name: CASES.langgraphMemory, run: (k) => timeLangGraph(builderOf(k).compile({ checkpointer: memorySaver() }), k), ...LANGGRAPH_WARMUP });
  return cases;
}

function placeCases(place: Place, n: number): AsyncCase[] {
  const base = bases.get(place.name) as string;
  const cases: AsyncCase[] = [];
  const warmBase = bases.get(warmPlace.name) as string;
  if (args.sizes.includes(n)) {
    cases.push({ name: CASES.floor, run: async (k) => timeFloor(base, k), warm: async (k) => timeFloor(warmBase, k) });
    cases.push({
      name: CASES.orchestraFile,
      run: (k) => timeOrchestraChain(chainOf(k), k, registry, fileStoreMaker(base)),
      warm: (k) => timeOrchestraChain(chainOf(k), k, registry, fileStoreMaker(warmBase)),
    });
    if (args.syncEveryNode) {
      cases.push({
        name: CASES.orchestraFileSync,
        run: (k) => timeOrchestraChain(chainOf(k), k, registry, fileStoreMaker(base, true)),
        warm: (k) => timeOrchestraChain(chainOf(k), k, registry, fileStoreMaker(warmBase, true)),
      });
    }
  }
  if (sqlite?.ok && lgMeasured.includes(n)) {
    const { SqliteSaver } = sqlite.module;
    cases.push({
      name: CASES.langgraphSqlite,
      ...LANGGRAPH_WARMUP,
      run: async (k) => {
        const file = join(base, `langgraph-${process.pid}-${sqliteFiles++}.sqlite`);
        const saver = SqliteSaver.fromConnString(file);
        try {
          const sample = await timeLangGraph(builderOf(k).compile({ checkpointer: saver }), k);
          sqliteJournalMode ||= String(saver.db.pragma('journal_mode', { simple: true }));
          return sample;
        } finally {
          saver.db.close();
          for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
        }
      },
    });
  }
  return cases;
}

try {
  for (const n of allSizes) {
    const memory = memoryCases(n);
    if (memory.length) {
      progress(`in process, ${n.toLocaleString('en-US')} nodes: ${memory.map((c) => c.name).join(', ')}`);
      record('memory', await measureGroup(memory, n, args.warmup, args.runs, progress));
    }
    for (const place of places) {
      const cases = placeCases(place, n);
      if (!cases.length) continue;
      progress(`${place.name} (${place.dir}), ${n.toLocaleString('en-US')} nodes: ${cases.map((c) => c.name).join(', ')}`);
      record(place.name, await measureGroup(cases, n, args.warmup, args.runs, progress));
    }
  }
} catch (error) {
  console.error(`bench:store: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
}
chains.clear();
builders.clear();
collectGarbage();

// ---------------------------------------------------------------------------
// Peak RSS of a long chain, each store in a child process.

const childScript = fileURLToPath(new URL('./store-child.mjs', import.meta.url));
const rssPlace = places.find((p) => p.name === 'tmpfs') ?? (places[0] as Place);
interface RssResult {
  store: 'memory' | 'file';
  report?: ChildReport;
  error?: string;
}
const rss: RssResult[] = [];
if (process.exitCode === undefined && args.scaleNodes > 0) {
  for (const store of ['memory', 'file'] as const) {
    if (store === 'memory' && !memoryMaker) {
      rss.push({ store, error: 'MemoryRunStore is not exported by @orchestra/testing yet' });
      continue;
    }
    progress(`peak RSS: ${args.scaleNodes.toLocaleString('en-US')}-node chain, ${store} store, child process`);
    const child = spawnSync(process.execPath, ['--expose-gc', childScript, '--store', store, '--nodes', String(args.scaleNodes), '--dir', bases.get(rssPlace.name) as string], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    const line = child.stdout.trim().split('\n').pop() ?? '';
    try {
      if (child.status !== 0) throw new Error(`exit ${String(child.status ?? child.signal)}: ${child.stderr.trim().slice(-2000)}`);
      rss.push({ store, report: JSON.parse(line) as ChildReport });
    } catch (error) {
      rss.push({ store, error: (error as Error).message });
    }
  }
}

// ---------------------------------------------------------------------------
// Fan-out wall time with the file store.

const fanPlace = places.find((p) => p.name === args.fanoutPlace) ?? (places[0] as Place);
const fanout: { width: number; stats: Stats }[] = [];
if (process.exitCode === undefined && args.fanout.length > 0) {
  try {
    const widths = [...args.fanout].sort((a, b) => a - b);
    const graphs = new Map(widths.map((k) => [k, fanOutGraph(k)] as const));
    const make = fileStoreMaker(bases.get(fanPlace.name) as string);
    collectGarbage();
    for (let w = 0; w < args.warmup; w++) {
      const k = Math.min(widths[0] as number, 1_000);
      await timeFanOut(graphs.get(k) ?? fanOutGraph(k), k, registry, make);
    }
    // Widths alternate round by round; no forced collection between runs (see measureGroup).
    const samples = new Map<number, number[]>(widths.map((k) => [k, []]));
    for (let round = 0; round < args.runs; round++) {
      const order = round % 2 === 1 ? [...widths].reverse() : widths;
      for (const k of order) {
        const { ms } = await timeFanOut(graphs.get(k) as Graph, k, registry, make);
        samples.get(k)?.push(ms);
        progress(`  fan-out ${k.toLocaleString('en-US')} branches (${fanPlace.name}), run ${round + 1}/${args.runs}: ${ms.toFixed(0)} ms`);
      }
    }
    for (const k of widths) fanout.push({ width: k, stats: summarize(samples.get(k) as number[]) });
  } catch (error) {
    console.error(`bench:store: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  }
}
for (const base of bases.values()) rmSync(base, { recursive: true, force: true });

// ---------------------------------------------------------------------------
// PostgreSQL beside the file store.

const postgres = process.exitCode === undefined && !args.noPostgres ? await measurePostgres() : undefined;

// ---------------------------------------------------------------------------
// Report.

/** LangGraph's µs/node at `n`: measured, or extrapolated linearly in n from its two largest measured sizes below. */
function langGraphAt(group: string, name: string, n: number): { micros: number; result?: CaseResult; estimated: boolean } | undefined {
  const bySize = results.get(group)?.get(name);
  if (!bySize) return undefined;
  const measured = bySize.get(n);
  if (measured) return { micros: measured.median, result: measured, estimated: false };
  const points = [...bySize.values()].sort((a, b) => a.nodes - b.nodes);
  const [p1, p2] = points.slice(-2);
  if (!p1 || !p2 || n < p2.nodes) return undefined;
  const slope = Math.max(0, (p2.median - p1.median) / (p2.nodes - p1.nodes));
  return { micros: p2.median + slope * (n - p2.nodes), estimated: true };
}

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const micros = (v: number) => (v >= 100 ? int(v) : v.toFixed(1));
const spread = (r: CaseResult) => `${micros(r.median)} (${micros(r.min)}–${micros(r.max)})`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const pad = (s: string, w: number) => s.padEnd(w);

interface Ratio {
  nodes: number;
  group: string;
  orchestra: number;
  langgraph: number;
  ratio: number;
  estimated: boolean;
  goal: number;
  met: boolean;
}
const ratios: Ratio[] = [];
const targetChecks: { what: string; value: number; target: number; met: boolean }[] = [];

function groupTable(group: string, title: string, orchestraName: string, langgraphName: string, goal: number, target: number | undefined, withFloor: boolean): string[] {
  const byCase = results.get(group);
  const lines = [title];
  const header = ['nodes', ...(withFloor ? ['floor µs/node'] : []), `${orchestraName} µs/node`, 'CPU user/sys', ...(withFloor ? ['over floor'] : []), `${langgraphName} µs/node`, `LangGraph ÷ orchestra (goal ≥ ×${goal})`];
  const widths = [7, ...(withFloor ? [20] : []), 30, 13, ...(withFloor ? [11] : []), 30, 0];
  lines.push(`  ${header.map((h, i) => pad(h, widths[i] as number)).join('  ')}`);
  for (const n of args.sizes) {
    const orchestra = byCase?.get(orchestraName)?.get(n);
    const floor = byCase?.get(CASES.floor)?.get(n);
    const lg = langGraphAt(group, langgraphName, n);
    const cells = [int(n)];
    if (withFloor) cells.push(floor ? spread(floor) : '—');
    cells.push(orchestra ? spread(orchestra) : 'not run');
    cells.push(orchestra ? `${micros(orchestra.cpu.user)}/${micros(orchestra.cpu.system)}` : '—');
    if (withFloor) cells.push(orchestra && floor ? `+${micros(orchestra.median - floor.median)}` : '—');
    cells.push(lg ? (lg.result ? spread(lg.result) : `~${micros(lg.micros)} (extrapolated)`) : 'not run');
    if (orchestra && lg) {
      const ratio = lg.micros / orchestra.median;
      const met = ratio >= goal;
      ratios.push({ nodes: n, group, orchestra: orchestra.median, langgraph: lg.micros, ratio, estimated: lg.estimated, goal, met });
      cells.push(`${lg.estimated ? '~' : ''}×${ratio >= 100 ? int(ratio) : ratio.toFixed(1)} ${verdict(met)}${lg.estimated ? ' (LangGraph extrapolated)' : ''}`);
    } else cells.push('—');
    lines.push(`  ${cells.map((c, i) => pad(c, widths[i] as number)).join('  ')}`);
    if (orchestra && target !== undefined) targetChecks.push({ what: `${orchestraName} on ${group}, ${int(n)} nodes (µs/node)`, value: orchestra.median, target, met: orchestra.median <= target });
  }
  for (const r of byCase?.get(CASES.orchestraFileSync)?.values() ?? []) {
    const lg = langGraphAt(group, langgraphName, r.nodes);
    const ratio = lg ? ` — LangGraph ÷ this: ${lg.estimated ? '~' : ''}×${(lg.micros / r.median).toFixed(1)}` : '';
    lines.push(`  (${CASES.orchestraFileSync} at ${int(r.nodes)} nodes: ${spread(r)} µs/node, CPU ${micros(r.cpu.user)}/${micros(r.cpu.system)}${ratio})`);
  }
  const measuredLg = [...(byCase?.get(langgraphName)?.values() ?? [])].filter((r) => !args.sizes.includes(r.nodes));
  for (const r of measuredLg) lines.push(`  (${langgraphName} at ${int(r.nodes)} nodes, for the extrapolation: ${spread(r)} µs/node)`);
  if (target !== undefined) {
    const checks = args.sizes.flatMap((n) => {
      const r = byCase?.get(orchestraName)?.get(n);
      return r ? [`${int(n)}: ${micros(r.median)} ${verdict(r.median <= target)}`] : [];
    });
    if (checks.length) lines.push(`  target ${orchestraName} ≤ ${target} µs/node — ${checks.join('; ')}`);
  }
  return lines;
}

const rssTarget = STORE_TARGETS.peakRssMb;
const fanRatio = fanout.length >= 2 ? (fanout.at(-1) as (typeof fanout)[number]).stats.median / (fanout[0] as (typeof fanout)[number]).stats.median : undefined;
const fanGoal = fanout.length >= 2 ? (fanout.at(-1) as (typeof fanout)[number]).width / (fanout[0] as (typeof fanout)[number]).width : undefined;

const out: string[] = [];
out.push(`orchestra store benchmark (node ${process.version}; chains of nodes with a custom handler returning { i: n }, no backend)`);
out.push(
  `  µs/node: run time / chain nodes, median (min–max) of ${args.runs} timed runs; each case in turn: a garbage collection, ${args.warmup} warm-up runs of ≤ 1,000 nodes (file cases on ${warmPlace.name};`,
);
out.push(`    LangGraph: ≤ ${LANGGRAPH_WARMUP.maxWarmupRuns} of ${LANGGRAPH_WARMUP.warmupNodes} nodes), then its timed runs`);
out.push('  orchestra: runPipeline(graph, { registry, store }) including its plan/validation, store creation, lease and final checkpoint; LangGraph: compiled once per run (not timed), then invoke() on a new thread');
out.push(`  CPU user/sys: the median run's CPU per node in the process (user) and in the kernel for it (sys)`);
out.push(`  machine: ${cpus().length} cores; load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} (other processes' load makes every figure slower and noisier)`);
out.push('');
if (!memoryMaker) out.push('  MemoryRunStore: not exported by @orchestra/testing yet — its cases are skipped');
out.push(
  ...groupTable('memory', 'in process, no files: orchestra + MemoryRunStore vs LangGraph + MemorySaver', CASES.orchestraMemory, CASES.langgraphMemory, STORE_TARGETS.vsMemorySaver, STORE_TARGETS.memoryMicros, false),
);
for (const place of places) {
  out.push('');
  out.push(`${place.name}: ${place.dir} — ${place.fs}`);
  out.push(
    ...groupTable(place.name, `  orchestra + FileRunStore vs LangGraph + SqliteSaver, and the floor`, CASES.orchestraFile, CASES.langgraphSqlite, STORE_TARGETS.vsSqlite, place.name === 'tmpfs' ? STORE_TARGETS.tmpfsMicros : undefined, true).map((l, i) => (i === 0 ? l : `  ${l}`)),
  );
}
out.push('');
out.push('  floor: per node, only the file-system calls FileRunStore makes for it (mkdir of the stage directory, status.json written, one journal line and one batch of event lines appended to open files), timed alone on the same file system; "over floor" = orchestra − floor');
if (args.noLanggraph) out.push('  LangGraph: skipped (--no-langgraph)');
else {
  out.push(`  LangGraph: @langchain/langgraph (devDependency), durability "async" (its default); measured at ${lgMeasured.map(int).join(', ')} nodes`);
  if (args.sizes.some((n) => !lgMeasured.includes(n))) {
    out.push('  LangGraph at the other sizes is extrapolated, not measured: its cost per node grows linearly with the chain (every superstep walks the versions of every channel written so far),');
    out.push('    so a 10,000-node run takes minutes; the estimate is a straight line through its two largest measured sizes (a lower bound: garbage collection adds more at 10,000). Measure with --langgraph-sizes 1000,10000.');
  }
  if (args.noSqlite) out.push('  SqliteSaver: skipped (--no-sqlite)');
  else if (sqlite?.ok) {
    out.push(
      `  SqliteSaver: @langchain/langgraph-checkpoint-sqlite with better-sqlite3 built from source on demand in ${sqlite.from} (git-ignored; ${sqlite.installSeconds === null ? 'already installed' : `installed now in ${sqlite.installSeconds.toFixed(0)} s`}); journal_mode=${sqliteJournalMode || '?'}, ${sqlitePragmas}`,
    );
    out.push(`  durability: SqliteSaver as it comes (${sqlitePragmas.split(' ')[0]}) commits every checkpoint write${sqlitePragmas.startsWith('synchronous=2') ? ' with an fsync of its WAL' : ''}; FileRunStore by default hands each journal line to the kernel`);
    out.push('    at once (it survives a killed process) and fsyncs with each checkpoint (≤ 500 ms apart); --sync-every-node adds orchestra with an fsync per node (FileRunStore { syncEveryNode: true })');
  }
  else if (sqlite) out.push(`  SqliteSaver: NOT AVAILABLE — ${sqlite.reason.split('\n').join('\n    ')}`);
}

out.push('');
if (args.scaleNodes === 0) out.push('peak RSS: skipped (--scale-nodes 0)');
else out.push(`peak RSS of a ${int(args.scaleNodes)}-node chain (child process, node --expose-gc, process.resourceUsage().maxRSS: node itself + the graph + the run; target ≤ ${rssTarget} MB)`);
for (const r of rss) {
  const name = r.store === 'memory' ? CASES.orchestraMemory : `${CASES.orchestraFile} (${rssPlace.name})`;
  if (!r.report) {
    out.push(`  ${pad(name, 36)} not measured: ${r.error}`);
    continue;
  }
  const p = r.report;
  // The memory store keeps the whole run (every event, journal line and stage file) in memory, as a run
  // directory keeps it on disk: its peak grows with the run by design and is shown, not judged.
  const judged = r.store === 'file';
  if (judged) targetChecks.push({ what: `peak RSS, ${name}, ${int(p.nodes)} nodes (MB)`, value: p.maxRssMb, target: rssTarget, met: p.maxRssMb <= rssTarget });
  out.push(
    `  ${pad(name, 36)} peak ${int(p.maxRssMb)} MB — ${judged ? verdict(p.maxRssMb <= rssTarget) : 'not judged'}   (at start ${int(p.startRssMb)} MB, graph built ${int(p.graphRssMb)} MB, end ${int(p.endRssMb)} MB; ${micros(p.micros)} µs/node)`,
  );
}
if (rss.some((r) => r.store === 'memory' && r.report)) {
  out.push(`  (${CASES.orchestraMemory} holds the run's records — every event, journal line and stage file — in memory, as a run directory holds them on disk: its peak grows with the run by design; the target is the file store's)`);
}

out.push('');
if (args.fanout.length === 0) out.push('fan-out: skipped (--fanout 0)');
else out.push(`fan-out with FileRunStore on ${fanPlace.name} (${fanPlace.dir}): start → parallel node (shape=component, default max_parallel) → K one-node branches → fan-in (shape=tripleoctagon) → exit; wall time ms`);
for (const f of fanout) out.push(`  K = ${pad(int(f.width), 7)} ${pad(`${int(f.stats.median)} (${int(f.stats.min)}–${int(f.stats.max)}) ms`, 24)} ${micros((f.stats.median * 1000) / f.width)} µs/branch`);
if (fanRatio !== undefined && fanGoal !== undefined) {
  targetChecks.push({ what: `fan-out ${int((fanout.at(-1) as (typeof fanout)[number]).width)} / ${int((fanout[0] as (typeof fanout)[number]).width)} (×)`, value: fanRatio, target: fanGoal, met: fanRatio <= fanGoal });
  out.push(`  ${int((fanout.at(-1) as (typeof fanout)[number]).width)} / ${int((fanout[0] as (typeof fanout)[number]).width)}: ×${fanRatio.toFixed(2)} (target ≤ ×${fanGoal}) — ${verdict(fanRatio <= fanGoal)}`);
}

out.push('');
const postgresReport = postgres ? postgresTable(postgres, args.runs, args.warmup) : undefined;
out.push(...(postgresReport?.lines ?? [args.noPostgres ? 'PostgreSQL beside the file store: skipped (--no-postgres)' : 'PostgreSQL beside the file store: not measured']));

const missed = [...(postgresReport?.missed ? [postgresReport.missed] : []), ...targetChecks.filter((t) => !t.met).map((t) => `${t.what}: ${t.value.toFixed(1)} vs target ${t.target}`), ...ratios.filter((r) => !r.met).map((r) => `LangGraph ÷ orchestra on ${r.group}, ${int(r.nodes)} nodes: ×${r.ratio.toFixed(2)} vs goal ≥ ×${r.goal}${r.estimated ? ' (LangGraph extrapolated)' : ''}`)];
out.push('');
out.push(missed.length ? `MISSED (${missed.length}):\n  ${missed.join('\n  ')}` : 'every target and goal measured was met');
out.push(`total bench time ${((performance.now() - benchStarted) / 1000).toFixed(0)} s; load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

if (args.json) {
  const plain = Object.fromEntries([...results].map(([group, byCase]) => [group, Object.fromEntries([...byCase].map(([name, bySize]) => [name, [...bySize.values()]]))]));
  console.log(
    JSON.stringify({
      node: process.version,
      runs: args.runs,
      warmup: args.warmup,
      cores: cpus().length,
      loadAtStart,
      loadAtEnd: loadavg(),
      places,
      results: plain,
      ratios,
      rss,
      fanout,
      fanoutPlace: fanPlace,
      postgres: postgres ?? null,
      sqlite: sqlite ? (sqlite.ok ? { ok: true, from: sqlite.from, installSeconds: sqlite.installSeconds, journalMode: sqliteJournalMode, pragmas: sqlitePragmas } : sqlite) : null,
      memoryRunStore: !!memoryMaker,
      targets: STORE_TARGETS,
      missed,
      totalSeconds: (performance.now() - benchStarted) / 1000,
    }),
  );
} else {
  console.log(out.join('\n'));
}
