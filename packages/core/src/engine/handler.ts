import type { Graph, GraphEdge, GraphNode } from '../graph/model.js';
import type { RunEventInput } from './events.js';
import type { JsonValue, Outcome, StageStatus } from './outcome.js';
import type { TokenUsage } from './usage.js';
import type { RunContext } from './run-context.js';
import type { RunEvent } from './events.js';
import type { ChildEventListener } from './child-events.js';
import type { RunResult } from './run-result.js';
import type { Awaitable, RunStore, StageStore } from './store/run-store.js';

/** What a handler receives for one attempt at a node (spec §4.1). */
export interface HandlerInput {
  node: GraphNode;
  graph: Graph;
  /** The run context: read it; return changes as `contextUpdates` (direct writes also persist). */
  context: RunContext;
  /** Where the run is kept (the run directory with the file store). */
  logsRoot: string;
  /** The node's stage: its files (`prompt.md`, `response.md`, ...), created before the handler runs. */
  stage: StageStore;
  /** A real directory holding the stage's files (`<logsRoot>/<node id>` with the file store). */
  stageDir: string;
  /** Where commands started for the node are recorded, so none outlives a killed run. */
  processes: ProcessLedger;
  /** Runs other pipelines as child runs of this node (sub-pipelines, a manager loop's child), kept by the run's store. */
  children: ChildRuns;
  /** Directory commands run in: where `orchestra` was started. */
  workdir: string;
  /** Aborted on Ctrl-C, on the node's `timeout`, or when the caller cancels. */
  signal: AbortSignal;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  /** Runs a branch of the graph in its own context (what the parallel handler fans out with). */
  runBranch: BranchRunner;
  /** Emits a run event (on the run's bus, into `events.jsonl`). */
  emit: (event: RunEventInput) => void;
  /**
   * What this node saved with {@link HandlerInput.saveProgress} in an earlier
   * attempt or before the process stopped; `undefined` for a fresh start.
   */
  progress: JsonValue | undefined;
  /**
   * Records how far the node got (JSON data), in `checkpoint.json` before it
   * returns: if the run stops before the node completes, a resumed run hands
   * it back as `progress`. `undefined` clears it. Each call rewrites the
   * checkpoint (about a millisecond): meant for human-speed steps such as a
   * conversation's turns, not for every token.
   */
  saveProgress: (data: JsonValue | undefined) => Promise<void>;
  /** The run this node belongs to (what an LLM stage builds its context preamble from). */
  run: RunView;
  /** How the run reached this node. */
  arrival: Arrival;
}

/**
 * Records the process groups a node starts (tool commands), in the run's
 * store, before they run: a resumed run stops what a killed owner left
 * running, so a command never runs twice at once.
 */
export interface ProcessLedger {
  /** A process group (led by `pid`) was spawned and is about to run `command`. */
  started(pid: number, command: string): Awaitable<void>;
  /** The process group exited. */
  exited(pid: number): Awaitable<void>;
}

/** How a child run is run: where its tools run, what stops it, who hears its events. */
export interface ChildRunOptions {
  signal: AbortSignal;
  /** Directory its tool commands run in. */
  workdir: string;
  /** Called for each of the child's events. */
  onEvent?: (event: RunEvent) => void;
}

/** A new child run: its pipeline (loaded and valid), its text and file, and its first context values. */
export interface ChildRunStart extends ChildRunOptions {
  graph: Graph;
  source: string;
  sourceFile: string;
  initialContext?: Record<string, unknown>;
}

/**
 * Starts and resumes child runs with the parent run's handlers; provided by
 * whoever runs the parent (`runPipeline`, `resumePipeline`), so handlers need
 * no import of the runner.
 */
export interface ChildRunner {
  /** The handler types child runs have (for loading a child's pipeline as it will run). */
  readonly handlerTypes: readonly string[];
  /** Hears the events of every child run started through it, at any depth (the engine forwards them; see `RunOptions.onChildEvent`). */
  readonly onChildEvent?: ChildEventListener;
  /** Starts a new run of `request.graph` in `store` and resolves when it stops. */
  start(store: RunStore, request: ChildRunStart): Promise<RunResult>;
  /** Continues the run `store` holds (reported as it ended when it has) and resolves when it stops. */
  resume(store: RunStore, options: ChildRunOptions): Promise<RunResult>;
}

/** A node's way to run child pipelines: {@link ChildRunner} plus the stores of its children. */
export interface ChildRuns extends ChildRunner {
  /**
   * The store of this node's child run `name` (one path segment; with the
   * file store, `<run dir>/<node id>/<name>`). The same name gives the same
   * run, in any process, which is how a resumed parent finds its child.
   */
  store(name: string): RunStore;
}

/**
 * A read-only view of the run a node runs in. The arrays are the engine's
 * own (no copy per node): read them, never change them.
 */
export interface RunView {
  /** The run's id (the run directory's name). */
  readonly id: string;
  /** Where the run is kept (the run directory with the file store). */
  readonly logsRoot: string;
  /** The pipeline file the run was started from (its manifest's `source_file`); null when it was given as a graph or text. */
  readonly sourceFile?: string | null;
  /** Node ids in the order they completed (the main line of the run; parallel branches are not in it). */
  readonly completedNodes: readonly string[];
  /** The latest outcome of every completed node. */
  readonly nodeOutcomes: Readonly<Record<string, StageStatus>>;
  /**
   * How many nodes had completed when this process took the run over: 0 for
   * a fresh run, more for a resumed one (what ran before is not in this
   * process's memory, such as an LLM session to continue).
   */
  readonly resumedAfter: number;
  /**
   * In a parallel branch: the fan-out node that started it (the `fanOut`
   * given to the {@link BranchRunner}) and which of that node's visits this
   * is, from 1. There `completedNodes` ends with the nodes the branch has
   * completed so far.
   */
  readonly branch?: { readonly fanOut: string; readonly visit: number };
}

/** How the run got to a node. */
export interface Arrival {
  /** The node that ran before this one (in this run or branch); null for the first node. */
  readonly from: string | null;
  /**
   * The edge taken from `from`; undefined when the node was reached another
   * way (a goal-gate or failure retry target, a handler's jump). The first
   * node of a resumed run gets the first edge from `from` to it (the edge
   * taken before the stop is not recorded).
   */
  readonly edge?: GraphEdge;
}

/** How a parallel branch ended. */
export interface BranchResult {
  /** The node the branch started at. */
  id: string;
  /** The last executed node's outcome status (`success` for an empty branch). */
  status: Outcome['status'];
  /** Nodes the branch ran, in order. */
  completedNodes: string[];
  /** The fan-in or exit node the branch stopped before; null when it ended otherwise. */
  stoppedAt: string | null;
  failureReason?: string;
  /** The context keys the branch wrote, with their final values. */
  contextUpdates: Record<string, JsonValue>;
  /** Tokens the branch's LLM stages used. */
  usage?: TokenUsage;
}

/**
 * Runs the graph from `startNode` in `context` (a clone: nothing reaches the
 * run's context) until it reaches a fan-in or exit node (not executed), a
 * failure with no route, or a dead end.
 */
export type BranchRunner = (startNode: string, context: RunContext, signal: AbortSignal, fanOut?: string) => Promise<BranchResult>;

/**
 * A node handler: a plain object. It returns an outcome; returning nothing
 * means "read `status.json` from the stage directory" (the status-file
 * contract), and with `auto_status=true` a missing status counts as success.
 * A thrown error becomes a FAIL outcome (retried when it is transient).
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { createDefaultRegistry, loadPipeline, runPipeline, type Handler } from '@orchestra/core';
 *
 * // Bumps the `version` in the context; its node's `part` attribute says which part.
 * const bump: Handler = {
 *   execute({ node, context }) {
 *     const [major = 0, minor = 0, patch = 0] = context.getString('version', '0.0.0').split('.').map(Number);
 *     const next = node.attributes.part === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
 *     return { status: 'success', contextUpdates: { version: next }, notes: `version ${next}` };
 *   },
 *   // Asked of every node of this type before the run starts: a reason refuses the run.
 *   cannotRun: (node) => (node.attributes.part ? undefined : `node ${node.id} has no part attribute`),
 * };
 *
 * const registry = createDefaultRegistry().register('semver.bump', bump);
 * const { graph } = loadPipeline(
 *   `digraph Release {
 *     start [shape=Mdiamond]
 *     exit  [shape=Msquare]
 *     bump  [type="semver.bump", part="minor"]
 *     start -> bump -> exit
 *   }`,
 *   { knownHandlerTypes: registry.types() }, // else the lint rule type_known refuses the node
 * );
 * if (!graph) throw new Error('invalid pipeline');
 * const result = await runPipeline(graph, {
 *   registry,
 *   initialContext: { version: '1.4.2' },
 *   logsRoot: join(mkdtempSync(join(tmpdir(), 'release-')), 'run'),
 * });
 * console.log(result.status, result.context.version);
 * // Prints:
 * // success 1.5.0
 * ```
 */
export interface Handler {
  execute(input: HandlerInput): Promise<Outcome | undefined> | Outcome | undefined;
  /**
   * Why this handler cannot run `node` (checked for every node before the
   * run starts, so the run is refused up front); `undefined` when it can.
   */
  cannotRun?(node: GraphNode, graph: Graph): string | undefined;
}
