/** A key shortened for an error message the way OpenAI does, e.g. `sk-***-key`. */
function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}

/**
 * Why an `Authorization` header does not carry `Bearer <apiKey>` (an
 * OpenAI-style 401 message), or `undefined` when it does.
 */
export function apiKeyProblem(authorization: string | undefined, apiKey: string): string | undefined {
  if (authorization === `Bearer ${apiKey}`) return undefined;
  const given = authorization?.replace(/^Bearer\s+/i, '');
  return given
    ? `Incorrect API key provided: ${maskKey(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`
    : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
}
