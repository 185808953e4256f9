/**
 * Why an `x-api-key` header is not `apiKey` (the 401 message the Anthropic
 * API gives), or `undefined` when it is. Only `x-api-key` counts: an
 * `Authorization: Bearer` header (the SDK's `authToken`) does not stand in for it.
 */
export function apiKeyProblem(given: string | undefined, apiKey: string): string | undefined {
  if (given === apiKey) return undefined;
  return given === undefined || given === '' ? 'x-api-key header is required' : 'invalid x-api-key';
}
