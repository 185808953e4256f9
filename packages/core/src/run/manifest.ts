import { z } from 'zod';

/** `manifest.json`: what ran, from where, when, with which orchestra. */
export const ManifestSchema = z.object({
  format: z.literal('orchestra.run/1'),
  run_id: z.string(),
  pipeline: z.string(),
  goal: z.string(),
  source_file: z.string().nullable(),
  started_at: z.string(),
  orchestra_version: z.string(),
  /** Where the run began (the start node, or a `loop_restart` target). */
  start_node: z.string(),
  /** The run directory this one was restarted from by `loop_restart`, if any. */
  restarted_from: z.string().nullable(),
  /** Values given with `--set` / `initialContext`, for the record and for restarts. */
  initial_context: z.record(z.string(), z.unknown()),
});

/** The manifest as written. */
export type Manifest = z.infer<typeof ManifestSchema>;
