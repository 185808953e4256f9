import type { CoreErrorCode } from '../error-codes.js';
import { OrchestraError } from '../errors.js';
import type { JsonValue } from './outcome.js';

/** Thrown when a context value is not plain JSON data. Code `ORCH_CONTEXT_VALUE`. */
export class ContextValueError extends OrchestraError<Extract<CoreErrorCode, 'ORCH_CONTEXT_VALUE'>> {
  /** `subject` names what was refused (default: the context value for `key`). */
  constructor(key: string, reason: string, subject = `context value for ${JSON.stringify(key)}`) {
    super('ORCH_CONTEXT_VALUE', `${subject} ${reason}; it must be JSON data (strings, numbers, booleans, null, arrays, plain objects)`);
    this.name = 'ContextValueError';
  }
}

/**
 * A deep copy of `value` as JSON data; throws {@link ContextValueError} for
 * anything else, naming `subject` (default: the context value for `key`).
 */
export function toJsonValue(key: string, value: unknown, subject?: string): JsonValue {
  return toJson(key, value, new Set(), subject);
}

/** Deep-copies a value, refusing anything that is not JSON data. */
function toJson(key: string, value: unknown, seen: Set<object>, subject?: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ContextValueError(key, `is ${value}, which JSON cannot hold`, subject);
    return value;
  }
  if (typeof value === 'object') {
    if (seen.has(value)) throw new ContextValueError(key, 'contains a cycle', subject);
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => toJson(key, v, seen, subject));
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new ContextValueError(key, `is an instance of ${(value as object).constructor?.name ?? 'a class'}`, subject);
      }
      const out: Record<string, JsonValue> = {};
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        out[k] = toJson(key, v, seen, subject);
      }
      return out;
    } finally {
      seen.delete(value);
    }
  }
  throw new ContextValueError(key, `is a ${typeof value}`, subject);
}

/**
 * The run's key-value store (spec §5.1). Values are JSON data, copied on the
 * way in and out, so a handler can never keep a live reference into it; that
 * is what makes checkpoints exact. Every write is also recorded until
 * {@link RunContext.takeChanges} collects it, which is how the engine journals
 * a step.
 */
export class RunContext {
  private readonly values = new Map<string, JsonValue>();
  private readonly logEntries: string[] = [];
  private changes = new Map<string, JsonValue>();
  /** Values the changed keys had before the first change since the last take (undefined: absent). */
  private previous = new Map<string, JsonValue | undefined>();
  /** Log lines appended since the last take. */
  private newLogs = 0;

  constructor(initial?: Readonly<Record<string, unknown>>) {
    if (initial) this.applyUpdates(initial);
    this.takeChanges();
  }

  /** Sets a key. Throws {@link ContextValueError} for functions, cycles, class instances, NaN. */
  set(key: string, value: unknown): void {
    const json = toJson(key, value, new Set());
    if (!this.previous.has(key)) this.previous.set(key, this.values.get(key));
    this.values.set(key, json);
    this.changes.set(key, json);
  }

  /** A copy of the value of `key`, or `fallback` when absent. */
  get(key: string): JsonValue | undefined;
  get<T extends JsonValue>(key: string, fallback: T): JsonValue | T;
  get(key: string, fallback?: JsonValue): JsonValue | undefined {
    const value = this.values.get(key);
    if (value === undefined) return fallback;
    return typeof value === 'object' && value !== null ? structuredClone(value) : value;
  }

  /** The value as a string (objects as JSON); `fallback` when absent. */
  getString(key: string, fallback = ''): string {
    const value = this.values.get(key);
    if (value === undefined || value === null) return fallback;
    return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** Merges updates (each value checked like {@link RunContext.set}). */
  applyUpdates(updates: Readonly<Record<string, unknown>>): void {
    for (const [key, value] of Object.entries(updates)) this.set(key, value);
  }

  /** A deep copy of every value, as a plain object. */
  snapshot(): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    for (const [key, value] of this.values) out[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
    return out;
  }

  /**
   * The values as of the last {@link RunContext.takeChanges}: what a
   * checkpoint may record while a node is still running.
   */
  committedSnapshot(): Record<string, JsonValue> {
    const out = this.snapshot();
    for (const [key, value] of this.previous) {
      if (value === undefined) delete out[key];
      else out[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
    }
    return out;
  }

  /** The run log as of the last take. */
  committedLogs(): string[] {
    return this.logEntries.slice(0, this.logEntries.length - this.newLogs);
  }

  /** An independent copy (for parallel branches), logs included. */
  clone(): RunContext {
    const copy = new RunContext();
    // Stored values are never changed in place (set replaces them; get and snapshot hand out copies),
    // so the copy shares them: a fan-out of 10,000 branches does not deep-copy the context 10,000 times.
    for (const [key, value] of this.values) copy.values.set(key, value);
    copy.logEntries.push(...this.logEntries);
    return copy;
  }

  /** Appends a line to the run log. */
  appendLog(entry: string): void {
    this.logEntries.push(entry);
    this.newLogs += 1;
  }

  /** The run log. */
  get logs(): readonly string[] {
    return this.logEntries;
  }

  /** The keys written since the last call, with their values; resets the record. */
  takeChanges(): Record<string, JsonValue> {
    const out = Object.fromEntries(this.changes);
    this.changes.clear(); // reused: one node's record at a time, no new maps per node
    this.previous.clear();
    return out;
  }

  /** Log lines appended since the last call. */
  takeNewLogs(): string[] {
    const out = this.newLogs > 0 ? this.logEntries.slice(-this.newLogs) : [];
    this.newLogs = 0;
    return out;
  }

  /** Undoes every write and log line since the last take (a node that did not complete). */
  rollback(): void {
    for (const [key, value] of this.previous) {
      if (value === undefined) this.values.delete(key);
      else this.values.set(key, value);
    }
    if (this.newLogs > 0) this.logEntries.splice(-this.newLogs);
    this.changes.clear();
    this.previous.clear();
    this.newLogs = 0;
  }

  /** Restores a context from a snapshot and log (resume); values are trusted JSON. */
  static restore(values: Readonly<Record<string, JsonValue>>, logs: readonly string[] = []): RunContext {
    const context = new RunContext(values);
    context.logEntries.push(...logs);
    return context;
  }
}
