import { CassetteWriter } from './cassette-file.js';
import { CASSETTE_VERSION, type CassetteKind } from './cassette-format.js';
import { scrubSecrets } from './scrub-secrets.js';
import { pipelineHash } from '../engine/store/pipeline-hash.js';
import { ORCHESTRA_VERSION } from '../engine/run-engine.js';

/** Options of {@link CassetteRecorder.create}. */
export interface CassetteRecordOptions {
  /** The pipeline's name (its graph id). */
  pipeline: string;
  /** The pipeline's source text: its hash ties the cassette to it. */
  source: string;
  /** The run's model flags (`model`, `baseUrl`, `backend`), which a replay reuses unless given its own. */
  flags?: Readonly<Record<string, string>>;
  /** Values never written (API keys): replaced by `[redacted]` wherever they appear. */
  secrets?: readonly string[];
}

/**
 * Records a run's exchanges into a cassette: every model request with its
 * streamed reply, every human answer, every tool node's outcome and every
 * agent tool call, each numbered within its stage and kind, credentials
 * removed. `orchestra run --record` uses one; so can a library user (give it
 * to `createModelBackend({ cassette })`, {@link cassetteInterviewer} and
 * {@link cassetteHandlers}).
 */
export class CassetteRecorder {
  readonly mode = 'record' as const;
  private readonly counts = new Map<string, number>();

  private constructor(
    private readonly writer: CassetteWriter,
    private readonly secrets: readonly string[],
  ) {}

  /** The cassette's path. */
  get file(): string {
    return this.writer.file;
  }

  /** How many exchanges have been recorded. */
  get recorded(): number {
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  /** Starts a cassette at `file` (replacing one there) for a run of the pipeline `options.source`. */
  static async create(file: string, options: CassetteRecordOptions): Promise<CassetteRecorder> {
    const header = {
      cassette: 'orchestra' as const,
      version: CASSETTE_VERSION,
      pipeline: options.pipeline,
      pipeline_sha256: pipelineHash(options.source),
      recorded_at: new Date().toISOString(),
      orchestra_version: ORCHESTRA_VERSION,
      flags: scrubSecrets({ ...options.flags }, options.secrets ?? []) as Record<string, string>,
    };
    return new CassetteRecorder(await CassetteWriter.create(file, header), options.secrets ?? []);
  }

  /** Records one exchange of `stage` (appended as the next of its kind there). */
  record(kind: CassetteKind, stage: string, request: unknown, response: unknown): void {
    const key = `${kind}\u0000${stage}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    this.writer.append({ type: kind, stage, n, request: scrubSecrets(request, this.secrets), response: scrubSecrets(response, this.secrets) });
  }

  /** Waits until everything recorded is in the file. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
