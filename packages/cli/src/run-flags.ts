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
}
