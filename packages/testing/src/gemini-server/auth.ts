import { type GeminiErrorBody, geminiErrorBody } from './error-body.js';

/** An API key refused: the HTTP status and the body the Gemini API answers with. */
export interface KeyRefusal {
  status: number;
  body: GeminiErrorBody;
}

/**
 * Why a request's API key is not `apiKey`, or `undefined` when it is. The key
 * is the `x-goog-api-key` header (what `@google/generative-ai` sends) or the
 * `key` query parameter (what curl examples use). As the Gemini API: no key
 * at all is a 403 `PERMISSION_DENIED` ("unregistered callers"), a wrong one a
 * 400 `INVALID_ARGUMENT` "API key not valid" with an `ErrorInfo` detail of
 * reason `API_KEY_INVALID`.
 */
export function keyRefusal(header: string | undefined, query: string | null, apiKey: string): KeyRefusal | undefined {
  const given = header ?? query ?? undefined;
  if (given === apiKey) return undefined;
  if (given === undefined || given === '') {
    return {
      status: 403,
      body: geminiErrorBody(403, {
        message:
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      }),
    };
  }
  return {
    status: 400,
    body: geminiErrorBody(400, {
      message: 'API key not valid. Please pass a valid API key.',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ],
    }),
  };
}
