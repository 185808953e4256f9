import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { evaluateCondition } from '../conditions/evaluate-condition.js';
import { parseCondition } from '../conditions/parse-condition.js';
import { sleepOn, systemClock } from '../engine/clock.js';
import type { RunEvent } from '../engine/events.js';
import type { Handler, HandlerInput } from '../engine/handler.js';
import type { JsonValue, Outcome } from '../engine/outcome.js';
import type { RunResult } from '../engine/run-result.js';
import { childDotfile } from '../graph/child-dotfile.js';
import type { GraphNode } from '../graph/model.js';
import { booleanAttr, durationAttr, integerAttr } from '../graph/values.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { loadPipeline } from '../pipeline/pipeline-loader.js';
import type { RunStore } from '../engine/store/run-store.js';
import { childRunName } from './child-run-name.js';
import { STEER_FILE } from './codergen-handler.js';

/** The handler type of a manager node (`shape=house`, spec §4.11). */
export const MANAGER_LOOP_TYPE = 'stack.manager_loop';


const DEFAULT_POLL_MS = 45_000;
const DEFAULT_MAX_CYCLES = 1000;


/** What the manager knows of its child, as the `stack.child.*` context keys hold it. */
interface Telemetry {
  status: 'running' | 'completed' | 'failed' | 'interrupted' | 'parked';
  outcome: string;
  currentNode: string;
  completedNodes: number;
  lastStatus: string;
  failureReason: string;
  retries: number;
}

function observe(telemetry: Telemetry, event: RunEvent): void {
  if (event.type === 'stage.started') telemetry.currentNode = event.nodeId;
  if (event.type === 'stage.completed') {
    telemetry.completedNodes += 1;
    telemetry.lastStatus = event.status;
  }
  if (event.type === 'stage.failed' && !event.willRetry) {
    telemetry.completedNodes += 1;
    telemetry.lastStatus = 'fail';
  }
  if (event.type === 'stage.retrying') telemetry.retries += 1;
}

function ended(telemetry: Telemetry, result: RunResult): void {
  telemetry.status = result.status === 'success' ? 'completed' : result.status === 'fail' ? 'failed' : result.status;
  telemetry.outcome = result.status === 'success' ? 'success' : result.status === 'fail' ? 'fail' : '';
  telemetry.failureReason = result.failureReason ?? '';
}

function keysOf(telemetry: Telemetry, cycle: number, dir: string): Record<string, JsonValue> {
  return {
    'stack.child.status': telemetry.status,
    'stack.child.outcome': telemetry.outcome,
    'stack.child.current_node': telemetry.currentNode,
    'stack.child.completed_nodes': telemetry.completedNodes,
    'stack.child.last_stage_status': telemetry.lastStatus,
    'stack.child.retries': telemetry.retries,
    'stack.child.failure_reason': telemetry.failureReason,
    'stack.child.cycle': cycle,
    'stack.child.logs_root': dir,
  };
}

function resolveFile(input: HandlerInput, named: string): string {
  if (isAbsolute(named)) return named;
  return resolve(input.run.sourceFile ? dirname(input.run.sourceFile) : input.workdir, named);
}

/**
 * The manager loop (spec §4.11, `shape=house`): starts the child pipeline
 * named by `stack.child_dotfile` (node, else graph; relative to the parent
 * pipeline's file) as a run of its own in `<stage>/child-<visit>` (unless
 * `stack.child_autostart=false`, when it only supervises a child run already
 * there), then each cycle observes it into `stack.child.*` context keys,
 * steers it (`manager.actions` has `steer`: `manager.instruction` goes into
 * the child's active stage as `steer.md`), ends on the child's end or on
 * `manager.stop_condition`, and waits `manager.poll_interval` (woken early
 * when the child ends). Past `manager.max_cycles` it fails. Stopping the
 * manager early stops the child (interrupted, resumable); a resumed parent
 * resumes the same child run.
 */
export function managerLoopHandler(): Handler {
  return {
    cannotRun: (node, graph) => (childDotfile(node, graph) ? undefined : `manager node ${node.id} has no child pipeline: set stack.child_dotfile on the graph or the node`),
    async execute(input) {
      const { node, graph, signal } = input;
      const file = resolveFile(input, childDotfile(node, graph) as string);
      const pollMs = durationAttr(node, 'manager.poll_interval') ?? DEFAULT_POLL_MS;
      const maxCycles = Math.max(1, integerAttr(node, 'manager.max_cycles') ?? DEFAULT_MAX_CYCLES);
      const actions = new Set((node.attributes['manager.actions'] || 'observe,wait').split(',').map((a) => a.trim()));
      const stopSource = node.attributes['manager.stop_condition'] ?? '';
      const stop = stopSource.trim() ? parseCondition(stopSource) : undefined;
      if (stop && !stop.ok) return { status: 'fail', failureReason: `manager.stop_condition does not parse: ${stop.error.message}`, retryable: false };
      const store = input.children.store(childRunName('child', input));
      const dir = store.location;

      const telemetry: Telemetry = { status: 'running', outcome: '', currentNode: '', completedNodes: 0, lastStatus: '', failureReason: '', retries: 0 };
      const halt = new AbortController();
      const childWorkdir = graph.attributes['stack.child_workdir'] ? resolve(input.workdir, graph.attributes['stack.child_workdir']) : input.workdir;
      const options = { signal: AbortSignal.any([signal, halt.signal]), workdir: childWorkdir, onEvent: (e: RunEvent) => observe(telemetry, e) };
      let child: Promise<RunResult>;
      if (await store.exists()) {
        child = input.children.resume(store, options);
      } else if (!booleanAttr(node, 'stack.child_autostart', true)) {
        return { status: 'fail', failureReason: `stack.child_autostart=false and there is no child run in ${dir} to supervise`, retryable: false };
      } else {
        let source: string;
        try {
          source = await readFile(file, 'utf8');
        } catch (error) {
          return { status: 'fail', failureReason: `cannot read the child pipeline ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, retryable: false };
        }
        const loaded = loadPipeline(source, { file, knownHandlerTypes: input.children.handlerTypes });
        if (!loaded.graph || hasErrors(loaded.diagnostics)) {
          const first = loaded.diagnostics.find((d) => d.severity === 'error');
          return { status: 'fail', failureReason: `the child pipeline ${file} is invalid: ${first?.message ?? 'it does not parse'}`, retryable: false };
        }
        child = input.children.start(store, { ...options, graph: loaded.graph, source, sourceFile: file });
      }
      let settled = false;
      const done = child.then(
        (result) => {
          ended(telemetry, result);
          settled = true;
        },
        (error: unknown) => {
          telemetry.status = 'failed';
          telemetry.outcome = 'fail';
          telemetry.failureReason = error instanceof Error ? error.message : String(error);
          settled = true;
        },
      );
      const finish = (outcome: Outcome, cycle: number): Outcome => ({ ...outcome, contextUpdates: keysOf(telemetry, cycle, dir) });
      let steered = '';
      try {
        for (let cycle = 1; cycle <= maxCycles; cycle++) {
          const keys = keysOf(telemetry, cycle, dir);
          if (actions.has('steer')) steered = await steer(node, telemetry, store, steered);
          if (telemetry.status === 'completed') return finish({ status: 'success', notes: `child completed after ${cycle} cycle(s)` }, cycle);
          if (telemetry.status === 'failed') return finish({ status: 'fail', failureReason: `the child pipeline failed: ${telemetry.failureReason || 'no reason given'}` }, cycle);
          if (telemetry.status === 'parked' || telemetry.status === 'interrupted') {
            return finish({ status: 'fail', failureReason: `the child pipeline ${telemetry.status === 'parked' ? 'is waiting for a human answer' : 'was interrupted'}: continue it with \`orchestra resume ${dir}\``, retryable: false }, cycle);
          }
          if (stop && stop.ok) {
            const view = input.context.clone();
            view.applyUpdates(keys);
            if (evaluateCondition(stop.condition, { outcome: '', preferredLabel: '', get: (key) => view.get(key) })) {
              return finish({ status: 'success', notes: `stop condition ${JSON.stringify(stopSource)} held at cycle ${cycle}; the child was stopped` }, cycle);
            }
          }
          if (cycle === maxCycles) break;
          if (actions.has('wait')) {
            await Promise.race([sleepOn(systemClock, pollMs, signal), done]);
          } else {
            await new Promise((r) => setImmediate(r)); // observe-only: let the child move between cycles
          }
        }
        return finish({ status: 'fail', failureReason: `manager.max_cycles (${maxCycles}) reached before the child ended` }, maxCycles);
      } finally {
        if (!settled) {
          halt.abort('the manager stopped supervising');
          await done;
        }
      }
    },
  };
}

/** Writes `manager.instruction` into the child's active stage once per stage (what its LLM stage receives); returns the stage it wrote to. */
async function steer(node: GraphNode, telemetry: Telemetry, child: RunStore, last: string): Promise<string> {
  const instruction = node.attributes['manager.instruction'];
  if (!instruction || !telemetry.currentNode || telemetry.status !== 'running') return last;
  if (telemetry.currentNode === last) return last;
  // The child opened the stage when the node started (the stage.started event told us which).
  const stage = await child.stage(telemetry.currentNode);
  await stage.write(STEER_FILE, `${instruction}\n`);
  return telemetry.currentNode;
}
