import type { Graph, GraphNode } from '../graph/model.js';
import { integerAttr } from '../graph/values.js';

/** Delay calculation between attempts (spec §3.6). */
export interface BackoffConfig {
  initialDelayMs: number;
  backoffFactor: number;
  maxDelayMs: number;
  jitter: boolean;
}

/** How often and how patiently a node is retried. */
export interface RetryPolicy {
  /** At least 1; 1 means no retries. */
  maxAttempts: number;
  backoff: BackoffConfig;
  /** Whether a thrown error is worth another attempt. */
  shouldRetry(error: unknown): boolean;
}

/** The default backoff: 200 ms doubling to at most 60 s, with jitter. */
export const DEFAULT_BACKOFF: BackoffConfig = { initialDelayMs: 200, backoffFactor: 2, maxDelayMs: 60_000, jitter: true };

/** The preset policies of spec §3.6. */
export const RETRY_PRESETS = {
  none: { maxAttempts: 1, backoff: DEFAULT_BACKOFF },
  standard: { maxAttempts: 5, backoff: { ...DEFAULT_BACKOFF, initialDelayMs: 200, backoffFactor: 2 } },
  aggressive: { maxAttempts: 5, backoff: { ...DEFAULT_BACKOFF, initialDelayMs: 500, backoffFactor: 2 } },
  linear: { maxAttempts: 3, backoff: { ...DEFAULT_BACKOFF, initialDelayMs: 500, backoffFactor: 1 } },
  patient: { maxAttempts: 3, backoff: { ...DEFAULT_BACKOFF, initialDelayMs: 2000, backoffFactor: 3 } },
} as const satisfies Record<string, Omit<RetryPolicy, 'shouldRetry'>>;

/** A preset's name. */
export type RetryPresetName = keyof typeof RETRY_PRESETS;

/**
 * Delay before retry number `attempt` (1-based): `initial × factor^(attempt−1)`,
 * capped, then scaled by a uniform factor in [0.5, 1.5) when jitter is on.
 */
export function delayForAttempt(attempt: number, config: BackoffConfig, random: () => number = Math.random): number {
  const raw = Math.min(config.initialDelayMs * config.backoffFactor ** (attempt - 1), config.maxDelayMs);
  return config.jitter ? raw * (0.5 + random()) : raw;
}

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

function statusOf(error: Record<string, unknown>): number | undefined {
  for (const key of ['status', 'statusCode']) {
    const v = error[key];
    if (typeof v === 'number') return v;
  }
  const response = error.response as Record<string, unknown> | undefined;
  return typeof response?.status === 'number' ? response.status : undefined;
}

/**
 * The default retry classification (spec §3.6, Appendix D): network errors,
 * timeouts, HTTP 408/429/5xx and errors flagged `retryable: true` are worth
 * retrying; HTTP 4xx (auth, bad request), validation and configuration errors
 * and anything else are not.
 */
export function isRetryableError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as Record<string, unknown>;
  if (typeof e.retryable === 'boolean') return e.retryable;
  const status = statusOf(e);
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  if (e.name === 'TimeoutError') return true;
  if (e.cause && e.cause !== error) return isRetryableError(e.cause);
  return false;
}

/** Longest wait a `Retry-After` may ask for and still be honoured; beyond it the error is not retried. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * How long an error asks to wait before the next attempt (`retryAfterMs` on
 * the error or its cause, as a provider's `Retry-After` header gives it).
 */
export function retryAfterOf(error: unknown): number | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const ms = (e as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) return ms;
  }
  return undefined;
}

function presetOf(name: string | undefined): (typeof RETRY_PRESETS)[RetryPresetName] | undefined {
  return name && Object.hasOwn(RETRY_PRESETS, name) ? RETRY_PRESETS[name as RetryPresetName] : undefined;
}

/**
 * A node's retry policy (spec §3.5). Attempts: `max_retries` on the node,
 * else its `retry_policy` preset, else the graph's `default_max_retries` (or
 * the legacy `default_max_retry`), else the graph's `default_retry_policy`,
 * else none. Backoff: the node's preset, else the graph's, else the default
 * (200 ms doubling, jitter). Errors are classified by {@link isRetryableError}.
 */
export function buildRetryPolicy(node: GraphNode, graph: Graph): RetryPolicy {
  const nodePreset = presetOf(node.attributes.retry_policy);
  const graphPreset = presetOf(graph.attributes.default_retry_policy);
  const retries =
    integerAttr(node, 'max_retries') ??
    (nodePreset ? nodePreset.maxAttempts - 1 : undefined) ??
    integerAttr(graph, 'default_max_retries') ??
    integerAttr(graph, 'default_max_retry') ??
    (graphPreset ? graphPreset.maxAttempts - 1 : 0);
  const backoff = (nodePreset ?? graphPreset)?.backoff ?? DEFAULT_BACKOFF;
  return { maxAttempts: Math.max(1, retries + 1), backoff, shouldRetry: isRetryableError };
}
