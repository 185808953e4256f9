import type { BaseMessage } from '@langchain/core/messages';

/** Most threads kept in memory; the least recently used go first. */
export const MAX_THREADS = 256;

/** Longest history (in characters, about 4 per token) a reused thread keeps; older exchanges are dropped. */
export const MAX_THREAD_CHARS = 400_000;

function sizeOf(messages: readonly BaseMessage[]): number {
  let n = 0;
  for (const m of messages) n += typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length;
  return n;
}

/**
 * Drops the oldest messages until the history fits `limit` characters,
 * keeping a leading system message and starting the kept part at a human
 * message (so a tool result never loses the call it answers).
 */
export function compactHistory(messages: readonly BaseMessage[], limit = MAX_THREAD_CHARS): BaseMessage[] {
  if (sizeOf(messages) <= limit) return [...messages];
  const system = messages[0]?.getType() === 'system' ? [messages[0]] : [];
  let rest = messages.slice(system.length);
  while (rest.length > 1 && sizeOf([...system, ...rest]) > limit) {
    rest = rest.slice(1);
    const next = rest.findIndex((m) => m.getType() === 'human');
    rest = next === -1 ? [] : rest.slice(next);
  }
  return [...system, ...rest];
}

/**
 * LLM sessions kept for `full` fidelity (spec §5.4): the messages of each
 * thread of each run, in memory. A stage stores the session it ended with
 * under its thread key and under its own node id, so a later stage whose
 * thread falls back to "the previous node" continues that node's session.
 * Sessions live as long as the process: a resumed run starts without them
 * (and the stage degrades to a `summary:high` preamble).
 */
export class ThreadSessions {
  private readonly threads = new Map<string, { messages: BaseMessage[] }>();

  private static key(runId: string, thread: string): string {
    return `${runId}\u0000${thread}`;
  }

  /** A copy of the thread's messages, or undefined when this process has none. */
  get(runId: string, thread: string): BaseMessage[] | undefined {
    const key = ThreadSessions.key(runId, thread);
    const entry = this.threads.get(key);
    if (!entry) return undefined;
    this.threads.delete(key); // most recently used last
    this.threads.set(key, entry);
    return [...entry.messages];
  }

  /** Stores a stage's session under its thread key and its node id. */
  set(runId: string, thread: string, nodeId: string, messages: readonly BaseMessage[]): void {
    const entry = { messages: compactHistory(messages) };
    for (const name of new Set([thread, nodeId])) {
      const key = ThreadSessions.key(runId, name);
      this.threads.delete(key);
      this.threads.set(key, entry);
    }
    while (this.threads.size > MAX_THREADS) {
      const oldest = this.threads.keys().next().value as string;
      this.threads.delete(oldest);
    }
  }
}
