import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { OrchestraError, type JsonValue } from '@orchestra/core';
import { Workspace } from '@orchestra/llm';
import { ApiError, ServerRuns, type BackendFactory, type RunSummary } from '@orchestra/server';
import type { ChatErrorCode } from '../chat-error-codes.js';
import { LaunchRunInputSchema, runModeOf, type LaunchRunInput, type RunMode } from './launch-run-input.js';
import { readContextPaths } from './project-files.js';
import { filesUnder } from './walk-files.js';
import { runModePipeline } from './run-mode-templates.js';
import type { RunResult } from './run-result.js';

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

/** The code of a {@link LaunchError}: chat's own, or that of the server's refusal of the run ({@link ApiError}). */
export type LaunchErrorCode = Extract<ChatErrorCode, 'ORCH_BAD_REQUEST' | 'ORCH_LAUNCH_FAILED'> | ApiError['code'];

/** A refusal of `launch_run` (bad parameters, a path outside the project, an unknown run): the message says what to change. */
export class LaunchError extends OrchestraError<LaunchErrorCode> {
  constructor(code: LaunchErrorCode, message: string) {
    super(code, message);
    this.name = 'LaunchError';
  }
}

function launchError(error: unknown): LaunchError {
  if (error instanceof LaunchError) return error;
  if (error instanceof ApiError) {
    const diagnostics = (error.details.diagnostics as { file: string; line: number; column: number; message: string }[] | undefined) ?? [];
    const where = diagnostics.slice(0, 5).map((d) => `\n  ${d.file}:${d.line}:${d.column}: ${d.message}`);
    return new LaunchError(error.code, `${error.message}${where.join('')}`);
  }
  return new LaunchError('ORCH_LAUNCH_FAILED', error instanceof Error ? error.message : String(error));
}

/**
 * `launch_run`, one implementation for the chat session and the MCP server:
 * turns the parameters into a pipeline (a project DOT file, or a run-mode
 * template) and the context it starts with (`task`, `task_context`,
 * `context_files`), starts it as an ordinary run in `<project>/runs/`
 * (with `run_description.json` next to its files), and reports it as a
 * {@link RunResult}. Runs are driven by a {@link ServerRuns}, so questions
 * are answered and runs cancelled the same way as through the HTTP API.
 */
export class RunLauncher {
  readonly runs: ServerRuns;
  private readonly started = new Map<string, { at: number; prepared: PreparedRun }>();

  constructor(readonly options: RunLauncherOptions) {
    this.runs = new ServerRuns({
      runsDir: join(options.projectDir, 'runs'),
      workdir: options.projectDir,
      ...(options.allowTools ? { allowTools: true } : {}),
      ...(options.backendFor ? { backendFor: options.backendFor } : {}),
      ...(options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: options.checkpointIntervalMs } : {}),
    });
  }

  /** Checks the parameters and builds the run (nothing starts): what an approval shows. */
  prepare(raw: unknown): PreparedRun {
    const parsed = LaunchRunInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: ${issue?.path.length ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'bad parameters'}`);
    }
    const input = parsed.data;
    try {
      const context: Record<string, JsonValue> = {
        task: input.task,
        task_context: input.context ?? '',
        context_files: input.context_paths?.length ? readContextPaths(this.options.projectDir, input.context_paths) : '',
      };
      if (input.pipeline !== undefined) {
        const path = new Workspace(this.options.projectDir).resolve(input.pipeline);
        if (!existsSync(path) || !statSync(path).isFile()) throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: pipeline ${input.pipeline} is not a file of the project`);
        return { input, pipeline: input.pipeline, mode: null, source: readFileSync(path, 'utf8'), file: basename(path), context };
      }
      const mode = runModeOf(input);
      const source = runModePipeline(mode, {
        ...(input.agents ? { agents: input.agents } : {}),
        ...(input.agent_system_prompts ? { systemPrompts: input.agent_system_prompts } : {}),
        ...(input.agent_mode ? { multi: input.agent_mode === 'multi' } : {}),
      });
      return { input, pipeline: `template:${mode}`, mode, source, file: `${mode}.dot`, context };
    } catch (error) {
      if (error instanceof LaunchError) throw error;
      throw new LaunchError('ORCH_BAD_REQUEST', `launch_run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Starts a prepared run; resolves with its id once it has started. */
  async start(prepared: PreparedRun): Promise<string> {
    let summary: RunSummary;
    try {
      summary = await this.runs.start({ source: prepared.source, file: prepared.file, context: prepared.context, ...(this.options.simulate ? { simulate: true } : {}) });
    } catch (error) {
      throw launchError(error);
    }
    this.started.set(summary.id, { at: Date.now(), prepared });
    const description = {
      format: 'orchestra.run-description/1',
      id: summary.id,
      task: prepared.input.task,
      pipeline: prepared.pipeline,
      mode: prepared.mode,
      parameters: prepared.input,
      started_at: summary.started_at,
    };
    writeFileSync(join(summary.run_dir, RUN_DESCRIPTION_FILE), `${JSON.stringify(description, null, 2)}\n`);
    return summary.id;
  }

  /** {@link prepare} then {@link start}. */
  async launch(raw: unknown): Promise<string> {
    return this.start(this.prepare(raw));
  }

  /** Resolves once run `id` stops (ended, cancelled, or its process gone), with its result. */
  async wait(id: string, signal?: AbortSignal): Promise<RunResult> {
    const log = await this.call(() => this.runs.events(id));
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
  async result(id: string): Promise<RunResult> {
    const report = await this.call(() => this.runs.report(id));
    const summary = await this.call(() => this.runs.summary(id, report));
    const description = readDescription(summary.run_dir);
    const context = report.restored.context;
    const started = Date.parse(summary.started_at);
    const ended = summary.state === 'completed' || summary.state === 'failed';
    return {
      id,
      task: description?.task ?? String(context.task ?? ''),
      pipeline: description?.pipeline ?? summary.source_file ?? summary.pipeline,
      status: statusOf(summary),
      duration_ms: ended || !summary.live ? lastEventAt(summary.run_dir, started) - started : Date.now() - started,
      tokens: summary.usage ? { input_tokens: summary.usage.input_tokens, output_tokens: summary.usage.output_tokens, total_tokens: summary.usage.total_tokens } : null,
      final_response: finalResponse(summary.run_dir, context, summary.completed_nodes),
      artifacts: artifactsOf(summary.run_dir),
      run_dir: summary.run_dir,
      failure_reason: summary.failure_reason,
      completed_nodes: summary.completed_nodes,
      questions: summary.questions.map((q) => ({ id: q.id, node_id: q.node_id, text: q.text, options: q.options })),
    };
  }

  /** The runs of the project, newest first. */
  async list(): Promise<RunResult[]> {
    const out: RunResult[] = [];
    for (const entry of await this.runs.list()) if (entry.state !== 'unreadable') out.push(await this.result(entry.id));
    return out;
  }

  /** Answers a question a run waits for. */
  async answer(id: string, questionId: string, text: string): Promise<void> {
    await this.call(() => this.runs.answer(id, questionId, text));
  }

  /** Cancels a run this launcher drives; resolves with its result once it stopped. */
  async cancel(id: string): Promise<RunResult> {
    await this.call(() => this.runs.cancel(id));
    return this.result(id);
  }

  /** Stops every run it drives (each stays resumable). */
  close(): Promise<void> {
    return this.runs.close();
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw launchError(error);
    }
  }
}

function statusOf(summary: RunSummary): RunResult['status'] {
  if (summary.state === 'completed' || summary.state === 'restarted') return 'completed';
  if (summary.state === 'failed') return 'failed';
  if (summary.questions.length > 0) return 'waiting';
  if (summary.live || summary.state === 'running') return 'running';
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
function finalResponse(dir: string, context: Record<string, JsonValue>, completed: readonly string[]): string | null {
  const results = context['parallel.results'];
  const best = context['parallel.fan_in.best_id'];
  const lastStage = typeof context.last_stage === 'string' ? completed.lastIndexOf(context.last_stage) : -1;
  if (Array.isArray(results) && typeof best === 'string') {
    const fanInAfter = completed.slice(lastStage + 1).some((node) => setsBestBranch(dir, node));
    if (fanInAfter || lastStage < 0) return bestOf(dir, results, best);
  }
  if (typeof context.last_stage === 'string') return responseOf(dir, context.last_stage) ?? (typeof context.last_response === 'string' ? context.last_response : null);
  return null;
}

/** A stage's whole response, if it wrote one. */
function responseOf(dir: string, node: string): string | undefined {
  try {
    return readFileSync(join(dir, node, 'response.md'), 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether a node's status.json records a fan-in's pick. */
function setsBestBranch(dir: string, node: string): boolean {
  try {
    const status = JSON.parse(readFileSync(join(dir, node, 'status.json'), 'utf8')) as { context_updates?: Record<string, unknown> };
    return status.context_updates?.['parallel.fan_in.best_id'] !== undefined;
  } catch {
    return false;
  }
}

/** The best branch's answer: its last stage's response, else what it put in the context. */
function bestOf(dir: string, results: JsonValue[], best: string): string | null {
  const entry = results.find((r) => typeof r === 'object' && r !== null && !Array.isArray(r) && r.id === best) as Record<string, JsonValue> | undefined;
  const nodes = Array.isArray(entry?.completed_nodes) ? entry.completed_nodes.filter((n): n is string => typeof n === 'string') : [];
  for (const node of [...nodes].reverse()) {
    const text = responseOf(dir, node);
    if (text !== undefined) return text;
  }
  const updates = entry?.context_updates as Record<string, JsonValue> | undefined;
  if (typeof updates?.answer === 'string') return updates.answer;
  return typeof updates?.last_response === 'string' ? updates.last_response : null;
}

function artifactsOf(dir: string): string[] {
  const root = join(dir, 'artifacts');
  return existsSync(root) ? filesUnder(root).map((path) => relative(dir, path)) : [];
}

/** When the run last recorded an event (its end, for a run that stopped). */
function lastEventAt(dir: string, fallback: number): number {
  try {
    const lines = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1] as string) as { at?: string };
    const at = last.at ? Date.parse(last.at) : Number.NaN;
    return Number.isNaN(at) ? fallback : at;
  } catch {
    return fallback;
  }
}
