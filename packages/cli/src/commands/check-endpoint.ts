import type { ResolvedModel } from '@orchestra/llm/config';

/** How long `orchestra doctor` waits for an endpoint. */
export const ENDPOINT_TIMEOUT_MS = 5_000;

/** Whether an endpoint answered, in words. */
export interface EndpointCheck {
  ok: boolean;
  message: string;
}

function networkWords(error: unknown): string {
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed';
    if (typeof code === 'string' && code) return code;
  }
  if ((error as { name?: unknown }).name === 'TimeoutError') return `no answer within ${ENDPOINT_TIMEOUT_MS / 1000}s`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Asks an OpenAI-compatible endpoint for its models (`GET <base>/models`,
 * with the key and headers a stage would send): answered (with the number
 * of models, and whether the stage's model is among them), refused the key,
 * or unreachable, with where the URL and key came from.
 */
export async function checkEndpoint(resolved: ResolvedModel): Promise<EndpointCheck> {
  const { provider } = resolved;
  const url = `${provider.baseUrl.replace(/\/+$/, '')}/models`;
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { ...provider.headers, ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}) },
      signal: AbortSignal.timeout(ENDPOINT_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, message: `${networkWords(error)} (the URL comes from ${resolved.sources.baseUrl})` };
  }
  const ms = Math.round(performance.now() - started);
  if (response.status === 401 || response.status === 403) {
    if (provider.apiKey === undefined) {
      const set = provider.apiKeyEnv ? `set ${provider.apiKeyEnv}` : `set api_key_env for provider ${provider.name} in orchestra.yaml`;
      return { ok: false, message: `wants an API key and none was sent (HTTP ${response.status}): ${set}` };
    }
    return { ok: false, message: `refused the API key (HTTP ${response.status}; the key comes from ${resolved.sources.apiKey})` };
  }
  if (response.status === 404) return { ok: true, message: `answered in ${ms} ms (it has no model list, which some servers do not offer)` };
  if (!response.ok) return { ok: false, message: `answered HTTP ${response.status} in ${ms} ms` };
  let ids: string[] = [];
  try {
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    ids = (body.data ?? []).map((m) => (typeof m.id === 'string' ? m.id : '')).filter(Boolean);
  } catch {
    return { ok: true, message: `answered in ${ms} ms (the model list was not JSON)` };
  }
  const known = resolved.model === undefined ? '' : ids.includes(resolved.model) ? `, including ${resolved.model}` : `; ${resolved.model} is not among them`;
  return { ok: true, message: `answered in ${ms} ms, ${ids.length} model(s)${known}` };
}
