import type { AIMessageChunk } from '@langchain/core/messages';

/**
 * Whether a reply stopped at the model's output token limit, as its provider
 * says so: OpenAI's `finish_reason: "length"`, Anthropic's `stop_reason:
 * "max_tokens"`, Gemini's `finishReason: "MAX_TOKENS"`, Ollama's
 * `done_reason: "length"`. The arguments of its last tool call may then be
 * cut off, although LangChain completes such JSON into a valid-looking
 * object (a cut string is closed where it stopped).
 */
export function stoppedAtTokenLimit(message: AIMessageChunk): boolean {
  // Where a client puts it differs: ChatAnthropic streams stop_reason in additional_kwargs.
  return [message.response_metadata, message.additional_kwargs].some((fields) => {
    const meta = (fields ?? {}) as Record<string, unknown>;
    return meta.finish_reason === 'length' || meta.stop_reason === 'max_tokens' || meta.finishReason === 'MAX_TOKENS' || meta.done_reason === 'length';
  });
}

/** What a tool call cut off at the token limit gets back instead of running. */
export const CUT_OFF_CALL_RESULT =
  'error: your reply reached the output token limit before the arguments of this call were complete, so it was not run. Call it again with less in one call (split what you write into parts).';
