import { type CompletionContext, wireToolCalls } from './completion.js';
import type { ReplyStep, ToolCallsStep } from './types.js';
import { usageJson } from './usage.js';

/**
 * Splits a text into stream pieces whose concatenation is the text: `count`
 * pieces of about equal length, or by default one per word (each word with
 * the whitespace before it). Always at least one piece.
 */
export function splitText(text: string, count?: number): string[] {
  const characters = Array.from(text);
  if (count !== undefined) {
    const pieces = Math.max(1, Math.min(Math.floor(count), characters.length));
    const result: string[] = [];
    for (let i = 0; i < pieces; i++) {
      const start = Math.round((i * characters.length) / pieces);
      const end = Math.round(((i + 1) * characters.length) / pieces);
      result.push(characters.slice(start, end).join(''));
    }
    return result;
  }
  const words = text.match(/\s*\S+/g);
  if (!words) return [text];
  const trailing = text.slice(words.join('').length);
  return trailing === '' ? words : [...words.slice(0, -1), `${words.at(-1) ?? ''}${trailing}`];
}

/** One `chat.completion.chunk` with a single choice. */
function chunk(context: CompletionContext, delta: Record<string, unknown>, finishReason: string | null, includeUsage: boolean): Record<string, unknown> {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  };
}

/** The final chunk sent when the request asked for `stream_options.include_usage`. */
export function usageChunk(context: CompletionContext): Record<string, unknown> {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices: [],
    usage: usageJson(context.usage),
  };
}

/** The first chunk of a stream: the assistant role and some (possibly empty) content. */
export function firstChunk(context: CompletionContext, content: string, includeUsage: boolean): Record<string, unknown> {
  return chunk(context, { role: 'assistant', content }, null, includeUsage);
}

/**
 * The chunks of a streamed answer, without the usage chunk. The first carries
 * `delta.role`; the last carries the finish reason. Text comes first, then for
 * each tool call a delta with its index, id, type, name and empty arguments,
 * followed by the arguments in pieces.
 */
export function completionChunks(step: ReplyStep | ToolCallsStep, context: CompletionContext, includeUsage: boolean): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [];
  if (step.kind === 'reply') {
    for (const piece of splitText(step.text, step.chunks)) deltas.push({ content: piece });
  } else {
    if (step.text !== undefined && step.text !== '') {
      for (const piece of splitText(step.text)) deltas.push({ content: piece });
    }
    wireToolCalls(step, context.requestIndex).forEach((call, index) => {
      deltas.push({
        ...(deltas.length === 0 ? { content: null } : {}),
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      });
      const args = call.function.arguments;
      if (args === '') return;
      for (const piece of splitText(args, Math.min(3, args.length))) {
        deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    });
  }
  if (deltas.length === 0) deltas.push({ content: '' });
  const finishReason = step.finishReason ?? (step.kind === 'reply' ? 'stop' : 'tool_calls');
  return deltas.map((delta, position) =>
    chunk(
      context,
      position === 0 ? { role: 'assistant', ...delta } : delta,
      position === deltas.length - 1 ? finishReason : null,
      includeUsage,
    ),
  );
}
