import type { RunEventLog } from '@orchestra/core';
import { endFrame, formatFrame, HEARTBEAT_FRAME, helloFrame, sharedFrame } from './sse-frames.js';

/** How much one client's event stream may hold, and how it is kept open. */
export interface EventStreamLimits {
  /** Time between heartbeat comments on an idle stream. */
  heartbeatMs: number;
  /**
   * Bytes of live events a client may have waiting (sent by the run, not yet
   * taken by its connection) while its connection takes nothing (its socket's
   * buffers are full). One more event and it is dropped: it reconnects with
   * `Last-Event-ID` and is replayed what it missed.
   */
  maxQueueBytes: number;
}

/** Most bytes handed to the connection at once (the replay is read from the log in pieces of this size). */
const CHUNK_BYTES = 16 * 1024;

/**
 * The last piece made of live frames: the streams that are caught up take
 * the same frames in the same turn, and send the same bytes.
 */
let lastPiece: { parts: Uint8Array[]; bytes: Uint8Array } | undefined;

function samePieces(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The frames as one piece; made once when other streams took the same frames just before. */
function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  if (lastPiece && samePieces(lastPiece.parts, parts)) return lastPiece.bytes;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  lastPiece = { parts, bytes: out };
  return out;
}

/**
 * One client's event stream: `hello`, the recorded events after its last id
 * (read from the run's log as the connection takes them, so a long replay
 * holds nothing), then what happens live, then `end`.
 *
 * {@link body} is pulled: bytes are handed over only when the connection
 * asks for more (@hono/node-server asks once the socket has taken the last
 * piece), and what the run sends meanwhile waits in this client's queue,
 * handed over as one piece (up to 16 KiB) at the next ask. A client whose
 * queue grows past `maxQueueBytes` while its connection asks for nothing, or
 * which takes nothing for two heartbeats while something waits, is dropped:
 * `dropConnection` closes its connection (without one, the stream errors).
 * Closing, dropping or ending lets go of the log, the queue and the timers.
 */
export class EventStreamClient {
  /** The stream's bytes, for the response. */
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private hello: Uint8Array | undefined;
  private replayNext: number;
  private readonly replayTo: number;
  /** After the replay: the text being streamed and the last server messages, as the client attached (not counted in the bound). */
  private catchUp: Uint8Array[];
  private queue: (Uint8Array | undefined)[] = [];
  private queueHead = 0;
  private queuedBytes = 0;
  /** The connection asked for bytes and got none yet. */
  private wanted = false;
  private ending = false;
  private closed = false;
  private scheduled: ReturnType<typeof setImmediate> | undefined;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private asks = 0;
  private asksAtBeat = 0;
  private stalledBeats = 0;
  private readonly detach: () => void;

  constructor(
    private readonly log: RunEventLog,
    lastId: number,
    private readonly limits: EventStreamLimits,
    private readonly dropConnection?: () => void,
  ) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => {
          this.asks++;
          this.wanted = true;
          this.deliver();
        },
        cancel: () => this.close(),
      },
      { highWaterMark: 0 },
    );
    const start = log.attach(lastId, { event: (e) => this.push(sharedFrame(e)), end: () => this.finishLater() });
    this.detach = start.detach;
    this.hello = helloFrame(lastId, log.size);
    this.replayNext = start.replayFrom;
    this.replayTo = start.replayTo;
    this.catchUp = start.pending.map(formatFrame);
    this.ending = start.ended;
    this.heartbeat = setInterval(() => this.beat(), limits.heartbeatMs);
  }

  private push(frame: Uint8Array): void {
    if (this.closed) return;
    this.queue.push(frame);
    this.queuedBytes += frame.byteLength;
    // While the connection waits for bytes, what piles up in this turn goes out at its end: a burst, not a lag.
    if (this.queuedBytes > this.limits.maxQueueBytes && !this.wanted) this.drop();
    else this.schedule();
  }

  private finishLater(): void {
    this.ending = true;
    this.schedule();
  }

  /** What arrives in one turn of the event loop goes out as one piece. */
  private schedule(): void {
    if (!this.wanted || this.closed || this.scheduled) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      this.deliver();
    });
  }

  private deliver(): void {
    if (!this.wanted || this.closed) return;
    const chunk = this.take();
    if (chunk) {
      this.wanted = false;
      this.controller.enqueue(chunk);
    } else if (this.ending) {
      this.wanted = false;
      this.controller.enqueue(endFrame(this.log.size));
      this.controller.close();
      this.close();
    }
  }

  /** The next piece: `hello`, then the replay, the catch-up and the queue; undefined when nothing waits. */
  private take(): Uint8Array | undefined {
    const parts: Uint8Array[] = [];
    let size = 0;
    if (this.hello) {
      parts.push(this.hello);
      size += this.hello.byteLength;
      this.hello = undefined;
    }
    while (size < CHUNK_BYTES && this.replayNext <= this.replayTo) {
      const event = this.log.recorded(this.replayNext++);
      if (!event) continue;
      const frame = formatFrame(event);
      parts.push(frame);
      size += frame.byteLength;
    }
    while (size < CHUNK_BYTES && this.replayNext > this.replayTo && this.catchUp.length > 0) {
      const frame = this.catchUp.shift() as Uint8Array;
      parts.push(frame);
      size += frame.byteLength;
    }
    while (size < CHUNK_BYTES && this.catchUp.length === 0 && this.queueHead < this.queue.length) {
      const frame = this.queue[this.queueHead] as Uint8Array;
      this.queue[this.queueHead++] = undefined;
      parts.push(frame);
      size += frame.byteLength;
      this.queuedBytes -= frame.byteLength;
    }
    if (this.queueHead === this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 1024) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    return parts.length === 0 ? undefined : concat(parts, size);
  }

  private waiting(): boolean {
    return this.hello !== undefined || this.replayNext <= this.replayTo || this.catchUp.length > 0 || this.queueHead < this.queue.length;
  }

  private beat(): void {
    if (this.closed) return;
    if (!this.waiting()) {
      this.stalledBeats = 0;
      this.push(HEARTBEAT_FRAME);
    } else if (this.asks === this.asksAtBeat) {
      if (++this.stalledBeats >= 2) return this.drop();
    } else {
      this.stalledBeats = 0;
    }
    this.asksAtBeat = this.asks;
  }

  /** Drops a client that fell behind: its connection is closed (without one, its stream errors). */
  private drop(): void {
    if (this.closed) return;
    this.close();
    if (this.dropConnection) {
      // The connection's end is the client's signal; the stream just stops.
      this.dropConnection();
      this.controller.close();
    } else {
      this.controller.error(new Error('the client fell behind the run; it reconnects with Last-Event-ID'));
    }
  }

  /** Stops following the run and lets go of everything this client held. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wanted = false;
    this.detach();
    clearInterval(this.heartbeat);
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.queue = [];
    this.queueHead = 0;
    this.queuedBytes = 0;
    this.hello = undefined;
    this.catchUp = [];
    this.replayNext = this.replayTo + 1;
  }
}
