import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { z } from 'zod';

/** A model request as a cassette holds it: the model, the messages and the tools offered (no endpoint, no key). */
export interface RecordedModelRequest {
  model: string;
  provider?: string;
  messages: Record<string, unknown>[];
  tools?: { name: string; description?: string; parameters?: unknown }[];
  tool_choice?: unknown;
}

function messageOf(message: BaseMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: message.getType(), content: message.content };
  if (message.name) out.name = message.name;
  if (AIMessage.isInstance(message) && message.tool_calls && message.tool_calls.length > 0) {
    out.tool_calls = message.tool_calls.map((c) => ({ id: c.id ?? null, name: c.name, args: c.args }));
  }
  if (ToolMessage.isInstance(message)) out.tool_call_id = message.tool_call_id;
  return out;
}

function toolOf(tool: BindToolsInput): { name: string; description?: string; parameters?: unknown } {
  const converted = convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]);
  const fn = converted.function;
  return { name: fn.name, ...(fn.description ? { description: fn.description } : {}), ...(fn.parameters ? { parameters: fn.parameters } : {}) };
}

/** What stands for the run's id in recorded requests (each run has its own; the preamble names it). */
export const RUN_ID_PLACEHOLDER = '<run id>';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What writes the run's id in a text as {@link RUN_ID_PLACEHOLDER}: where the
 * preamble names the run (`(run <id>)`), whatever the id; elsewhere (a path
 * of the run directory in a tool's output, say) an id of 8 characters or
 * more standing on its own, not inside a longer name.
 */
function withoutRunId(runId: string): (text: string) => string {
  const preamble = `(run ${runId})`;
  const alone = runId.length >= 8 ? new RegExp(`(?<![\\w.-])${escapeRegExp(runId)}(?![\\w-])`, 'g') : undefined;
  return (text) => {
    const out = text.split(preamble).join(`(run ${RUN_ID_PLACEHOLDER})`);
    return alone ? out.replace(alone, RUN_ID_PLACEHOLDER) : out;
  };
}

/**
 * The JSON form of a model request (messages in order, tools by name,
 * description and JSON schema). The id of the run (`runId`), which differs
 * between a recording and its replay, is written as {@link RUN_ID_PLACEHOLDER}
 * (see `withoutRunId`: the preamble's `(run <id>)` always).
 */
export function describeModelRequest(input: { model: string; provider?: string; messages: readonly BaseMessage[]; tools?: readonly BindToolsInput[]; toolChoice?: unknown; runId?: string | undefined }): RecordedModelRequest {
  const strip = input.runId ? withoutRunId(input.runId) : undefined;
  const request = {
    model: input.model,
    ...(input.provider ? { provider: input.provider } : {}),
    messages: input.messages.map(messageOf),
    ...(input.tools && input.tools.length > 0 ? { tools: input.tools.map(toolOf) } : {}),
    ...(input.toolChoice !== undefined ? { tool_choice: input.toolChoice } : {}),
  };
  // One round trip through JSON (the run id taken out of every string on the way): what is compared on replay is exactly what the file holds.
  return JSON.parse(JSON.stringify(request, (_key, value: unknown) => (strip && typeof value === 'string' ? strip(value) : value))) as RecordedModelRequest;
}

/** A streamed chunk of a reply as a cassette holds it. */
const RecordedChunkSchema = z.object({
  content: z.unknown().optional(),
  id: z.string().optional(),
  tool_call_chunks: z.array(z.object({ name: z.string().optional(), args: z.string().optional(), id: z.string().optional(), index: z.number().optional() })).optional(),
  usage_metadata: z.object({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() }).passthrough().optional(),
  response_metadata: z.record(z.string(), z.unknown()).optional(),
});

/** What a cassette holds for a model reply: its chunks in the order they streamed. */
export const RecordedReplySchema = z.object({ chunks: z.array(RecordedChunkSchema) });

/** One streamed chunk, as JSON (text, tool-call pieces, usage, the response's metadata). */
export function chunkRecord(chunk: AIMessageChunk): Record<string, unknown> {
  const pieces = (chunk.tool_call_chunks ?? []).map((c) => ({
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...(c.args !== undefined ? { args: c.args } : {}),
    ...(c.id !== undefined ? { id: c.id } : {}),
    ...(c.index !== undefined ? { index: c.index } : {}),
  }));
  const meta = chunk.response_metadata && Object.keys(chunk.response_metadata).length > 0 ? chunk.response_metadata : undefined;
  return JSON.parse(
    JSON.stringify({
      content: chunk.content,
      ...(chunk.id ? { id: chunk.id } : {}),
      ...(pieces.length > 0 ? { tool_call_chunks: pieces } : {}),
      ...(chunk.usage_metadata ? { usage_metadata: chunk.usage_metadata } : {}),
      ...(meta ? { response_metadata: meta } : {}),
    }),
  ) as Record<string, unknown>;
}

/** A recorded chunk as LangChain's chunk again. */
export function chunkFromRecord(record: z.infer<typeof RecordedChunkSchema>): AIMessageChunk {
  return new AIMessageChunk({
    content: (record.content ?? '') as string,
    ...(record.id ? { id: record.id } : {}),
    ...(record.tool_call_chunks ? { tool_call_chunks: record.tool_call_chunks.map((c) => ({ ...c, type: 'tool_call_chunk' as const })) } : {}),
    ...(record.usage_metadata ? { usage_metadata: record.usage_metadata as AIMessageChunk['usage_metadata'] } : {}),
    ...(record.response_metadata ? { response_metadata: record.response_metadata } : {}),
  });
}
