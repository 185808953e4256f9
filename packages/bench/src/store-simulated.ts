import { randomUUID } from 'node:crypto';
import { loadPipeline, runPipeline, simulationBackend, type Graph, type RunStore } from '@orchestra/core';
import type { PostgresDatabase, PostgresRunCatalogue } from '@orchestra/store-postgres';
import { generateLinearPipeline } from '@orchestra/testing';
import { fileStoreMaker } from './store-orchestra.js';
import type { Sample } from './store-measure.js';

/** Makes a new, empty store for one run; `cleanup` removes what it left (outside the timing). */
export type AsyncStoreMaker = () => Promise<{ store: RunStore; cleanup: () => Promise<void> }>;

/** A linear pipeline of `n` LLM stages (`generateLinearPipeline`, as the engine benchmark runs), loaded, with its DOT text. */
export interface SimulatedChain {
  nodes: number;
  graph: Graph;
  source: string;
}

/** Loads `start -> s0 -> ... -> s<n-1> -> exit`, every `s<i>` an LLM stage with a prompt. */
export function simulatedChain(n: number): SimulatedChain {
  const source = generateLinearPipeline(n);
  const loaded = loadPipeline(source);
  if (!loaded.ok || !loaded.graph) throw new Error(`the generated ${n}-stage pipeline does not load`);
  return { nodes: n, graph: loaded.graph, source };
}

/** A `FileRunStore` in a new run directory under `base` (default options), removed after the run. */
export function fileMaker(base: string): AsyncStoreMaker {
  const make = fileStoreMaker(base);
  let made = 0;
  return async () => {
    const { store, cleanup } = make(`sim-${process.pid}-${made++}`);
    return { store, cleanup: async () => cleanup() };
  };
}

/**
 * A `PostgresRunStore` of `catalogue` under a fresh key, as the conformance
 * test makes one (`catalogue.store(key)`: a run of the catalogue, nothing
 * written before the run); the run is removed afterwards (`catalogue.remove`).
 */
export function postgresMaker(catalogue: PostgresRunCatalogue): AsyncStoreMaker {
  return async () => {
    const key = `bench-${randomUUID()}`;
    return { store: catalogue.store(key), cleanup: () => catalogue.remove(key) };
  };
}

/** Runs the chain once in `store` and checks that it succeeded through every node (throws otherwise). */
async function runChain(chain: SimulatedChain, store: RunStore): Promise<void> {
  const result = await runPipeline(chain.graph, { backend: simulationBackend, store, source: chain.source });
  if (result.status !== 'success' || result.completedNodes.length !== chain.nodes + 2) {
    throw new Error(`simulated ${chain.nodes}-stage chain ended ${result.status} after ${result.completedNodes.length} nodes${result.failureReason ? `: ${result.failureReason}` : ''}`);
  }
}

/**
 * Runs the chain once through `runPipeline` with the simulation backend (as
 * `orchestra run --simulate`: every stage writes prompt.md, response.md and
 * status.json, its journal entry and events), the pipeline's text stored
 * with the run, the default checkpoint interval (500 ms). Returns µs per
 * chain stage (run time / n) and the process's CPU per stage. A run that
 * does not succeed through every node throws.
 */
export async function timeSimulatedChain(chain: SimulatedChain, make: AsyncStoreMaker): Promise<Sample> {
  const { store, cleanup } = await make();
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await runChain(chain, store);
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const n = chain.nodes;
    return { micros: (elapsed * 1000) / n, user: used.user / n, system: used.system / n };
  } finally {
    await cleanup();
  }
}

/** Statements a store sent to the database during one run, per chain stage. */
export interface StatementCount {
  /** Every statement (`db.query`; a transaction counts once), per stage. */
  perNode: number;
  /** Of those, the ones that commit synchronously (`synchronous_commit` on: the checkpoints), per stage. */
  synchronousPerNode: number;
  /** Totals over the run. */
  total: number;
  synchronous: number;
}

type Countable = { query: (text: string, values?: readonly unknown[]) => Promise<unknown>; transaction: (body: unknown) => Promise<unknown> };

/**
 * Runs the chain once (untimed) with the database's `query` and
 * `transaction` counted, from the run's start to its end (not the removal
 * afterwards): how many round trips the store makes per stage, and how many
 * of them wait for a WAL flush.
 */
export async function countStatements(chain: SimulatedChain, db: PostgresDatabase, make: AsyncStoreMaker): Promise<StatementCount> {
  const target = db as unknown as Countable;
  const { query, transaction } = target;
  let total = 0;
  let synchronous = 0;
  const { store, cleanup } = await make();
  target.query = (text, values) => {
    total++;
    if (text.includes("set_config('synchronous_commit', 'on'")) synchronous++;
    return query.call(db, text, values);
  };
  target.transaction = (body) => {
    total++;
    return transaction.call(db, body);
  };
  try {
    await runChain(chain, store);
  } finally {
    target.query = query;
    target.transaction = transaction;
    await cleanup();
  }
  return { perNode: total / chain.nodes, synchronousPerNode: synchronous / chain.nodes, total, synchronous };
}
