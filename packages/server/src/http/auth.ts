import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { errorResponse } from './errors.js';

/** The cookie the web page stores the token in (read for GET requests only: the page's event stream and pictures). */
export const TOKEN_COOKIE = 'orchestra_token';

function same(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Requires the bearer token on every API request: `Authorization: Bearer
 * <token>`, or for GET requests the {@link TOKEN_COOKIE} cookie (an
 * EventSource cannot send headers; the cookie is SameSite=Strict and is
 * never enough for a request that changes anything).
 */
export function requireToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const bearer = header && /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    const cookie = c.req.method === 'GET' ? getCookie(c, TOKEN_COOKIE) : undefined;
    const given = bearer || cookie;
    if (!given || !same(given, token)) {
      c.header('WWW-Authenticate', 'Bearer realm="orchestra"');
      return errorResponse(c, 401, 'ORCH_UNAUTHORIZED', given ? 'the token is wrong' : 'this server needs a token: send Authorization: Bearer <token>');
    }
    await next();
  };
}
