import { escapeControl } from '../text/escape-control.js';
import { pipelineHash } from '../engine/store/pipeline-hash.js';
import { CassetteError } from './cassette-error.js';
import { readCassette, type CassetteContents, type CassetteLine } from './cassette-file.js';
import type { CassetteHeader, CassetteKind, ReplayMode } from './cassette-format.js';
import { firstJsonDifference } from './json-difference.js';

/** Options of {@link CassettePlayer.open}. */
export interface CassetteReplayOptions {
  /** The source of the pipeline about to run: a cassette recorded from another one is refused. */
  source: string;
  /** `strict` (default): a request the cassette does not hold exactly stops the run. `lenient`: it gets the stage's next recorded reply, with a warning. */
  mode?: ReplayMode;
  /** Hears each lenient mismatch (one line). */
  onWarning?: (message: string) => void;
}

const LABELS: Record<CassetteKind, string> = { model: 'model request', answer: 'question', tool: 'tool run', tool_call: 'tool call', hook: 'tool hook' };
const SHOWN = 60;

function show(value: unknown, from = 0): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') {
    const start = Math.max(0, from - 20);
    const piece = value.slice(start, start + SHOWN);
    return `${start > 0 ? '…' : ''}${escapeControl(JSON.stringify(piece), { keepNewlines: false })}${start + SHOWN < value.length ? '…' : ''}`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return escapeControl(text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text, { keepNewlines: false });
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Answers a run's requests from a cassette, with no network and no person:
 * each model request, question, tool run and tool call of a stage gets the
 * reply recorded for the same request at that stage (the first unused one
 * that is equal, so concurrent requests find theirs), else — `lenient` —
 * the stage's next unused reply. A request it cannot answer is a
 * `CassetteError` (`ORCH_CASSETTE_MISMATCH`) whose one-line message names the
 * stage, the request's number there and what differs; the first is kept in
 * {@link mismatch} and told to {@link onMismatch} listeners, so a front end
 * can stop the run.
 */
export class CassettePlayer {
  readonly mode = 'replay' as const;
  private readonly pools = new Map<string, CassetteLine[]>();
  private readonly asked = new Map<string, number>();
  private readonly used = new Set<CassetteLine>();
  private readonly listeners: ((error: CassetteError) => void)[] = [];
  private first: CassetteError | undefined;

  private constructor(
    private readonly contents: CassetteContents,
    readonly replayMode: ReplayMode,
    private readonly warn: (message: string) => void,
  ) {
    for (const entry of contents.entries) {
      const key = `${entry.type}\u0000${entry.stage}`;
      const pool = this.pools.get(key);
      if (pool) pool.push(entry);
      else this.pools.set(key, [entry]);
    }
  }

  /**
   * Reads a cassette for a run of `options.source`: a damaged one names its
   * line (`ORCH_CASSETTE_DAMAGED`); one recorded from another pipeline is
   * refused (`ORCH_CASSETTE_FOREIGN`) before anything runs.
   */
  static async open(file: string, options: CassetteReplayOptions): Promise<CassettePlayer> {
    const contents = await readCassette(file);
    const actual = pipelineHash(options.source);
    if (actual !== contents.header.pipeline_sha256) {
      throw new CassetteError(
        'ORCH_CASSETTE_FOREIGN',
        `${file} was recorded from another pipeline (${contents.header.pipeline}, sha256 ${contents.header.pipeline_sha256.slice(0, 12)}…; this one is ${actual.slice(0, 12)}…): record it again with orchestra run --record`,
      );
    }
    return new CassettePlayer(contents, options.mode ?? 'strict', options.onWarning ?? (() => {}));
  }

  /** The cassette's path. */
  get file(): string {
    return this.contents.file;
  }

  /** The cassette's header (the recorded pipeline, time, flags). */
  get header(): CassetteHeader {
    return this.contents.header;
  }

  /** The first request the cassette could not answer, if any. */
  get mismatch(): CassetteError | undefined {
    return this.first;
  }

  /** Calls `listener` with the first (and each later) mismatch as it happens. */
  onMismatch(listener: (error: CassetteError) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The recorded reply to `request`, the next `kind` exchange of `stage`.
   * Throws `ORCH_CASSETTE_MISMATCH` (see the class) when there is none.
   */
  take(kind: CassetteKind, stage: string, request: unknown): unknown {
    const key = `${kind}\u0000${stage}`;
    const n = (this.asked.get(key) ?? 0) + 1;
    this.asked.set(key, n);
    const pool = this.pools.get(key) ?? [];
    const exact = pool.find((entry) => !this.used.has(entry) && firstJsonDifference(entry.request, request) === undefined);
    if (exact) {
      this.used.add(exact);
      return exact.response;
    }
    const label = LABELS[kind];
    const where = `stage ${escapeControl(stage, { keepNewlines: false })}, ${label} ${n}`;
    const next = pool.find((entry) => !this.used.has(entry));
    if (!next) {
      const held = pool.length === 0 ? 'no' : `only ${pool.length}`;
      throw this.fail(`${where}: the cassette holds ${held} ${label}${pool.length === 1 ? '' : 's'} for this stage`);
    }
    const d = firstJsonDifference(next.request, request);
    const at = d && typeof d.left === 'string' && typeof d.right === 'string' ? commonPrefix(d.left, d.right) : 0;
    const what = d ? `${d.path} differs: cassette ${show(d.left, at)}, now ${show(d.right, at)}` : 'differs';
    const message = `${where}: ${what} (${this.contents.file}:${next.line})`;
    if (this.replayMode === 'strict') throw this.fail(message);
    this.warn(`${message}; answered with the recorded reply`);
    this.used.add(next);
    return next.response;
  }

  /** The recorded exchanges no request has used (in recorded order). */
  unused(): CassetteLine[] {
    return this.contents.entries.filter((entry) => !this.used.has(entry));
  }

  /**
   * After the run: in `strict` mode, recorded exchanges the run never asked
   * for are an `ORCH_CASSETTE_UNUSED` error naming the first; in `lenient`
   * mode a warning.
   */
  finish(): void {
    const left = this.unused();
    const first = left[0];
    if (!first) return;
    const message = `the run ended with ${left.length} recorded exchange${left.length === 1 ? '' : 's'} unused, the first: stage ${escapeControl(first.stage, { keepNewlines: false })}, ${LABELS[first.type]} ${first.n} (${this.contents.file}:${first.line})`;
    if (this.replayMode === 'strict') throw new CassetteError('ORCH_CASSETTE_UNUSED', message);
    this.warn(message);
  }

  private fail(message: string): CassetteError {
    const error = new CassetteError('ORCH_CASSETTE_MISMATCH', message);
    Object.assign(error, { retryable: false });
    this.first ??= error;
    for (const listener of this.listeners) listener(error);
    return error;
  }
}
