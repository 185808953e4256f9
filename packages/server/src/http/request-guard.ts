import type { MiddlewareHandler } from 'hono';
import type { AllowedHosts } from './allowed-hosts.js';
import { errorResponse, isJsonContentType } from './errors.js';

/** Methods that change something: they must be JSON and, from a browser, come from an allowed origin. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses every request whose `Host` is not one the server answers to (421
 * `ORCH_HOST_NOT_ALLOWED`), token or not: a page of another site that points
 * its own name at this machine (DNS rebinding) still sends its own name.
 */
export function guardHost(hosts: AllowedHosts): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (!hosts.allowsHost(host)) {
      return errorResponse(c, 421, 'ORCH_HOST_NOT_ALLOWED', `this server does not answer to the host ${JSON.stringify(host)}; if that is a name of this server, start it with --allowed-host ${host}`);
    }
    await next();
  };
}

/** What {@link guardChanges} lets through. */
export interface ChangeGuardOptions {
  /** The `Host` values the server answers to: its own pages' origins are these. */
  hosts: AllowedHosts;
  /** The `--cors` origin, also allowed to change things. */
  corsOrigin?: string;
}

/**
 * Refuses a request that changes something (POST, PUT, PATCH, DELETE), token
 * or not, unless it is sent as JSON, even with an empty body (415
 * `ORCH_BAD_REQUEST`): a page of another site can send a form or plain text
 * without asking, JSON only after a CORS preflight, which this server grants
 * to the `--cors` origin alone. And when it carries an `Origin`, that must be
 * one of the server's own or the `--cors` origin (403 `ORCH_ORIGIN_NOT_ALLOWED`).
 */
export function guardChanges(options: ChangeGuardOptions): MiddlewareHandler {
  const cors = options.corsOrigin?.toLowerCase();
  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin !== undefined && origin.toLowerCase() !== cors && !options.hosts.allowsOrigin(origin)) {
        return errorResponse(c, 403, 'ORCH_ORIGIN_NOT_ALLOWED', `requests that change something are refused from pages of another origin (${JSON.stringify(origin)}); start the server with --cors <origin> to allow one`);
      }
      if (!isJsonContentType(c.req.header('content-type'))) {
        return errorResponse(c, 415, 'ORCH_BAD_REQUEST', 'send requests that change something as JSON (Content-Type: application/json), even with an empty body');
      }
    }
    await next();
  };
}
