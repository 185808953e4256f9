import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryRunStore } from '@orchestra/testing';
import { afterAll, expect } from 'vitest';
import {
  createDefaultRegistry,
  loadPipeline,
  runPipeline,
  simulationBackend,
  type Clock,
  type Graph,
  type Handler,
  type HandlerInput,
  type HandlerRegistry,
  type Outcome,
  type RunEvent,
  type RunOptions,
  type RunResult,
  type RunStore,
} from '../../src/index.js';
import { systemClock } from '../../src/handlers.js';
import type { Checkpoint, JournalEntry } from '../../src/store.js';

const created: string[] = [];
const memoryStores: MemoryRunStore[] = [];

/** Registers an `afterAll` that removes the temp directories (and memory stores' stage directories) this file created. Call once at the top of a test file. */
export function useTempDirs(): void {
  afterAll(() => {
    for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
    for (const store of memoryStores.splice(0)) store.dispose();
  });
}

/** A fresh, empty temporary directory. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-engine-'));
  created.push(dir);
  return dir;
}

/** A run directory path that does not exist yet (inside a fresh temp dir). */
export function newLogsRoot(): string {
  return join(tempDir(), 'run');
}

/** Loads DOT text and returns the graph, failing the test when it has errors (`knownHandlerTypes`: those of the registry it will run with). */
export function graphFrom(source: string, knownHandlerTypes: Iterable<string> = []): Graph {
  const loaded = loadPipeline(source, { file: 'test.dot', knownHandlerTypes: ['s', 'ext', 'my_custom_type', ...knownHandlerTypes] });
  expect(loaded.ok, JSON.stringify(loaded.diagnostics.filter((d) => d.severity === 'error'))).toBe(true);
  return loaded.graph as Graph;
}

/** What a scripted node does on one call: a fixed outcome, or a function of the handler input. */
export type Step = Outcome | ((input: HandlerInput) => Outcome | undefined | Promise<Outcome | undefined>);

/** A scripted handler and what it saw. */
export interface Scripted {
  handler: Handler;
  /** Node ids in call order (one per attempt). */
  calls: string[];
  /** Attempt numbers in call order, as `<node>#<attempt>`. */
  attempts: string[];
  /** How many times the node's handler was called. */
  count(nodeId: string): number;
}

/**
 * A handler driven by a script: for each node id, one step or a list of steps
 * (the n-th call of that node uses the n-th step; the last one repeats).
 * Nodes without a script succeed.
 */
export function scripted(script: Record<string, Step | Step[]> = {}, fallback: Outcome = { status: 'success' }): Scripted {
  const calls: string[] = [];
  const attempts: string[] = [];
  const counts = new Map<string, number>();
  const handler: Handler = {
    async execute(input) {
      const id = input.node.id;
      const n = counts.get(id) ?? 0;
      counts.set(id, n + 1);
      calls.push(id);
      attempts.push(`${id}#${input.attempt}`);
      if (!Object.hasOwn(script, id)) return fallback;
      const entry = script[id] as Step | Step[];
      const step = Array.isArray(entry) ? (entry[Math.min(n, entry.length - 1)] as Step) : entry;
      return typeof step === 'function' ? step(input) : step;
    },
  };
  return { handler, calls, attempts, count: (id) => counts.get(id) ?? 0 };
}

/** The default registry (codergen over the simulation backend) plus extra handlers by type. */
export function registryWith(handlers: Record<string, Handler> = {}): HandlerRegistry {
  const registry = createDefaultRegistry({ backend: simulationBackend });
  for (const [type, handler] of Object.entries(handlers)) registry.register(type, handler);
  return registry;
}

/**
 * The step limit the run helpers give every run (`RunOptions.maxSteps`), far
 * above what any test pipeline needs: a bug that makes a run loop (a goal
 * gate sending the run back for ever, say) fails the test within moments
 * instead of spinning until CI is killed. A test that means to run longer
 * passes its own `maxSteps`.
 */
export const TEST_MAX_STEPS = 5_000;

/** Options for `runPipeline` / `resumePipeline` called directly in a test: {@link TEST_MAX_STEPS} plus `options`. */
export function bounded<T extends object>(options: T): T & { maxSteps: number } {
  return { maxSteps: TEST_MAX_STEPS, ...options };
}

/** Options of {@link run}: run options plus handlers to register by type. */
export type RunHelperOptions = Partial<RunOptions> & { handlers?: Record<string, Handler> };

/** The outcome of {@link run}. */
export interface RunOutput {
  result: RunResult;
  events: RunEvent[];
  logsRoot: string;
  graph: Graph;
}

/** Runs `source` where `where` says, with a fixed jitter source and {@link TEST_MAX_STEPS}, collecting events. */
async function runIn(source: string, options: RunHelperOptions, where: { logsRoot: string } | { store: RunStore }): Promise<Omit<RunOutput, 'logsRoot'>> {
  const { handlers, ...rest } = options;
  const registry = options.registry ?? registryWith(handlers);
  const graph = graphFrom(source, registry.types());
  const events: RunEvent[] = [];
  const result = await runPipeline(graph, {
    random: () => 0,
    maxSteps: TEST_MAX_STEPS,
    ...rest,
    registry,
    ...where,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return { result, events, graph };
}

/** Loads `source` and runs it in a fresh run directory with a fixed jitter source and a step limit ({@link TEST_MAX_STEPS}), collecting events. */
export async function run(source: string, options: RunHelperOptions = {}): Promise<RunOutput> {
  const logsRoot = options.logsRoot ?? newLogsRoot();
  return { ...(await runIn(source, options, { logsRoot })), logsRoot };
}

/** The outcome of {@link runInMemory}: the store, and no run directory to read. */
export interface MemoryRunOutput extends Omit<RunOutput, 'logsRoot'> {
  store: MemoryRunStore;
}

/**
 * {@link run} on a fresh {@link MemoryRunStore}: for tests of the engine's
 * behaviour that read nothing from the run directory (faster: no files, no
 * fsync). Stage directories it makes are removed by {@link useTempDirs}.
 */
export async function runInMemory(source: string, options: Omit<RunHelperOptions, 'logsRoot' | 'store'> = {}): Promise<MemoryRunOutput> {
  const store = new MemoryRunStore();
  memoryStores.push(store);
  return { ...(await runIn(source, options, { store })), store };
}

/** Parses a JSON file. */
export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The run's `checkpoint.json`, parsed without validation. */
export function checkpointAt(logsRoot: string): Checkpoint {
  return readJson<Checkpoint>(join(logsRoot, 'checkpoint.json'));
}

/** The run's `journal.jsonl` lines, parsed. */
export function journalAt(logsRoot: string): JournalEntry[] {
  return readFileSync(join(logsRoot, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalEntry);
}

/** The `<node>/status.json` of a run, parsed. */
export function statusAt(logsRoot: string, nodeId: string): Record<string, unknown> {
  return readJson(join(logsRoot, nodeId, 'status.json'));
}

/** Event types in order. */
export function typesOf(events: readonly RunEvent[]): string[] {
  return events.map((e) => e.type);
}

/** Events of one type, narrowed. */
export function eventsOf<T extends RunEvent['type']>(events: readonly RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}

/** Resolves when `signal` aborts (rejecting with its reason), for handlers that wait to be stopped. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** DOT for a digraph with the usual start and exit nodes around `body`. */
export function dot(body: string, name = 'P', graphAttrs = ''): string {
  return `digraph ${name} {\n${graphAttrs ? `  graph [${graphAttrs}]\n` : ''}  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n}\n`;
}

/**
 * A clock that moves only when the test says ({@link ManualClock.advance}):
 * node timeouts and retry back-off (everything the engine times on
 * `RunOptions.clock`) happen exactly when the test makes them, whatever the
 * machine's load. What handlers time themselves (a killed tool's grace
 * period, say) still runs on real time.
 */
export class ManualClock implements Clock {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  /** Every delay asked for, in order. */
  readonly requested: number[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, fn });
    this.requested.push(ms);
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** How long each waiting timer has left, soonest first. */
  get pending(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, firing the timers that fall due on the way, in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= until && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = until;
  }
}

/** A clock whose timers fire at once (and that records the delays asked for): back-off and timeouts without waiting. */
export function instantClock(): Clock & { requested: number[] } {
  const requested: number[] = [];
  return {
    requested,
    now: () => 0,
    setTimeout: (fn, ms) => {
      requested.push(ms);
      return systemClock.setTimeout(fn, 0);
    },
    clearTimeout: (handle) => systemClock.clearTimeout(handle),
  };
}

/**
 * `promise`, or a rejection naming `what` when it has not settled after `ms`
 * of real time: a run driven by a {@link ManualClock} that would hang fails
 * with a message instead of the test's timeout.
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}
