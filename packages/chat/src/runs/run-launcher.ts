import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import {
  FileRunCatalogue,
  OrchestraError,
  RunRefusal,
  RunSupervisor,
  guardedSetup,
  isOrchestraError,
  type BackendFactory,
  type CoreErrorCode,
  type Diagnostic,
  type JsonValue,
  type PendingQuestion,
  type RunCatalogue,
  type RunEventLog,
  type RunStanding,
  type RunStore,
  type SupervisedRun,
} from '@orchestra/core';
import { closest } from '@orchestra/core/loader';
import { Workspace } from '@orchestra/llm/agent';
import type { ChatErrorCode } from '../chat-error-codes.js';
import { CoordinationOverridesSchema, LaunchRunInputSchema, runModeOf, type LaunchRunInput, type RunMode } from './launch-run-input.js';
import { readContextPaths } from './project-files.js';
import { filesUnder } from './walk-files.js';
import { runModePipeline } from './run-mode-templates.js';
import type { LaunchedQuestion, RunResult } from './run-result.js';

/** The file beside a launched run's files that says what it was launched for. */
export const RUN_DESCRIPTION_FILE = 'run_description.json';

/** Options of {@link RunLauncher}. */
export interface RunLauncherOptions {
  /** The project directory: pipelines and context paths are read from it, runs kept in `<project>/runs/`. */
  projectDir: string;
  /** Runs without any model (simulated LLM stages). */
  simulate?: boolean;
  /** The LLM backend of runs that are not simulated. */
  backendFor?: BackendFactory;
  /** Accept project pipelines that run commands (tool nodes, agent tools). */
  allowTools?: boolean;
  /** Passed to the engine (tests use 0). */
  checkpointIntervalMs?: number;
  /** Where runs are kept; default the directory `<project>/runs`. */
  catalogue?: RunCatalogue;
}

/** A run ready to start: its pipeline and the context it starts with. */
export interface PreparedRun {
  input: LaunchRunInput;
  /** The project pipeline's path (relative to the project), or `template:<mode>`. */
  pipeline: string;
  mode: RunMode | null;
  source: string;
  file: string;
  context: Record<string, JsonValue>;
}

/** The code of a {@link LaunchError}: chat's own, or that of the run supervisor's refusal of the run. */
export type LaunchErrorCode = Extract<ChatErrorCode, 'ORCH_BAD_REQUEST' | 'ORCH_LAUNCH_FAILED'> | CoreErrorCode;

/** A refusal of `launch_run` (bad parameters, a path outside the project, an unknown run): the message says what to change. */
export class LaunchError extends OrchestraError<LaunchErrorCode> {
  constructor(code: LaunchErrorCode, message: string) {
    super(code, message);
    this.name = 'LaunchError';
  }
}

/**
 * `launch_run`'s parameters checked by {@link LaunchRunInputSchema}; throws a
 * {@link LaunchError} (`ORCH_BAD_REQUEST`) naming the first problem: an
 * unknown key by name, with the nearest known one and the known keys.
 */
export function parseLaunchRunInput(raw: unknown): LaunchRunInput {
  const parsed = LaunchRunInputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  if (issue?.code === 'unrecognized_keys') {
    const known = knownKeysAt(issue.path);
    const [key] = issue.keys;
    const near = key === undefined ? undefined : closest(key, known, key.length >= 9 ? 3 : 2);
    const named = issue.keys.map((k) => JSON.stringify(k)).join(', ');
    throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: ${where}unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${named}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; known: ${known.join(', ')}`);
  }
  throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: ${where}${issue?.message ?? 'bad parameters'}`);
}

/** The keys `launch_run` knows at an object's path (the parameters, or `coordination_overrides`). */
function knownKeysAt(path: readonly PropertyKey[]): string[] {
  if (path.length === 1 && path[0] === 'coordination_overrides') return Object.keys(CoordinationOverridesSchema.shape);
  return Object.keys(LaunchRunInputSchema.shape);
}

function launchError(error: unknown): LaunchError {
  if (error instanceof LaunchError) return error;
  if (error instanceof RunRefusal) {
    const file = typeof error.details.file === 'string' ? error.details.file : 'pipeline.dot';
    const diagnostics = (error.details.diagnostics as Diagnostic[] | undefined) ?? [];
    const where = diagnostics.slice(0, 5).map((d) => `\n  ${d.location?.file ?? file}:${d.location?.line ?? 0}:${d.location?.column ?? 0}: ${d.message}`);
    return new LaunchError(error.code as LaunchErrorCode, `${error.message}${where.join('')}`);
  }
  if (isOrchestraError(error)) return new LaunchError(error.code as LaunchErrorCode, error.message);
  return new LaunchError('ORCH_LAUNCH_FAILED', error instanceof Error ? error.message : String(error));
}

/**
 * `launch_run`, one implementation for the chat session and the MCP server:
 * turns the parameters into a pipeline (a project DOT file, or a run-mode
 * template) and the context it starts with (`task`, `task_context`,
 * `context_files`), starts it as an ordinary run in `<project>/runs/`
 * (with `run_description.json` next to its files), and reports it as a
 * {@link RunResult}. Runs are driven by core's {@link RunSupervisor}, as the
 * server's and the CLI's are: questions wait until answered, and runs are
 * cancelled and resumed the same way.
 */
export class RunLauncher {
  readonly supervisor: RunSupervisor;
  private readonly started = new Map<string, { at: number; prepared: PreparedRun }>();

  constructor(readonly options: RunLauncherOptions) {
    this.supervisor = new RunSupervisor({
      catalogue: options.catalogue ?? new FileRunCatalogue(join(options.projectDir, 'runs')),
      setup: guardedSetup({
        ...(options.allowTools ? { allowTools: true } : {}),
        ...(options.backendFor ? { backendFor: options.backendFor } : {}),
        workdir: options.projectDir,
      }),
      workdir: options.projectDir,
      ...(options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: options.checkpointIntervalMs } : {}),
      questionsNotice: (pending) => ({ questions: pending.map(questionOf) }),
    });
  }

  /** Checks the parameters and builds the run (nothing starts): what an approval shows. */
  prepare(raw: unknown): PreparedRun {
    const input = parseLaunchRunInput(raw);
    try {
      const context: Record<string, JsonValue> = {
        task: input.task,
        task_context: input.context ?? '',
        context_files: input.context_paths?.length ? readContextPaths(this.options.projectDir, input.context_paths) : '',
      };
      if (input.pipeline !== undefined) {
        if (input.coordination_overrides !== undefined) {
          throw new LaunchError('ORCH_BAD_REQUEST', 'launch_run: coordination_overrides: they shape the run-mode templates, not a project pipeline (set max_parallel, timeout, max_retries or fan_in.votes on its nodes)');
        }
        const path = new Workspace(this.options.projectDir).resolve(input.pipeline);
        if (!existsSync(path) || !statSync(path).isFile()) throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: pipeline ${input.pipeline} is not a file of the project`);
        return { input, pipeline: input.pipeline, mode: null, source: readFileSync(path, 'utf8'), file: basename(path), context };
      }
      const mode = runModeOf(input);
      const coordination = input.coordination_overrides;
      if (coordination?.voting_rounds !== undefined && mode !== 'multi') {
        throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: coordination_overrides.voting_rounds: only the multi mode without refinement votes (agent_mode "multi", refinement false); this is ${mode}`);
      }
      const source = runModePipeline(mode, {
        ...(input.agents ? { agents: input.agents } : {}),
        ...(input.agent_system_prompts ? { systemPrompts: input.agent_system_prompts } : {}),
        ...(input.agent_mode ? { multi: input.agent_mode === 'multi' } : {}),
        ...(coordination ? { coordination } : {}),
      });
      return { input, pipeline: `template:${mode}`, mode, source, file: `${mode}.dot`, context };
    } catch (error) {
      if (error instanceof LaunchError) throw error;
      throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Starts a prepared run; resolves with its id once it has started. */
  async start(prepared: PreparedRun): Promise<string> {
    let run: SupervisedRun;
    try {
      run = await this.supervisor.start({
        source: prepared.source,
        file: prepared.file,
        sourceFile: prepared.file,
        context: prepared.context,
        options: { ...(this.options.simulate ? { simulate: true } : {}), phased_mode: 'direct' },
      });
    } catch (error) {
      throw launchError(error);
    }
    const id = run.id;
    this.started.set(id, { at: Date.now(), prepared });
    const manifest = await run.store.readManifest();
    const description = {
      format: 'orchestra.run-description/1',
      id,
      task: prepared.input.task,
      pipeline: prepared.pipeline,
      mode: prepared.mode,
      parameters: prepared.input,
      started_at: manifest.started_at,
    };
    // Beside the run's own files (the catalogue is a directory of runs: <project>/runs).
    if (existsSync(run.store.location)) writeFileSync(join(run.store.location, RUN_DESCRIPTION_FILE), `${JSON.stringify(description, null, 2)}\n`);
    return id;
  }

  /** {@link prepare} then {@link start}. */
  async launch(raw: unknown): Promise<string> {
    return this.start(this.prepare(raw));
  }

  /** The events of run `id` (live while this launcher drives it, else as recorded, or followed from another process). */
  events(id: string): Promise<RunEventLog> {
    return this.call(() => this.supervisor.events(id));
  }

  /** Whether this launcher drives run `id` now. */
  isActive(id: string): boolean {
    return this.supervisor.isActive(id);
  }

  /** Continues a stopped or parked run here (its questions are asked again). */
  async resume(id: string): Promise<void> {
    await this.call(() => this.supervisor.resume(id));
  }

  /** Resolves once run `id` stops (ended, cancelled, or its process gone), with its result. */
  async wait(id: string, signal?: AbortSignal): Promise<RunResult> {
    const log = await this.events(id);
    await new Promise<void>((resolve) => {
      const stop = log.follow(log.size, { event: () => {}, end: () => resolve() });
      signal?.addEventListener('abort', () => {
        stop();
        resolve();
      });
    });
    return this.result(id);
  }

  /** Where run `id` stands, as a {@link RunResult}. */
  async result(id: string, known?: RunStanding): Promise<RunResult> {
    const view = known ?? (await this.call(() => this.supervisor.view(id)));
    const store = await this.call(() => this.supervisor.store(id));
    const { report } = view;
    const { manifest } = report;
    const { state } = report.restored;
    const description = readDescription(store.location);
    const context = report.restored.context;
    const started = Date.parse(manifest.started_at);
    const ended = report.state === 'completed' || report.state === 'failed';
    const usage = state.usage;
    return {
      id,
      task: description?.task ?? String(context.task ?? ''),
      pipeline: description?.pipeline ?? manifest.source_file ?? manifest.pipeline,
      status: statusOf(view),
      duration_ms: ended || !view.live ? (await lastEventAt(store, started)) - started : Date.now() - started,
      tokens: usage ? { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: usage.totalTokens, ...(usage.cost ? { cost: { ...usage.cost } } : {}) } : null,
      final_response: await finalResponse(store, context, state.completedNodes),
      artifacts: artifactsOf(store.location),
      run_dir: store.location,
      failure_reason: state.failureReason ?? null,
      completed_nodes: [...state.completedNodes],
      questions: view.questions.map((q) => ({ id: q.id, node_id: q.question.stage, text: q.question.text, options: q.question.options.map((o) => ({ key: o.key, label: o.label })) })),
    };
  }

  /** The runs of the project, newest first. */
  async list(): Promise<RunResult[]> {
    const out: RunResult[] = [];
    for (const entry of await this.supervisor.list()) if ('report' in entry) out.push(await this.result(entry.id, entry));
    return out;
  }

  /** Answers a question a run waits for. */
  async answer(id: string, questionId: string, text: string): Promise<void> {
    await this.call(() => this.supervisor.answer(id, questionId, text));
  }

  /** Cancels a run this launcher drives; resolves with its result once it stopped. */
  async cancel(id: string): Promise<RunResult> {
    await this.call(() => this.supervisor.cancel(id, 'cancelled'));
    return this.result(id);
  }

  /** Stops every run it drives (each stays resumable; one waiting for an answer parks). */
  close(): Promise<void> {
    return this.supervisor.stopAll(5000, 'the session is closing');
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw launchError(error);
    }
  }
}

/** A held question as the session asks it (the `questions` notice of a launched run's events). */
function questionOf(q: PendingQuestion): LaunchedQuestion {
  return { id: q.id, node_id: q.question.stage, text: q.question.text, type: q.question.type, options: q.question.options.map((o) => ({ key: o.key, label: o.label })) };
}

function statusOf(view: RunStanding): RunResult['status'] {
  const state = view.report.state;
  if (state === 'completed' || state === 'restarted') return 'completed';
  if (state === 'failed') return 'failed';
  if (view.questions.length > 0) return 'waiting';
  if (view.live || state === 'running') return 'running';
  return 'cancelled';
}

function readDescription(dir: string): { task?: string; pipeline?: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, RUN_DESCRIPTION_FILE), 'utf8')) as { task?: string; pipeline?: string };
  } catch {
    return undefined;
  }
}

/**
 * The run's final response, whole (from the stage's `response.md`;
 * `last_response` in the context holds only its start): the last LLM
 * stage's, unless a fan-in ran after it (a run that ended by picking among
 * parallel branches): then the best branch's last stage's.
 */
async function finalResponse(store: RunStore, context: Record<string, JsonValue>, completed: readonly string[]): Promise<string | null> {
  const results = context['parallel.results'];
  const best = context['parallel.fan_in.best_id'];
  const lastStage = typeof context.last_stage === 'string' ? completed.lastIndexOf(context.last_stage) : -1;
  if (Array.isArray(results) && typeof best === 'string') {
    let fanInAfter = false;
    for (const node of completed.slice(lastStage + 1)) if (await setsBestBranch(store, node)) fanInAfter = true;
    if (fanInAfter || lastStage < 0) return bestOf(store, results, best);
  }
  if (typeof context.last_stage === 'string') return (await stageFile(store, context.last_stage, 'response.md')) ?? (typeof context.last_response === 'string' ? context.last_response : null);
  return null;
}

/** A file of a completed node's stage, if it wrote one. */
async function stageFile(store: RunStore, node: string, name: string): Promise<string | undefined> {
  try {
    return await (await store.stage(node)).read(name);
  } catch {
    return undefined;
  }
}

/** Whether a node's status.json records a fan-in's pick. */
async function setsBestBranch(store: RunStore, node: string): Promise<boolean> {
  try {
    const status = JSON.parse((await stageFile(store, node, 'status.json')) ?? '{}') as { context_updates?: Record<string, unknown> };
    return status.context_updates?.['parallel.fan_in.best_id'] !== undefined;
  } catch {
    return false;
  }
}

/** The best branch's answer: its last stage's response, else what it put in the context. */
async function bestOf(store: RunStore, results: JsonValue[], best: string): Promise<string | null> {
  const entry = results.find((r) => typeof r === 'object' && r !== null && !Array.isArray(r) && r.id === best) as Record<string, JsonValue> | undefined;
  const nodes = Array.isArray(entry?.completed_nodes) ? entry.completed_nodes.filter((n): n is string => typeof n === 'string') : [];
  for (const node of [...nodes].reverse()) {
    const text = await stageFile(store, node, 'response.md');
    if (text !== undefined) return text;
  }
  const updates = entry?.context_updates as Record<string, JsonValue> | undefined;
  if (typeof updates?.answer === 'string') return updates.answer;
  return typeof updates?.last_response === 'string' ? updates.last_response : null;
}

/** The files of the run's `artifacts/` (a run kept in a directory; none for other stores). */
function artifactsOf(dir: string): string[] {
  const root = join(dir, 'artifacts');
  return existsSync(root) ? filesUnder(root).map((path) => relative(dir, path)) : [];
}

/** When the run last recorded an event (its end, for a run that stopped). */
async function lastEventAt(store: RunStore, fallback: number): Promise<number> {
  try {
    const lines = await store.readEvents();
    const last = JSON.parse(lines[lines.length - 1] as string) as { at?: string };
    const at = last.at ? Date.parse(last.at) : Number.NaN;
    return Number.isNaN(at) ? fallback : at;
  } catch {
    return fallback;
  }
}
