import { z } from 'zod';

/** The version of the cassette format this orchestra writes and reads. */
export const CASSETTE_VERSION = 1 as const;

/**
 * What a cassette holds, by kind: a model request and its streamed reply
 * (`model`), a human's answer to a question (`answer`), a tool node's outcome
 * (`tool`), an agent's tool call and its result (`tool_call`), and the
 * verdict of a node's `tool_hooks.pre` command on a tool call (`hook`).
 */
export const CASSETTE_KINDS = ['model', 'answer', 'tool', 'tool_call', 'hook'] as const;
/** A kind of recorded exchange ({@link CASSETTE_KINDS}). */
export type CassetteKind = (typeof CASSETTE_KINDS)[number];

/** The first line of a cassette: what was recorded, from which pipeline. */
export const CassetteHeaderSchema = z.strictObject({
  cassette: z.literal('orchestra'),
  version: z.literal(CASSETTE_VERSION),
  /** The pipeline's name (its graph id). */
  pipeline: z.string(),
  /** SHA-256 of the pipeline source, as a run's manifest records it. */
  pipeline_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  recorded_at: z.string(),
  orchestra_version: z.string(),
  /** The model flags the recorded run was given (`--model`, `--base-url`, `--backend`): a replay without its own uses them. */
  flags: z.record(z.string(), z.string()).default({}),
});
/** A cassette's first line ({@link CassetteHeaderSchema}). */
export type CassetteHeader = z.infer<typeof CassetteHeaderSchema>;

const json: z.ZodType<unknown> = z.unknown();

/** One recorded exchange: the `n`-th of its kind at its stage, what was asked and what came back. */
export const CassetteEntrySchema = z.strictObject({
  type: z.enum(CASSETTE_KINDS),
  /** The id of the node that asked (a sub-pipeline's node by its id in the child pipeline, with no prefix). */
  stage: z.string().min(1),
  /** Its number among the stage's exchanges of this kind, from 1. */
  n: z.number().int().positive(),
  request: json,
  response: json,
});
/** A recorded exchange ({@link CassetteEntrySchema}). */
export type CassetteEntry = z.infer<typeof CassetteEntrySchema>;

/** How a replay treats a request the cassette does not hold exactly: `strict` stops the run; `lenient` answers with the stage's next recorded reply and warns. */
export type ReplayMode = 'strict' | 'lenient';
