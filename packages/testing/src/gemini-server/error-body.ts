/** The body of a Google API error response (`google.rpc.Status` in JSON). */
export interface GeminiErrorBody {
  error: {
    /** The HTTP status. */
    code: number;
    message: string;
    /** The canonical status name, such as `RESOURCE_EXHAUSTED`. */
    status: string;
    /** Typed details, such as `google.rpc.RetryInfo` or `google.rpc.ErrorInfo`; left out when none. */
    details?: Record<string, unknown>[];
  };
}

/** Default `error.status` and message of an error answer, by HTTP status (as the Gemini API answers). */
const DEFAULTS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: {
    status: 'UNAUTHENTICATED',
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  409: { status: 'ABORTED', message: 'The operation was aborted.' },
  // Not the "You exceeded your current quota" message of a spent daily quota:
  // LangChain's caller reads that one as final and never retries it.
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
  499: { status: 'CANCELLED', message: 'The operation was cancelled.' },
  500: { status: 'INTERNAL', message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting' },
  501: { status: 'UNIMPLEMENTED', message: 'Method not implemented.' },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'The request timed out. Please try again.' },
};

/**
 * The message the Gemini API sends when the prompt is longer than the
 * context window (a 400 `INVALID_ARGUMENT`).
 */
export const GEMINI_PROMPT_TOO_LONG = 'The input token count (1250000) exceeds the maximum number of tokens allowed (1048576).';

/** A `google.rpc.RetryInfo` detail asking to wait `seconds`, as the Gemini API adds to a 429. */
export function retryInfo(seconds: number): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` };
}

/**
 * A Google-shaped error body for an HTTP status: `{ error: { code, message,
 * status, details? } }`. `type` overrides the status name (other 4xx:
 * `INVALID_ARGUMENT`, other 5xx: `INTERNAL`) and `message` the message. The
 * Gemini API has no error codes: `code: 'context_length_exceeded'` (the
 * OpenAI code, so one step scripts every server) gives the input-token-count
 * message when no message is given; other codes are ignored.
 */
export function geminiErrorBody(
  status: number,
  overrides: { message?: string; type?: string; code?: string; details?: Record<string, unknown>[] } = {},
): GeminiErrorBody {
  const fallback = DEFAULTS[status] ?? {
    status: status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT',
    message: `Request failed with status ${status}.`,
  };
  const message = overrides.message ?? (overrides.code === 'context_length_exceeded' ? GEMINI_PROMPT_TOO_LONG : fallback.message);
  const details = overrides.details ?? [];
  return { error: { code: status, message, status: overrides.type ?? fallback.status, ...(details.length > 0 ? { details } : {}) } };
}
