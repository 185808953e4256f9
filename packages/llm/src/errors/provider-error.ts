import { OrchestraError } from '@orchestra/core';
import type { LlmErrorCode } from './llm-error-codes.js';

/** Stable codes of {@link LlmProviderError}. */
export type ProviderErrorCode = Extract<
  LlmErrorCode,
  | 'ORCH_LLM_AUTH'
  | 'ORCH_LLM_FORBIDDEN'
  | 'ORCH_LLM_MODEL_NOT_FOUND'
  | 'ORCH_LLM_CONTEXT_LENGTH'
  | 'ORCH_LLM_BAD_REQUEST'
  | 'ORCH_LLM_RATE_LIMIT'
  | 'ORCH_LLM_SERVER'
  | 'ORCH_LLM_UNREACHABLE'
  | 'ORCH_LLM_TIMEOUT'
>;

/** Which endpoint and model a call went to, and where those came from: what an error message names. */
export interface ProviderTarget {
  provider: string;
  baseUrl: string;
  model?: string;
  /** The environment variable the key came from, if any. */
  apiKeyEnv?: string;
  /** Whether a key was sent. */
  hasKey: boolean;
  /** Where the model name and base URL came from, in words (`--model flag`, `orchestra.yaml:3:12 defaults.model`). */
  modelSource?: string;
  baseUrlSource?: string;
}

/**
 * A provider call that failed, in one line that says what to fix, with a
 * stable `code`; `retryable` tells the engine whether another attempt may
 * help (429, 5xx, network and timeouts) and `retryAfterMs` how long the
 * provider asked to wait.
 */
export class LlmProviderError extends OrchestraError<ProviderErrorCode> {
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(code: ProviderErrorCode, message: string, options: { retryable: boolean; status?: number; retryAfterMs?: number; cause?: unknown }) {
    super(code, message, { cause: options.cause });
    this.name = 'LlmProviderError';
    this.retryable = options.retryable;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

type Loose = Record<string, unknown>;

function asObject(value: unknown): Loose | undefined {
  return typeof value === 'object' && value !== null ? (value as Loose) : undefined;
}

/** The error and its causes, outermost first. */
function chain(error: unknown): Loose[] {
  const out: Loose[] = [];
  for (let e = asObject(error); e && out.length < 6; e = asObject(e.cause)) out.push(e);
  return out;
}

function statusOf(errors: Loose[]): number | undefined {
  // `status` (OpenAI's, Anthropic's and Google's clients), `status_code` (the ollama client's ResponseError).
  for (const e of errors) {
    if (typeof e.status === 'number') return e.status;
    if (typeof e.status_code === 'number') return e.status_code;
  }
  return undefined;
}

function headerOf(errors: Loose[], name: string): string | undefined {
  for (const e of errors) {
    const headers = e.headers as { get?: (n: string) => string | null } | Record<string, unknown> | undefined;
    if (!headers) continue;
    const value = typeof (headers as { get?: unknown }).get === 'function' ? (headers as { get: (n: string) => string | null }).get(name) : (headers as Record<string, unknown>)[name];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** Google's `google.rpc.RetryInfo` detail (`retryDelay: "7s"`), which its SDK keeps (`errorDetails`) where it drops the headers. */
function retryInfoOf(errors: Loose[]): number | undefined {
  for (const e of errors) {
    if (!Array.isArray(e.errorDetails)) continue;
    for (const detail of e.errorDetails as Loose[]) {
      const delay = typeof detail?.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay) : null;
      if (delay) return Number(delay[1]) * 1000;
    }
  }
  return undefined;
}

/** How long a 429 or 503 asks to wait: `retry-after-ms`, else `retry-after` (seconds or an HTTP date), else Google's `RetryInfo`. */
export function retryAfterFrom(error: unknown, now = Date.now()): number | undefined {
  const errors = chain(error);
  const ms = Number(headerOf(errors, 'retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headerOf(errors, 'retry-after-ms') !== undefined) return ms;
  const header = headerOf(errors, 'retry-after');
  if (header === undefined) return retryInfoOf(errors);
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's own words, one line, without LangChain's troubleshooting appendix. */
function providerMessage(errors: Loose[]): string {
  let text = '';
  for (const e of errors) {
    const body = asObject(e.error);
    const fromBody = typeof body?.message === 'string' ? body.message : undefined;
    const own = typeof e.message === 'string' ? e.message : undefined;
    text = fromBody ?? own ?? '';
    if (text) break;
  }
  text = text.split('\n\nTroubleshooting URL')[0] ?? text;
  text = text.replace(/^\d{3}\s+/, '').replace(/\s+/g, ' ').trim();
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u001f\u007f]/g, '');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function networkCode(errors: Loose[]): string | undefined {
  for (const e of errors) if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return e.code;
  return undefined;
}

/** Messages of a connection lost or refused, as the clients word them (Google's SDK wraps undici's `fetch failed` in its own text, without a cause). */
const CONNECTION_MESSAGE = /^(Connection error\.|fetch failed|terminated)$|\bError fetching from \S+: fetch failed$|\bError reading from the stream\b/;

function isConnectionError(errors: Loose[]): boolean {
  return networkCode(errors) !== undefined || errors.some((e) => e.name === 'APIConnectionError' || e.constructor?.name === 'APIConnectionError' || (typeof e.message === 'string' && CONNECTION_MESSAGE.test(e.message)));
}

function isTimeout(errors: Loose[]): boolean {
  return errors.some((e) => e.name === 'TimeoutError' || e.constructor?.name === 'APIConnectionTimeoutError' || e.code === 'ETIMEDOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT');
}

function isContextOverflow(errors: Loose[]): boolean {
  return errors.some(
    (e) =>
      e.name === 'ContextOverflowError' ||
      e.code === 'context_length_exceeded' ||
      (typeof e.message === 'string' && /context_length_exceeded|maximum context length|context window/i.test(e.message)),
  );
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/**
 * Turns an error from a provider call into an {@link LlmProviderError} whose
 * one-line message names the provider, URL, model and what to fix; an error
 * that is not a provider failure (a bug, an abort) is returned unchanged.
 */
export function describeProviderError(error: unknown, target: ProviderTarget): unknown {
  const errors = chain(error);
  if (errors.length === 0 || error instanceof LlmProviderError) return error;
  if (errors.some((e) => e.name === 'AbortError' || e.name === 'ModelAbortError')) return error;
  const where = `provider ${target.provider} (${target.baseUrl})`;
  const model = target.model ? `model ${JSON.stringify(target.model)}` : 'the model';
  const status = statusOf(errors);
  const said = providerMessage(errors);
  const http = (s: number) => `HTTP ${s}${said ? `: ${said}` : ''}`;
  const keyHint = target.apiKeyEnv ? `the key in ${target.apiKeyEnv}` : 'the API key (set api_key_env for the provider in orchestra.yaml)';
  const make = (code: ProviderErrorCode, message: string, retryable: boolean, extra: { retryAfterMs?: number } = {}) =>
    new LlmProviderError(code, message, { retryable, cause: error, ...(status !== undefined ? { status } : {}), ...extra });

  if (status === 401) {
    const fix = target.hasKey ? `check ${keyHint}` : `set ${target.apiKeyEnv ?? 'an API key'}`;
    return make('ORCH_LLM_AUTH', `${where} refused the API key (${http(401)}): ${fix}`, false);
  }
  if (status === 403) return make('ORCH_LLM_FORBIDDEN', `${where} refused access to ${model} (${http(403)}): check ${keyHint} and its permissions, or choose another model`, false);
  if (status === 404) {
    const from = target.modelSource ? ` (the name comes from ${target.modelSource})` : '';
    return make('ORCH_LLM_MODEL_NOT_FOUND', `${where} does not know ${model} (${http(404)}): check the model name${from} and the base URL${target.baseUrlSource ? ` (from ${target.baseUrlSource})` : ''}`, false);
  }
  if (isContextOverflow(errors)) {
    return make('ORCH_LLM_CONTEXT_LENGTH', `the request is longer than ${model}'s context window (${status ? http(status) : said}): lower the stage's fidelity (e.g. fidelity="compact"), shorten the prompt, or use a model with a larger context`, false);
  }
  if (status === 429) {
    const retryAfterMs = retryAfterFrom(error);
    return make('ORCH_LLM_RATE_LIMIT', `${where} is rate limiting (${http(429)})`, true, retryAfterMs !== undefined ? { retryAfterMs } : {});
  }
  if (status !== undefined && status >= 500) {
    const retryAfterMs = retryAfterFrom(error);
    return make('ORCH_LLM_SERVER', `${where} failed (${http(status)})`, true, retryAfterMs !== undefined ? { retryAfterMs } : {});
  }
  if (status === 408) return make('ORCH_LLM_TIMEOUT', `${where} timed out (${http(408)})`, true);
  if (status !== undefined && status >= 400) return make('ORCH_LLM_BAD_REQUEST', `${where} rejected the request for ${model} (${http(status)})`, false);
  if (isTimeout(errors)) return make('ORCH_LLM_TIMEOUT', `${where} did not answer in time${said ? ` (${said})` : ''}`, true);
  if (isConnectionError(errors)) {
    const code = networkCode(errors);
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
      return make('ORCH_LLM_UNREACHABLE', `the connection to ${where} was closed before the reply was complete`, true);
    }
    const words = code ? (NETWORK_WORDS[code] ?? code) : said || 'connection failed';
    const from = target.baseUrlSource ? `; the URL comes from ${target.baseUrlSource}` : '';
    return make('ORCH_LLM_UNREACHABLE', `cannot reach ${where}: ${words}${from}`, true);
  }
  return error;
}
