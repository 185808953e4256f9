import { z } from 'zod';

/** How a run's human gates are answered, as its manifest records it. */
export const INTERVIEWER_MODES = ['console', 'auto-approve', 'answers', 'park'] as const;

/**
 * The options a run was started with that change how it behaves
 * (`run_options` in manifest.json), as the CLI records them: `orchestra
 * resume <dir>` alone continues the run the same way (flags given to resume
 * replace them), and a server that resumes a run reads them too.
 */
export const RecordedRunOptionsSchema = z.object({
  simulate: z.boolean().optional(),
  interviewer: z.enum(INTERVIEWER_MODES).optional(),
  /** The `--answers` file, absolute. */
  answers: z.string().optional(),
  model: z.string().optional(),
  base_url: z.string().optional(),
  backend: z.string().optional(),
  /** How phased LLM stages without agent.mode discuss (`-i` / `-I`, or the terminal check). */
  phased_mode: z.enum(['direct', 'interactive']).optional(),
  /** The cassette the run was replayed from (`--replay`), absolute: such a run is not resumed (its models were never called). */
  replay: z.string().optional(),
});
/** How a run behaves, as its manifest records it (`run_options`) so that a resume continues it the same way. */
export type RecordedRunOptions = z.infer<typeof RecordedRunOptionsSchema>;
