/** The body of an OpenAI API error response. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Default message, type and code of an error answer, by HTTP status. */
const DEFAULTS: Record<number, { message: string; type: string; code?: string }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error' },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { message: 'You are not allowed to sample from this model.', type: 'invalid_request_error' },
  404: { message: 'The requested resource does not exist.', type: 'invalid_request_error' },
  409: { message: 'The request conflicts with another request.', type: 'invalid_request_error' },
  422: { message: 'The request could not be processed.', type: 'invalid_request_error' },
  429: { message: 'Rate limit reached for requests', type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request.', type: 'server_error' },
  502: { message: 'Bad gateway.', type: 'server_error' },
  503: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error' },
  504: { message: 'Gateway timeout.', type: 'server_error' },
};

/**
 * An OpenAI-shaped error body for a status; `message`, `type` and `code`
 * override the defaults of the status.
 */
export function openAIErrorBody(status: number, overrides: { message?: string; type?: string; code?: string } = {}): OpenAIErrorBody {
  const fallback = DEFAULTS[status] ?? {
    message: `Request failed with status ${status}.`,
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
  };
  return {
    error: {
      message: overrides.message ?? fallback.message,
      type: overrides.type ?? fallback.type,
      param: null,
      code: overrides.code ?? fallback.code ?? null,
    },
  };
}
