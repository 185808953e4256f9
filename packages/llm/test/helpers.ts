import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import {
  createDefaultRegistry,
  loadPipeline,
  runPipeline,
  type CodergenBackend,
  type Graph,
  type Interviewer,
  type RunEvent,
  type RunOptions,
  type RunResult,
} from '@orchestra/core';

const created: string[] = [];

/** Registers an `afterAll` that removes the temp directories this file created. */
export function useTempDirs(): void {
  afterAll(() => {
    for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'orchestra-llm-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Loads DOT text, failing the test on errors. */
export function graphOf(source: string): Graph {
  const loaded = loadPipeline(source, { file: 'test.dot' });
  expect(loaded.ok, JSON.stringify(loaded.diagnostics.filter((d) => d.severity === 'error'))).toBe(true);
  return loaded.graph as Graph;
}

/** What {@link runWith} gives back. */
export interface Ran {
  result: RunResult;
  events: RunEvent[];
  logsRoot: string;
}

/** Runs `source` on `backend` in a fresh run directory, collecting events. */
export async function runWith(source: string, backend: CodergenBackend, options: Partial<RunOptions> & { interviewer?: Interviewer } = {}): Promise<Ran> {
  const events: RunEvent[] = [];
  const logsRoot = options.logsRoot ?? join(tempDir(), 'run');
  const registry = createDefaultRegistry({ backend, ...(options.interviewer ? { interviewer: options.interviewer } : {}) });
  const result = await runPipeline(graphOf(source), { random: () => 0, ...options, registry, logsRoot, onEvent: (e) => events.push(e) });
  return { result, events, logsRoot };
}

/** Events of one type. */
export function eventsOf<T extends RunEvent['type']>(events: readonly RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}

/** DOT with start and exit around `body`. */
export function dot(body: string, graphAttrs = 'goal="Ship the feature"'): string {
  return `digraph T {\n  graph [${graphAttrs}]\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n}\n`;
}
