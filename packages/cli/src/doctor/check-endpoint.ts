import type { ResolvedModel, ResolvedProvider } from '@orchestra/llm/config';
import { printableId } from './model-list-lines.js';
import { readLimitedText } from './read-limited-text.js';

/** How long `orchestra doctor` waits for an endpoint (the answer's body included). */
export const ENDPOINT_TIMEOUT_MS = 5_000;

/** The largest model list `orchestra doctor` reads. */
export const MODEL_LIST_MAX_BYTES = 8 * 1024 * 1024;

/** An endpoint to check, and the models the stages want from it. */
export interface EndpointTarget {
  provider: ResolvedProvider;
  /** Where the base URL and the key came from, in words. */
  sources: Pick<ResolvedModel['sources'], 'baseUrl' | 'apiKey'>;
  /** Model ids the stages use on this endpoint (none when no model is named). */
  wanted: readonly string[];
}

/** Whether an endpoint answered, in words safe to print, and the models it lists. */
export interface EndpointCheck {
  ok: boolean;
  /** One line; anything the endpoint sent is escaped. */
  message: string;
  /** The model ids it lists, as sent (escape them before printing: see `modelListLines`). */
  models?: readonly string[];
}

/** Why a request got no answer, in words: from the first known code along the causes, else the innermost message (`fetch failed` says nothing). */
function networkWords(error: unknown): string {
  if ((error as { name?: unknown }).name === 'TimeoutError') return `no answer within ${ENDPOINT_TIMEOUT_MS / 1000}s`;
  let innermost = error instanceof Error ? error.message : String(error);
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed';
    if (typeof code === 'string' && code) return printableId(code);
    if (e instanceof Error && e.message) innermost = e.message;
  }
  return printableId(innermost);
}

/** The error message of an error answer (OpenAI's `{ error: { message } }`, else the start of the text), escaped. */
function errorText(text: string): string {
  let message: unknown;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
  } catch {
    message = text;
  }
  const words = typeof message === 'string' ? message.trim() : '';
  return words ? `: ${printableId(words.length > 200 ? `${words.slice(0, 199)}…` : words)}` : '';
}

/** Whether each wanted model is listed, as the end of the message. */
function wantedWords(ids: readonly string[], wanted: readonly string[]): string {
  const listed = wanted.filter((m) => ids.includes(m));
  const missing = wanted.filter((m) => !ids.includes(m));
  let words = listed.length > 0 ? `, including ${listed.join(', ')}` : '';
  if (missing.length > 0) words += `; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not among them`;
  return words;
}

/** Whether the base URL's path ends in `/v1`, where OpenAI-compatible servers usually serve their API. */
function endsInV1(baseUrl: string): boolean {
  try {
    return /\/v1\/?$/.test(new URL(baseUrl).pathname);
  } catch {
    return false;
  }
}

/** Where a provider's API lists its models, with what headers, and how to read the ids from the answer. */
function modelListRequest(provider: EndpointTarget['provider']): { url: string; headers: Record<string, string>; listField: string; models: (body: unknown) => string[] | undefined } {
  const base = provider.baseUrl.replace(/\/+$/, '');
  const key = provider.apiKey;
  const ids = (list: unknown, field: string, strip = ''): string[] | undefined =>
    Array.isArray(list) ? list.map((m: Record<string, unknown> | null) => m?.[field]).filter((id): id is string => typeof id === 'string' && id !== '').map((id) => (strip && id.startsWith(strip) ? id.slice(strip.length) : id)) : undefined;
  switch (provider.kind) {
    case 'anthropic':
      return { url: `${base}/v1/models`, headers: { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) }, listField: 'data', models: (b) => ids((b as { data?: unknown } | null)?.data, 'id') };
    case 'gemini':
      return { url: `${base}/v1beta/models`, headers: key ? { 'x-goog-api-key': key } : {}, listField: 'models', models: (b) => ids((b as { models?: unknown } | null)?.models, 'name', 'models/') };
    case 'ollama':
      return { url: `${base}/api/tags`, headers: key ? { authorization: `Bearer ${key}` } : {}, listField: 'models', models: (b) => ids((b as { models?: unknown } | null)?.models, 'name') };
    case 'openai':
      return { url: `${base}/models`, headers: key ? { authorization: `Bearer ${key}` } : {}, listField: 'data', models: (b) => ids((b as { data?: unknown } | null)?.data, 'id') };
  }
}

/**
 * Asks an endpoint for its models (`GET <base>/models`; Anthropic's
 * `<base>/v1/models`, Gemini's `<base>/v1beta/models`, Ollama's
 * `<base>/api/tags`,
 * with the key and headers a stage would send, waiting at most
 * {@link ENDPOINT_TIMEOUT_MS}): answered with a model list (how many, and
 * whether each wanted model is among them), answered without one (HTTP 404,
 * not a problem), refused or wanted a key, answered an error status or
 * something that is not a JSON model list, or unreachable.
 */
export async function checkEndpoint(target: EndpointTarget): Promise<EndpointCheck> {
  const { provider, sources } = target;
  const api = modelListRequest(provider);
  const url = api.url;
  const fromUrl = `the URL comes from ${sources.baseUrl}`;
  const started = performance.now();
  let response: Response;
  let text: string | undefined;
  try {
    response = await fetch(url, {
      headers: { ...provider.headers, ...api.headers },
      signal: AbortSignal.timeout(ENDPOINT_TIMEOUT_MS),
    });
    text = await readLimitedText(response, MODEL_LIST_MAX_BYTES);
  } catch (error) {
    return { ok: false, message: `${networkWords(error)} (${fromUrl})` };
  }
  const ms = Math.round(performance.now() - started);
  if (response.status === 401 || response.status === 403) {
    if (provider.apiKey === undefined) {
      const set = provider.apiKeyEnv ? `set ${provider.apiKeyEnv}` : `set api_key_env for provider ${provider.name} in orchestra.yaml`;
      return { ok: false, message: `wants an API key and none was sent (HTTP ${response.status}): ${set}` };
    }
    return { ok: false, message: `refused the API key (HTTP ${response.status}; the key comes from ${sources.apiKey})` };
  }
  if (response.status === 404) {
    const hint = provider.kind !== 'openai' || endsInV1(provider.baseUrl) ? '' : `; if this is an OpenAI-compatible server, its base URL usually ends in /v1 (${fromUrl})`;
    return { ok: true, message: `answered in ${ms} ms (it has no model list, which some servers do not offer${hint})` };
  }
  if (text === undefined) return { ok: false, message: `answered in ${ms} ms with more than ${MODEL_LIST_MAX_BYTES / 1024 / 1024} MiB; not read` };
  if (!response.ok) return { ok: false, message: `answered HTTP ${response.status} in ${ms} ms${errorText(text)}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const type = printableId(response.headers.get('content-type')?.split(';')[0]?.trim() || 'none');
    return { ok: false, message: `answered in ${ms} ms, but not with JSON (content type ${type}); is it the API's base URL? (${fromUrl})` };
  }
  const models = api.models(body);
  if (models === undefined) return { ok: false, message: `answered in ${ms} ms with JSON that is not a model list (no "${api.listField}" array)` };
  return { ok: true, message: `answered in ${ms} ms, ${models.length} model(s)${wantedWords(models, target.wanted)}`, models };
}
