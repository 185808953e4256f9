/** One server-sent event as a client sees it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * A minimal SSE client over fetch (so tests can send `Last-Event-ID` and
 * stop whenever they like): `next()` resolves with each event in order.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];
  private done = false;
  status = 0;

  private constructor() {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: client.controller.signal });
    client.status = response.status;
    if (!response.ok || !response.body) {
      client.done = true;
      return client;
    }
    void client.read(response.body);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          this.parse(block);
        }
      }
    } catch {
      // aborted
    } finally {
      this.done = true;
      this.wake();
    }
  }

  private parse(block: string): void {
    const event: SseEvent = { event: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') event.id = value;
    }
    if (data.length === 0 && event.event === 'message') {
      this.wake();
      return;
    }
    event.data = data.join('\n');
    this.events.push(event);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Waits until `predicate` holds for the events so far (or the stream ends); fails after `timeoutMs`. */
  async until(predicate: (events: SseEvent[]) => boolean, timeoutMs = 10_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      if (this.done) throw new Error(`the stream ended before the condition held; events: ${this.events.map((e) => `${e.id ?? '-'}:${e.event}`).join(' ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; events: ${this.events.map((e) => `${e.id ?? '-'}:${e.event}`).join(' ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events;
  }

  /** Waits for the `end` event. */
  async untilEnd(timeoutMs = 10_000): Promise<SseEvent[]> {
    return this.until((events) => events.some((e) => e.event === 'end'), timeoutMs);
  }

  /** The recorded events (those with an id). */
  recorded(): SseEvent[] {
    return this.events.filter((e) => e.id !== undefined);
  }

  close(): void {
    this.controller.abort();
  }
}
