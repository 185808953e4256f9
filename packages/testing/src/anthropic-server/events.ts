import { splitText } from '../openai-server/chunks.js';
import type { ReplyStep, ToolCallsStep } from '../openai-server/types.js';
import { type MessageContext, scriptedToolUses, stopReason, usageJson } from './message.js';

/** One server-sent event of a streamed answer: its name and its JSON data (whose `type` is the name). */
export interface StreamEvent {
  type: string;
  data: Record<string, unknown>;
}

function event(type: string, fields: Record<string, unknown> = {}): StreamEvent {
  return { type, data: { type, ...fields } };
}

/**
 * `message_start`: the message with no content yet, `usage.input_tokens`
 * and `output_tokens: 0`, so that a client adding it to the `message_delta`
 * usage (as LangChain does) gets the scripted output count exactly.
 */
export function messageStart(context: MessageContext): StreamEvent {
  return event('message_start', {
    message: {
      id: context.id,
      type: 'message',
      role: 'assistant',
      model: context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageJson(context.usage, 0),
    },
  });
}

/** `content_block_start` of an empty text block. */
export function textBlockStart(index: number): StreamEvent {
  return event('content_block_start', { index, content_block: { type: 'text', text: '' } });
}

/** A `content_block_delta` carrying a piece of text. */
export function textDelta(index: number, text: string): StreamEvent {
  return event('content_block_delta', { index, delta: { type: 'text_delta', text } });
}

/**
 * The events of a streamed answer, in the order the Anthropic API sends them:
 * `message_start`; per content block a `content_block_start`, its
 * `content_block_delta`s and a `content_block_stop` (a `ping` after the first
 * start, as the API does); `message_delta` with the stop reason and
 * `usage.output_tokens`; `message_stop`.
 *
 * Text arrives in `text_delta` pieces, about one per word (a reply's `chunks`
 * sets the number); an empty reply is a text block without deltas. A tool
 * call is a `tool_use` block (`input: {}`) whose arguments arrive as
 * `input_json_delta` pieces (up to three) of `partial_json`.
 */
export function streamEvents(step: ReplyStep | ToolCallsStep, context: MessageContext): StreamEvent[] {
  const blocks: StreamEvent[][] = [];
  const text = step.kind === 'reply' ? step.text : (step.text ?? '');
  if (step.kind === 'reply' || text !== '') {
    const index = blocks.length;
    const pieces = text === '' ? [] : splitText(text, step.kind === 'reply' ? step.chunks : undefined);
    blocks.push([textBlockStart(index), ...pieces.map((piece) => textDelta(index, piece))]);
  }
  if (step.kind === 'tool_calls') {
    for (const call of scriptedToolUses(step, context.requestIndex)) {
      const index = blocks.length;
      const pieces = call.json === '' ? [] : splitText(call.json, Math.min(3, call.json.length));
      blocks.push([
        event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }),
        ...pieces.map((partial_json) => event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } })),
      ]);
    }
  }
  const events: StreamEvent[] = [messageStart(context)];
  blocks.forEach((block, index) => {
    const [start, ...deltas] = block;
    if (start) events.push(start);
    if (index === 0) events.push(event('ping'));
    events.push(...deltas, event('content_block_stop', { index }));
  });
  events.push(
    event('message_delta', { delta: { stop_reason: stopReason(step), stop_sequence: null }, usage: { output_tokens: context.usage.completionTokens } }),
    event('message_stop'),
  );
  return events;
}
