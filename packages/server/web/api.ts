import { currentToken, tokenRefused } from './auth.js';

/** An error the API answered with (`{ error: { code, message, ... } }`), or a failed request. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = currentToken();
  return { ...extra, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

async function failure(response: Response): Promise<ApiFailure> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`;
  const message = typeof error?.message === 'string' ? error.message : `${response.status} ${response.statusText}`;
  const failed = new ApiFailure(response.status, code, message, (error ?? {}) as Record<string, unknown>);
  if (response.status === 401) tokenRefused(message);
  return failed;
}

async function send(path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') throw error;
    throw new ApiFailure(0, 'NETWORK', `the server did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!response.ok) throw await failure(response);
  return response;
}

/** GET a JSON resource of the API. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await send(path, { headers: headers({ Accept: 'application/json' }), ...(signal ? { signal } : {}) });
  return (await response.json()) as T;
}

/** GET a text resource (the SVG picture). */
export async function getText(path: string, signal?: AbortSignal): Promise<string> {
  const response = await send(path, { headers: headers(), ...(signal ? { signal } : {}) });
  return response.text();
}

/** POST JSON, read JSON. */
export async function postJson<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  const response = await send(path, {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return (await response.json()) as T;
}

/** PATCH or DELETE (or POST) JSON, read JSON. */
export async function sendJson<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown = {}): Promise<T> {
  const response = await send(path, {
    method,
    headers: headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

/** The API path of a run (ids are checked by the server; encoded all the same). */
export function runPath(id: string, rest = ''): string {
  return `/pipelines/${encodeURIComponent(id)}${rest}`;
}
