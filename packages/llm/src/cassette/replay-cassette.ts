import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StructuredToolInterface } from '@langchain/core/tools';
import {
  CassettePlayer,
  cassetteHandlers,
  cassetteInterviewer,
  createDefaultRegistry,
  runPipeline,
  ValidationError,
  type RunEvent,
  type RunResult,
} from '@orchestra/core';
import { loadPipeline } from '@orchestra/core/loader';
import { newRunId } from '@orchestra/core/store';
import type { ReplayMode } from '@orchestra/core';
import { loadConfig, type Env, type ModelFlags } from '../config/index.js';
import type { PhaseRegistry } from '../phases/phase-spec.js';
import { createModelBackend } from '../backends/model-backend.js';

/** Options of {@link replayCassette}. */
export interface ReplayCassetteOptions {
  /** The pipeline file (its `orchestra.yaml` is found as `orchestra run` finds it). */
  pipeline: string;
  /** The cassette recorded with `orchestra run --record` (or a {@link CassetteRecorder}). */
  cassette: string;
  /** `strict` (default) or `lenient` (see `CassettePlayer`). */
  mode?: ReplayMode;
  /** The run's initial context (as `--set`). */
  context?: Record<string, unknown>;
  /** Model flags (as `--model`, `--base-url`, `--backend`): each replaces the one the cassette was recorded with, as the flags of `orchestra run --replay` do. */
  flags?: ModelFlags;
  /** The home directory whose `.orchestra/orchestra.yaml` applies (default `HOME` of `env`): a test can keep the developer's settings out. */
  home?: string;
  /** Where the run is kept; default a new temporary directory. */
  logsRoot?: string;
  /** Where tool commands would run and config is searched from; default the working directory. */
  workdir?: string;
  /** As `createModelBackend`: extra agent tools (their calls are replayed too) and phased nodes' schemas. */
  tools?: readonly StructuredToolInterface[];
  phases?: PhaseRegistry;
  /** Hears the run's events. */
  onEvent?: (event: RunEvent) => void;
  /** Environment for `orchestra.yaml` resolution (default `process.env`). No key is needed. */
  env?: Env;
}

/** What a replay did: the run's result, and the lenient mode's warnings. */
export interface ReplayCassetteResult extends RunResult {
  /** `lenient`: each request the cassette did not hold exactly, answered anyway, then the exchanges left unused, if any; empty in `strict`. */
  warnings: string[];
}

/**
 * Runs a pipeline against a cassette, with no network and no person — what
 * `orchestra run --replay` does, for a test:
 *
 * ```ts
 * const result = await replayCassette({ pipeline: 'review.dot', cassette: 'test/review.cassette' });
 * expect(result.status).toBe('success');
 * expect(result.context['review.verdict']).toBe('approve');
 * ```
 *
 * Model calls, human answers, tool nodes and agent tool calls are answered
 * from the cassette. Rejects with a `CassetteError` when the cassette is
 * damaged (`ORCH_CASSETTE_DAMAGED`, naming the line), was recorded from
 * another pipeline (`ORCH_CASSETTE_FOREIGN`, before anything runs), when the
 * run asks something it does not hold (`ORCH_CASSETTE_MISMATCH`: the run is
 * stopped and the message names the stage, the request's number and what
 * differs) and, strict, when the run ends leaving recorded exchanges unused
 * (`ORCH_CASSETTE_UNUSED`); with a `ValidationError` for an invalid pipeline.
 */
export async function replayCassette(options: ReplayCassetteOptions): Promise<ReplayCassetteResult> {
  const file = resolve(options.pipeline);
  const source = await readFile(file, 'utf8');
  const warnings: string[] = [];
  const player = await CassettePlayer.open(options.cassette, { source, mode: options.mode ?? 'strict', onWarning: (message) => warnings.push(message) });
  const loaded = loadPipeline(source, { file: options.pipeline });
  if (!loaded.ok || !loaded.graph) throw new ValidationError(loaded.diagnostics);
  const workdir = options.workdir ?? process.cwd();
  const env = options.env ?? process.env;
  // The home directory is env's HOME unless given: a test passing env: {} keeps ~/.orchestra out.
  const config = loadConfig({ pipelineFile: file, cwd: workdir, ...(options.home !== undefined ? { home: options.home } : {}), env });
  const backend = createModelBackend({
    config,
    env,
    flags: { ...(player.header.flags as ModelFlags), ...options.flags },
    cassette: player,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.phases ? { phases: options.phases } : {}),
  });
  const interviewer = cassetteInterviewer(player);
  const registry = createDefaultRegistry({ backend, interviewer });
  for (const [type, handler] of Object.entries(cassetteHandlers(player))) registry.register(type, handler);
  const stop = new AbortController();
  player.onMismatch((error) => stop.abort(error));
  const result = await runPipeline(loaded.graph, {
    backend,
    interviewer,
    registry,
    signal: stop.signal,
    source,
    sourceFile: file,
    workdir,
    logsRoot: options.logsRoot ?? join(mkdtempSync(join(tmpdir(), 'orchestra-replay-')), newRunId(loaded.graph.name)),
    ...(options.context ? { initialContext: options.context } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  if (player.mismatch) throw player.mismatch;
  if (result.status === 'success' || result.status === 'fail') player.finish();
  return { ...result, warnings };
}
