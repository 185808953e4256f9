/** The body of an Anthropic API error response. */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  /** The answer's `request-id` header, repeated. */
  request_id: string;
}

/** Default `error.type` and message of an error answer, by HTTP status (as the Anthropic API documents them). */
const DEFAULTS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'There was an issue with the format or content of your request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'There is an issue with your billing or payment information.' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit. Please try again later.' },
  500: { type: 'api_error', message: 'Internal server error' },
  504: { type: 'timeout_error', message: 'Request timed out.' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

/**
 * The message Anthropic sends when the prompt is longer than the context
 * window; clients (LangChain's `ChatAnthropic`) recognise it by
 * `prompt is too long`.
 */
export const PROMPT_TOO_LONG = 'prompt is too long: 250000 tokens > 200000 maximum';

/**
 * An Anthropic-shaped error body for a status: `{ type: 'error', error: { type,
 * message }, request_id }`. `type` and `message` override the defaults of the
 * status (other 4xx: `invalid_request_error`, other 5xx: `api_error`). The
 * Anthropic API has no error codes: `code: 'context_length_exceeded'` (the
 * OpenAI code, so one step scripts both servers) gives the `prompt is too
 * long` message when no message is given; other codes are ignored.
 */
export function anthropicErrorBody(
  status: number,
  requestId: string,
  overrides: { message?: string; type?: string; code?: string } = {},
): AnthropicErrorBody {
  const fallback = DEFAULTS[status] ?? {
    type: status >= 500 ? 'api_error' : 'invalid_request_error',
    message: `Request failed with status ${status}.`,
  };
  const message = overrides.message ?? (overrides.code === 'context_length_exceeded' ? PROMPT_TOO_LONG : fallback.message);
  return { type: 'error', error: { type: overrides.type ?? fallback.type, message }, request_id: requestId };
}
