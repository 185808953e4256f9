import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, type ErrorStatus } from '../runs/api-error.js';

/** A JSON error: `{ "error": { "code", "message", ...details } }`. */
export function errorResponse(c: Context, status: ErrorStatus, code: string, message: string, details: Record<string, unknown> = {}): Response {
  return c.json({ error: { code, message, ...details } }, status);
}

/** Parses a body or parameter with zod; a 400 {@link ApiError} naming the first problem otherwise. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new ApiError(400, 'ORCH_BAD_REQUEST', `${what}${where}: ${issue?.message ?? 'not valid'}`, {
    issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/** Whether a `Content-Type` is JSON (`application/json`, with or without parameters such as `charset`). */
export function isJsonContentType(type: string | undefined): boolean {
  return type !== undefined && /^\s*application\/json\s*(;|$)/i.test(type);
}

/** The request's JSON body; a 400 when it is not JSON, 415 when it is not sent as JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  if (!isJsonContentType(c.req.header('content-type'))) throw new ApiError(415, 'ORCH_BAD_REQUEST', 'send the body as JSON (Content-Type: application/json)');
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'ORCH_BAD_REQUEST', 'the body is not valid JSON');
  }
}
