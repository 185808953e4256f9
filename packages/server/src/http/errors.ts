import type { Context } from 'hono';
import type { z } from 'zod';
import { CheckpointError, isStoreUnavailable, OrchestraError, RunLockedError, RunRefusal, RunUnreadableError, ValidationError, type Diagnostic } from '@orchestra/core';
import { diagnosticToJson, sortDiagnostics } from '@orchestra/core/loader';
import { PlanRefusal, type PlanRefusalKind } from '../plans/plan-refusal.js';
import { ApiError, type ErrorStatus } from './api-error.js';

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

/** The status of a supervisor's refusal, by its code (anything else it refuses is a conflict with the run's state). */
const REFUSAL_STATUS: Readonly<Record<string, ErrorStatus>> = {
  ORCH_INVALID_PIPELINE: 400,
  ORCH_BAD_REQUEST: 400,
  ORCH_NO_BACKEND: 400,
  ORCH_BAD_ANSWER: 400,
  ORCH_TOOLS_REFUSED: 403,
  ORCH_RUN_NOT_FOUND: 404,
};


/** The status of a plan request's refusal, by its kind. */
const PLAN_REFUSAL_STATUS: Readonly<Record<PlanRefusalKind, ErrorStatus>> = {
  not_found: 404,
  conflict: 409,
  unreadable: 422,
};

/**
 * What an error thrown under a route answers: the HTTP layer's own
 * {@link ApiError}s as they are; a supervisor's refusal by its code; a run
 * that cannot be read 422; an invalid pipeline 400 with its diagnostics; a
 * run another process holds 409 naming it; a damaged run (a resume refused)
 * 409; a plan request's refusal by its kind (none to act on 404, a
 * conflict with the plan's state 409, a damaged plan file 422); any other
 * orchestra error 400 (a store that cannot be used now: 503); anything
 * else a 500.
 */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof PlanRefusal) return new ApiError(PLAN_REFUSAL_STATUS[error.kind], error.code, error.message, error.details);
  if (error instanceof RunUnreadableError) return new ApiError(422, error.code, error.message);
  if (error instanceof RunRefusal) {
    const details = { ...error.details };
    if (error.code === 'ORCH_INVALID_PIPELINE') {
      const file = typeof details.file === 'string' ? details.file : 'pipeline.dot';
      delete details.file;
      details.diagnostics = ((details.diagnostics as Diagnostic[] | undefined) ?? []).map((d) => diagnosticToJson(d, file));
    }
    return new ApiError(REFUSAL_STATUS[error.code] ?? 409, error.code, error.message, details);
  }
  if (error instanceof ValidationError) {
    const sorted = sortDiagnostics(error.diagnostics);
    const errors = sorted.filter((d) => d.severity === 'error').length;
    return new ApiError(400, 'ORCH_INVALID_PIPELINE', `pipeline.dot is not a valid pipeline (${errors} error${errors === 1 ? '' : 's'}); nothing was run`, {
      diagnostics: sorted.map((d) => diagnosticToJson(d, 'pipeline.dot')),
    });
  }
  if (error instanceof RunLockedError) return new ApiError(409, error.code, error.message, { owner: { pid: error.holder.pid, host: error.holder.host, since: error.holder.acquired_at } });
  if (error instanceof CheckpointError) return new ApiError(409, error.code, error.message);
  if (isStoreUnavailable(error)) return new ApiError(503, error.code, error.message);
  if (error instanceof OrchestraError) return new ApiError(error.code === 'ORCH_RUN_NOT_FOUND' ? 404 : 400, error.code, error.message);
  return new ApiError(500, 'ORCH_INTERNAL', `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
