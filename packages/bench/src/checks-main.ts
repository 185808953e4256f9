/**
 * Semantic-checks benchmark: `pnpm --filter @orchestra/bench bench:checks [--json] [--runs N]`.
 * The declared checks of a beats phase (references, counts per thread,
 * distinct locations, unique ids, coverage) on a 1,000-beat artifact against
 * 200 threads and 500 entities, beside two hand-written equivalents: the
 * floor (the same work with Sets and Maps written out, nothing else) and
 * the naive version (Array.includes scans: what "no quadratic scans" rules
 * out). Exits 0 whether or not the target is met, 2 on bad arguments.
 */
import { cpus, loadavg } from 'node:os';
import { parseSemanticChecks, runSemanticChecks, type CheckResult } from '@orchestra/llm/phases';
import { formatSpread, parseRunArgs, type RunArgs } from './args.js';
import { measureInterleaved } from './measure.js';

/** The requirement: the declared checks on this artifact take at most this many ms. */
export const TARGET_MS = 20;
const BEATS = 1000;
const THREADS = 200;
const ENTITIES = 500;

/** A deterministic pseudo-random sequence (the artifact is the same on every run). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Beat {
  beat_id: string;
  threads: string[];
  entities: string[];
  location: string;
}

function workload() {
  const random = lcg(20261124);
  const threads = Array.from({ length: THREADS }, (_, i) => ({ thread_id: `thread_${i}` }));
  const entities = Array.from({ length: ENTITIES }, (_, i) => ({ id: `entity_${i}` }));
  const beats: Beat[] = Array.from({ length: BEATS }, (_, i) => ({
    beat_id: `beat_${i}`,
    threads: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, j) => `thread_${(i + j * 37) % THREADS}`),
    entities: Array.from({ length: 1 + Math.floor(random() * 4) }, () => `entity_${Math.floor(random() * ENTITIES)}`),
    location: `place_${Math.floor(random() * 40)}`,
  }));
  beats[500]!.threads.push('thread_phantom'); // one invented id, to be found
  const context = { 'thread_design.output': { threads }, brainstorm: { entities } };
  const artifact = { initial_beats: beats, decisions: entities.map((e) => ({ entity_id: e.id, keep: true })) };
  return { context, artifact, threads, entities, beats };
}

const DECLARED = {
  checks: [
    { references: 'initial_beats[].threads[]', among: 'thread_design.output.threads[].thread_id', severity: 'fatal' },
    { references: 'initial_beats[].entities[]', among: 'brainstorm.entities[].id' },
    { unique: 'initial_beats[].beat_id' },
    { count: 'initial_beats[]', per: 'threads[]', over: 'thread_design.output.threads[].thread_id', min: 2, max: 30 },
    { count: 'initial_beats[]', per: 'threads[]', distinct: 'location', min: 2 },
    { covers: 'brainstorm.entities[].id', with: 'decisions[].entity_id' },
  ],
};

/** The same checks written out by hand with Sets and Maps: the floor. Returns the number of findings. */
function floor(w: ReturnType<typeof workload>): number {
  let findings = 0;
  const threadIds = new Set(w.threads.map((t) => t.thread_id));
  const entityIds = new Set(w.entities.map((e) => e.id));
  const seen = new Set<string>();
  const perThread = new Map<string, number>(w.threads.map((t) => [t.thread_id, 0]));
  const places = new Map<string, Set<string>>();
  for (const beat of w.beats) {
    for (const t of beat.threads) if (!threadIds.has(t)) findings++;
    for (const e of beat.entities) if (!entityIds.has(e)) findings++;
    if (seen.has(beat.beat_id)) findings++;
    seen.add(beat.beat_id);
    for (const t of new Set(beat.threads)) {
      if (perThread.has(t)) perThread.set(t, perThread.get(t)! + 1);
      let set = places.get(t);
      if (!set) places.set(t, (set = new Set()));
      set.add(beat.location);
    }
  }
  for (const n of perThread.values()) if (n < 2 || n > 30) findings++;
  for (const set of places.values()) if (set.size < 2) findings++;
  const decided = new Set(w.artifact.decisions.map((d) => d.entity_id));
  for (const e of w.entities) if (!decided.has(e.id)) findings++;
  return findings;
}

/** The references and coverage checks with Array.includes: quadratic. Returns the number of findings. */
function naive(w: ReturnType<typeof workload>): number {
  let findings = 0;
  const threadIds = w.threads.map((t) => t.thread_id);
  const entityIds = w.entities.map((e) => e.id);
  const seen: string[] = [];
  for (const beat of w.beats) {
    for (const t of beat.threads) if (!threadIds.includes(t)) findings++;
    for (const e of beat.entities) if (!entityIds.includes(e)) findings++;
    if (seen.includes(beat.beat_id)) findings++;
    seen.push(beat.beat_id);
  }
  const decided = w.artifact.decisions.map((d) => d.entity_id);
  for (const e of entityIds) if (!decided.includes(e)) findings++;
  return findings;
}

function main(): number {
  let args: RunArgs;
  try {
    args = parseRunArgs(process.argv.slice(2), 21);
  } catch (error) {
    console.error(`bench:checks: ${(error as Error).message}`);
    return 2;
  }
  const w = workload();
  const checks = parseSemanticChecks(DECLARED, 'bench');
  if (typeof checks === 'string') throw new Error(checks);
  const load = loadavg()[0] ?? 0;
  const [declared, written, scans] = measureInterleaved<[CheckResult, number, number]>(
    [
      {
        name: 'declared checks',
        run: () => runSemanticChecks(checks, w.artifact, w.context),
        verify: (r) => {
          if (r.fatal.invalid.length !== 1 || r.fatal.invalid[0]?.provided !== 'thread_phantom') throw new Error('the phantom thread id was not found');
        },
      },
      { name: 'floor (Sets, by hand)', run: () => floor(w) },
      { name: 'naive (Array.includes)', run: () => naive(w) },
    ],
    { warmupRuns: 5, runs: args.runs },
  );
  const met = declared!.median <= TARGET_MS;
  if (args.json) {
    console.log(JSON.stringify({ beats: BEATS, threads: THREADS, entities: ENTITIES, checks: checks.length, declared, floor: written, naive: scans, targetMs: TARGET_MS, met, load }));
    return 0;
  }
  console.log(`orchestra semantic-checks benchmark (node ${process.version}; ${checks.length} declared checks on ${BEATS} beats against ${THREADS} threads and ${ENTITIES} entities; ${args.runs} timed runs each, interleaved)`);
  console.log(`  load average (1 min) ${load.toFixed(2)} on ${cpus().length} CPUs; times in ms, median (min–max)`);
  console.log(`    declared checks         ${formatSpread(declared!, 2)}`);
  console.log(`    floor (Sets, by hand)   ${formatSpread(written!, 2)}   declared ÷ floor ×${(declared!.median / written!.median).toFixed(1)}`);
  console.log(`    naive (Array.includes)  ${formatSpread(scans!, 2)}   (references, unique and coverage only)`);
  console.log(`    target: declared ≤ ${TARGET_MS} ms — ${met ? 'met' : 'NOT met'}`);
  return 0;
}

process.exitCode = main();
