import { EventEmitter } from 'eventemitter3';
import type { RunEvent, RunEventInput } from './events.js';

/**
 * The run's event stream: listeners through `on` (an eventemitter3 emitter)
 * and an async-iterator view through `stream()`. A listener that throws is
 * isolated; it cannot break the run.
 */
export class EventBus {
  private readonly emitter = new EventEmitter<{ event: [RunEvent]; close: [] }>();
  // Listeners may be async; their results are ignored (and rejections swallowed).
  private closed = false;

  /** Emits an event, stamping it with the current time; returns the event. */
  emit(input: RunEventInput): RunEvent {
    const event = { ...input, at: new Date().toISOString() } as RunEvent;
    for (const listener of this.emitter.listeners('event')) {
      try {
        const result: unknown = listener(event);
        // An async listener's rejection must not become an unhandled rejection either.
        if (result instanceof Promise) result.catch(() => {});
      } catch {
        // A broken listener must not stop the pipeline.
      }
    }
    return event;
  }

  /** Calls `listener` for every event; returns a function that removes it. */
  on(listener: (event: RunEvent) => unknown): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
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
