import type { RunObserver } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import type { CliIO } from '../io.js';
import { tracingSettings } from './tracing-settings.js';

/**
 * Traces for the commands that drive runs: nothing at all unless `--otel`
 * or an OTLP endpoint variable asks for them (tracing-settings.ts); then the
 * SDK and exporter are imported (otel-sdk.ts) and each run's events become
 * spans (`createRunTracing` of @orchestra/core/tracing). A collector that is
 * down or slow costs one warning line when the command ends, never the run.
 */

/** The spans of the runs a command drives, and how to send them before it exits. */
export interface CliTracing {
  /** An observer for one run (its events and its child runs'). */
  observe(): Required<RunObserver>;
  /** Ends the spans still open, sends what is left (waiting a bounded time) and warns on stderr if it could not. */
  finish(): Promise<void>;
}

/** The events after which a run has no open span. */
const ENDINGS: ReadonlySet<string> = new Set(['pipeline.completed', 'pipeline.failed', 'pipeline.interrupted', 'pipeline.parked']);

function warn(io: CliIO, text: string): void {
  io.stderr(`orchestra: warning: ${escapeControl(text)}\n`);
}

/**
 * Starts tracing when `flag` (`--otel`) or the environment asks for it;
 * undefined otherwise (nothing is loaded), or when the SDK cannot be set up
 * (a warning says why; the command goes on without traces).
 */
export async function startCliTracing(flag: boolean | undefined, io: CliIO, env: NodeJS.ProcessEnv = process.env): Promise<CliTracing | undefined> {
  const settings = tracingSettings(flag, env);
  if (!settings) return undefined;
  if (settings.notice) warn(io, settings.notice);
  let otel: Awaited<ReturnType<typeof import('./otel-sdk.js')['startOtel']>>;
  let createRunTracing: typeof import('@orchestra/core/tracing')['createRunTracing'];
  try {
    const [sdk, core] = await Promise.all([import('./otel-sdk.js'), import('@orchestra/core/tracing')]);
    otel = await sdk.startOtel(settings);
    createRunTracing = core.createRunTracing;
  } catch (error) {
    warn(io, `traces are off: the OpenTelemetry SDK could not be set up (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
  const runs = new Set<ReturnType<typeof createRunTracing>>();
  let finished: Promise<void> | undefined;
  return {
    observe() {
      const tracing = createRunTracing(otel.tracer);
      runs.add(tracing);
      return {
        onEvent: (event) => {
          tracing.onEvent(event);
          // Ended (this process's part of it): nothing is left open to end on finish.
          if (ENDINGS.has(event.type)) runs.delete(tracing);
        },
        onChildEvent: tracing.onChildEvent,
      };
    },
    finish() {
      finished ??= (async () => {
        for (const tracing of runs) tracing.end();
        runs.clear();
        const failure = await otel.shutdown();
        if (failure) warn(io, `traces could not be sent to ${settings.shownUrl}: ${failure}`);
      })();
      return finished;
    },
  };
}
