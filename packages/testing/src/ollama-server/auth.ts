/**
 * Why an `Authorization` header is not `Bearer <token>`, or `undefined` when
 * it is. Ollama itself has no keys; this is for an Ollama behind a proxy that
 * checks one (the client's `headers` option sends it).
 */
export function bearerProblem(given: string | undefined, token: string): string | undefined {
  if (given === `Bearer ${token}`) return undefined;
  return given === undefined || given === '' ? 'unauthorized: missing Authorization header' : 'unauthorized: invalid bearer token';
}
