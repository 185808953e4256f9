import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  CassettePlayer,
  CassetteRecorder,
  cassetteHandlers,
  cassetteInterviewer,
  isOrchestraError,
  type Cassette,
  type Handler,
  type Interviewer,
  type RunResult,
} from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { loadRunConfig } from './llm-backend.js';
import type { RunFlags } from './run-flags.js';

/** The cassette flags of `orchestra run`. */
export interface CassetteFlags {
  /** `--record FILE`: write the run's model traffic, answers and tool results to FILE. */
  record?: string;
  /** `--replay FILE`: answer them from FILE, with no network and no person. */
  replay?: string;
  /** `--replay-mode strict|lenient` (default strict). */
  replayMode?: string;
}

const MODES = ['strict', 'lenient'] as const;

/** Variables whose values look like secrets (besides the providers' key variables): never written to a cassette. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

/** What is wrong with a run's cassette flags together with the others, or undefined. */
export function cassetteFlagsProblem(flags: CassetteFlags & RunFlags & { store?: string; detach?: boolean }): string | undefined {
  if (flags.record !== undefined && flags.replay !== undefined) return 'use --record or --replay, not both';
  if (flags.replayMode !== undefined && flags.replay === undefined) return '--replay-mode goes with --replay FILE';
  if (flags.replayMode !== undefined && !(MODES as readonly string[]).includes(flags.replayMode)) return `--replay-mode is ${JSON.stringify(flags.replayMode)}; expected strict or lenient`;
  const which = flags.record !== undefined ? '--record' : flags.replay !== undefined ? '--replay' : undefined;
  if (!which) return undefined;
  if (flags.simulate) return `${which} records or replays a run's model traffic; a simulated run has none (drop --simulate)`;
  if (flags.store !== undefined || flags.detach) return `${which} runs the pipeline in this process with a run directory; it does not go with --store or --detach`;
  if (which === '--record' && flags.park) return '--record records the answers given while the run goes on; --park leaves them to orchestra answer: drop --park (or answer with --answers FILE)';
  if (which === '--replay' && (flags.autoApprove || flags.answers || flags.park)) return '--replay answers the run\'s questions from the cassette: drop --auto-approve, --answers and --park';
  return undefined;
}

/** A run's cassette, as `orchestra run` uses it. */
export interface CliCassette {
  cassette: Cassette;
  /** The run's flags: for a replay, the model flags it was recorded with fill in those not given. */
  flags<F extends RunFlags>(flags: F): F;
  /** Who answers the run's questions: the cassette (replay), or `questions` with each answer recorded. */
  interviewer(questions: Interviewer | 'park'): Interviewer | 'park';
  /** Handlers that replace the built-ins (the tool node). */
  handlers(): Record<string, Handler>;
  /** Aborted (besides `signal`) when a replay meets a request the cassette does not hold. */
  signal(signal: AbortSignal): AbortSignal;
  /** After the run (or its failure): prints what the cassette says; the exit code to use instead, if any. */
  finish(io: CliIO, result: RunResult | undefined): Promise<number | undefined>;
  /** The run did not start: a cassette being recorded is removed. */
  discard(): Promise<void>;
}

async function secretValues(sourceFile: string): Promise<string[]> {
  const { apiKeyValues } = await import('@orchestra/llm/config');
  const fromConfig = apiKeyValues(await loadRunConfig(sourceFile), process.env);
  const lookAlike = Object.entries(process.env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.trim().length >= 8)
    .map(([, value]) => (value as string).trim());
  return [...fromConfig, ...lookAlike];
}

function modelFlagsOf(flags: RunFlags): Record<string, string> {
  return {
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.backend ? { backend: flags.backend } : {}),
  };
}

/**
 * Opens the cassette `--record` or `--replay` names for a run of `run`
 * (undefined without either): a replay's cassette is read and checked
 * against the pipeline before anything runs. A cassette that cannot be used
 * is an error message (exit 2).
 */
export async function openCliCassette(flags: CassetteFlags & RunFlags, run: { source: string; pipeline: string; sourceFile: string }, io: CliIO): Promise<CliCassette | string | undefined> {
  try {
    if (flags.replay !== undefined) {
      const player = await CassettePlayer.open(resolve(flags.replay), {
        source: run.source,
        mode: flags.replayMode === 'lenient' ? 'lenient' : 'strict',
        onWarning: (message) => io.stderr(`orchestra: warning: ${escapeControl(message, { keepNewlines: false })}\n`),
      });
      return playing(player);
    }
    if (flags.record !== undefined) {
      const recorder = await CassetteRecorder.create(resolve(flags.record), { pipeline: run.pipeline, source: run.source, flags: modelFlagsOf(flags), secrets: await secretValues(run.sourceFile) });
      return recording(recorder, flags.record, flags.quiet === true || flags.json === true);
    }
    return undefined;
  } catch (error) {
    if (isOrchestraError(error)) return error.message;
    const e = error as NodeJS.ErrnoException;
    if (e.code && e.syscall) return `cannot write the cassette ${flags.record ?? ''}: ${e.message}`;
    throw error;
  }
}

function playing(player: CassettePlayer): CliCassette {
  const stop = new AbortController();
  player.onMismatch((error) => stop.abort(error));
  return {
    cassette: player,
    flags: (flags) => ({ ...player.header.flags, ...flags }),
    interviewer: () => cassetteInterviewer(player),
    handlers: () => cassetteHandlers(player),
    signal: (signal) => AbortSignal.any([signal, stop.signal]),
    discard: async () => {},
    async finish(io, result) {
      if (player.mismatch) {
        io.stderr(`orchestra: the replay stopped: ${escapeControl(player.mismatch.message, { keepNewlines: false })}\n`);
        return ExitCode.failed;
      }
      if (result && (result.status === 'success' || result.status === 'fail')) {
        try {
          player.finish();
        } catch (error) {
          if (!isOrchestraError(error)) throw error;
          io.stderr(`orchestra: the replay did not use the whole cassette: ${escapeControl(error.message, { keepNewlines: false })}\n`);
          return ExitCode.failed;
        }
      }
      return undefined;
    },
  };
}

function recording(recorder: CassetteRecorder, name: string, quiet: boolean): CliCassette {
  return {
    cassette: recorder,
    flags: (flags) => flags,
    interviewer: (questions) => (questions === 'park' ? questions : cassetteInterviewer(recorder, questions)),
    handlers: () => cassetteHandlers(recorder),
    signal: (signal) => signal,
    discard: () => rm(recorder.file, { force: true }),
    async finish(io, result) {
      // Refused before it started: no cassette is left behind.
      if (result === undefined && recorder.recorded === 0) {
        await rm(recorder.file, { force: true });
        return undefined;
      }
      try {
        await recorder.flush();
      } catch (error) {
        if (!isOrchestraError(error)) throw error;
        io.stderr(`orchestra: ${escapeControl(error.message, { keepNewlines: false })}\n`);
        return ExitCode.failed;
      }
      if (!quiet) io.stderr(`orchestra: recorded the run in ${escapeControl(name, { keepNewlines: false })} (replay it with --replay ${escapeControl(name, { keepNewlines: false })})\n`);
      return undefined;
    },
  };
}
