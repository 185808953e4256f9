import { TRANSIENT_EVENT_TYPES, type RunEvent } from '../engine/events.js';

/**
 * One event as the stream delivers it: `id` is the event's line number in
 * `events.jsonl` (from 1); transient events (`llm.delta`) have none and are
 * never replayed.
 */
export interface LoggedEvent {
  id?: number;
  type: string;
  data: string;
}

/** Receives events as they happen; `end` once the run's process stops emitting. */
export interface EventListener {
  event(event: LoggedEvent): void;
  end(): void;
}

/** Where a follower of a {@link RunEventLog} starts: see {@link RunEventLog.attach}. */
export interface FollowStart {
  /** The first recorded event to replay (the id after the client's last). */
  replayFrom: number;
  /** The last recorded event to replay: the log's size when the follower attached. */
  replayTo: number;
  /** What comes after the replay: the text being streamed, the last server message of each type. */
  pending: LoggedEvent[];
  /** True when the log had ended: nothing live follows, the follower ends after `pending`. */
  ended: boolean;
  /** Stops following (nothing is kept for the follower afterwards). */
  detach: () => void;
}

/**
 * The recorded events of one run, numbered as `events.jsonl` numbers them,
 * and the listeners following it live. Seeded with the lines already
 * recorded, so a client reconnecting with `Last-Event-ID` gets exactly what
 * it missed, whether it was recorded before this process or since.
 */
export class RunEventLog {
  private readonly lines: string[];
  private readonly listeners = new Set<EventListener>();
  private over = false;
  /** Streamed LLM text not yet followed by its reply, by node: a client that connects mid-message gets it as one `llm.delta`. */
  private readonly partial = new Map<string, { nodeId: string; text: string; turn?: number; phase?: string; at: string }>();
  /** The last server message of each type ({@link notify}), so a client that connects later gets where things stand. */
  private readonly notices = new Map<string, string>();

  constructor(recorded: readonly string[] = []) {
    this.lines = [...recorded];
  }

  /** How many events are recorded (the id of the last one). */
  get size(): number {
    return this.lines.length;
  }

  /** How many listeners follow the log now. */
  get followers(): number {
    return this.listeners.size;
  }

  /** True once {@link end} was called: no more events come from this process. */
  get ended(): boolean {
    return this.over;
  }

  /** Records (unless transient) and delivers one event. */
  push(event: RunEvent): void {
    this.trackPartial(event);
    const data = JSON.stringify(event);
    let logged: LoggedEvent;
    if (TRANSIENT_EVENT_TYPES.has(event.type)) logged = { type: event.type, data };
    else {
      this.lines.push(data);
      logged = { id: this.lines.length, type: event.type, data };
    }
    for (const listener of this.listeners) listener.event(logged);
  }

  private trackPartial(event: RunEvent): void {
    if (event.type === 'llm.delta') {
      const p = this.partial.get(event.nodeId);
      if (p && p.turn === event.turn && p.phase === event.phase) p.text += event.text;
      else this.partial.set(event.nodeId, { nodeId: event.nodeId, text: event.text, ...(event.turn !== undefined ? { turn: event.turn } : {}), ...(event.phase !== undefined ? { phase: event.phase } : {}), at: event.at });
    } else if ('nodeId' in event && (event.type === 'llm.response' || event.type === 'conversation.reply' || event.type.startsWith('stage.'))) {
      this.partial.delete(event.nodeId);
    }
  }

  /** Delivers a message of the server's own (not a run event; never recorded or replayed), e.g. the pending questions. */
  notify(type: string, value: unknown): void {
    const logged: LoggedEvent = { type, data: JSON.stringify(value) };
    this.notices.set(type, logged.data);
    for (const listener of this.listeners) listener.event(logged);
  }

  /** Appends lines recorded by another process (a run followed through its file). */
  pushLines(lines: readonly string[]): void {
    for (const data of lines) {
      this.lines.push(data);
      const logged: LoggedEvent = { id: this.lines.length, type: eventType(data), data };
      for (const listener of this.listeners) listener.event(logged);
    }
  }

  /** The recorded events after `lastId` (all with 0). */
  since(lastId: number): LoggedEvent[] {
    const from = Math.max(0, Math.min(lastId, this.lines.length));
    return this.lines.slice(from).map((data, i) => ({ id: from + i + 1, type: eventType(data), data }));
  }

  /** The recorded event with this id (from 1), or undefined. */
  recorded(id: number): LoggedEvent | undefined {
    const data = Number.isInteger(id) && id >= 1 ? this.lines[id - 1] : undefined;
    return data === undefined ? undefined : { id, type: eventType(data), data };
  }

  /**
   * Replays what came after `lastId`, then the text an LLM is streaming now
   * (one `llm.delta` per node, what was streamed so far) and the last server
   * message of each type (the pending questions), then follows: no
   * event is lost or repeated between the two. Returns the unsubscribe
   * function; a log that has ended calls `end` at once.
   */
  follow(lastId: number, listener: EventListener): () => void {
    const start = this.attach(lastId, listener);
    for (let id = start.replayFrom; id <= start.replayTo; id++) listener.event(this.recorded(id) as LoggedEvent);
    for (const event of start.pending) listener.event(event);
    if (start.ended) listener.end();
    return start.detach;
  }

  /**
   * {@link follow} for a follower that reads the replay itself, at its own
   * pace: `listener` gets only what happens from now on, and the follower
   * delivers first the recorded events `replayFrom`..`replayTo` (read with
   * {@link recorded}; none when `replayFrom` > `replayTo`), then `pending`,
   * then what `listener` got, then its end if `ended` (a log that has ended
   * takes no listener).
   */
  attach(lastId: number, listener: EventListener): FollowStart {
    const replayFrom = Math.max(0, Math.min(lastId, this.lines.length)) + 1;
    const pending: LoggedEvent[] = [];
    for (const p of this.partial.values()) {
      pending.push({ type: 'llm.delta', data: JSON.stringify({ type: 'llm.delta', nodeId: p.nodeId, text: p.text, ...(p.turn !== undefined ? { turn: p.turn } : {}), ...(p.phase !== undefined ? { phase: p.phase } : {}), at: p.at }) });
    }
    if (this.over) return { replayFrom, replayTo: this.lines.length, pending, ended: true, detach: () => {} };
    for (const [type, data] of this.notices) pending.push({ type, data });
    // A client that claims events not recorded yet gets none of them twice: live ones up to its id are skipped.
    const follower: EventListener = lastId > this.lines.length ? { event: (e) => (e.id === undefined || e.id > lastId) && listener.event(e), end: () => listener.end() } : listener;
    this.listeners.add(follower);
    return { replayFrom, replayTo: this.lines.length, pending, ended: false, detach: () => this.listeners.delete(follower) };
  }

  /** No more events: tells every listener and lets them go. */
  end(): void {
    if (this.over) return;
    this.over = true;
    this.partial.clear();
    for (const listener of this.listeners) listener.end();
    this.listeners.clear();
  }
}

function eventType(line: string): string {
  try {
    const parsed = JSON.parse(line) as { type?: unknown };
    return typeof parsed.type === 'string' ? parsed.type : 'message';
  } catch {
    return 'message';
  }
}
