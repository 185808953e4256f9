import type { ModelOptions } from './model-flags.js';

/** Flags shared by `run` and `resume`. */
export interface RunFlags extends ModelOptions {
  simulate?: boolean;
  autoApprove?: boolean;
  answers?: string;
  /** Park the run at a gate that has no recorded answer instead of asking. */
  park?: boolean;
  quiet?: boolean;
  json?: boolean;
  /** Show a live indicator (the CLI passes whether stderr is a terminal). */
  live?: boolean;
  /** Colour the stage lines and the summary (the CLI passes `colourEnabled(process.stdout)`). */
  colour?: boolean;
  /**
   * `-i` / `-I`: phased LLM stages that set no `agent.mode` hold their
   * Discuss phase with you (true) or on their own (false); undefined: with
   * you exactly when stdin and stdout are terminals (see {@link phasedModeOf}).
   */
  interactive?: boolean;
  /** `--otel`: send OpenTelemetry traces of the run (also on when an OTLP endpoint variable is set; docs/tracing.md). */
  otel?: boolean;
}

/** How phased stages without `agent.mode` discuss: `-i` / `-I`, else interactive exactly when stdin and stdout are terminals. */
export function phasedModeOf(flags: RunFlags, streams: { stdin: { isTTY?: boolean }; stdout: { isTTY?: boolean } } = process): 'direct' | 'interactive' {
  if (flags.interactive !== undefined) return flags.interactive ? 'interactive' : 'direct';
  return streams.stdin.isTTY === true && streams.stdout.isTTY === true ? 'interactive' : 'direct';
}
