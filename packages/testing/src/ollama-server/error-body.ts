/** The body of an Ollama error response: only a message. */
export interface OllamaErrorBody {
  error: string;
}

/** The message Ollama gives for a model it does not have. */
export function modelNotFound(model: string): string {
  return `model "${model}" not found, try pulling it first`;
}

/** The message a newer Ollama gives when the prompt does not fit the context window. */
export const INPUT_TOO_LONG = 'the input length exceeds the context length';

/** Default messages by status, as Ollama words them. */
const DEFAULTS: Record<number, string> = {
  400: 'invalid request',
  401: 'unauthorized',
  403: 'forbidden',
  429: 'too many requests',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'server busy, please try again.  maximum pending requests exceeded',
  504: 'gateway timeout',
};

/**
 * An Ollama-shaped error body for a status: `{ error: '<message>' }`. The
 * message is the step's, or by status: 404 `model "<model>" not found, try
 * pulling it first` (the model of the request), 503 Ollama's `server busy…`,
 * 500 `internal server error`, …. Ollama has no error types or codes: `type`
 * is ignored, and `code: 'context_length_exceeded'` (the OpenAI code, so one
 * step scripts every server) only sets the default message to
 * `the input length exceeds the context length`.
 */
export function ollamaErrorBody(status: number, model: string, overrides: { message?: string; code?: string } = {}): OllamaErrorBody {
  if (overrides.message !== undefined) return { error: overrides.message };
  if (overrides.code === 'context_length_exceeded') return { error: INPUT_TOO_LONG };
  if (status === 404) return { error: modelNotFound(model) };
  return { error: DEFAULTS[status] ?? `request failed with status ${status}` };
}
