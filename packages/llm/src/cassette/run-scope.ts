import { AsyncLocalStorage } from 'node:async_hooks';
import type { Conversation } from '@orchestra/core';

type ConversationFinish = Parameters<NonNullable<Conversation['finish']>>[0];

const scope = new AsyncLocalStorage<string>();

/** Runs `work` as part of the run `runId`: model calls it makes know their run (see {@link currentRunId}). */
export function inRun<T>(runId: string, work: () => T): T {
  return scope.run(runId, work);
}

/** The id of the run whose stage is calling, inside {@link inRun}. */
export function currentRunId(): string | undefined {
  return scope.getStore();
}

/** A conversation whose turns and finish run inside {@link inRun} (everything else is the conversation's own). */
export function conversationInRun(runId: string, conversation: Conversation): Conversation {
  return new Proxy(conversation, {
    get(target, property) {
      if (property === 'send') return (message: string, options: { signal: AbortSignal }) => inRun(runId, () => target.send(message, options));
      // A phased node's Summarize and Serialize run in finish.
      if (property === 'finish' && target.finish) return (options: ConversationFinish) => inRun(runId, () => (target.finish as NonNullable<Conversation['finish']>).call(target, options));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
