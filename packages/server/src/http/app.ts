import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { loadPipeline } from '@orchestra/core';
import { diagnosticToJson, sortDiagnostics } from '@orchestra/core/loader';
import type { ServerPlans } from '../plans/server-plans.js';
import type { ServerRuns } from '../runs/server-runs.js';
import { questionJson } from '../runs/run-summary.js';
import { AllowedHosts, LOOPBACK_HOSTS } from './allowed-hosts.js';
import { requireToken } from './auth.js';
import { apiErrorOf, errorResponse, jsonBody, parseInput } from './errors.js';
import { DEFAULT_MAX_STREAM_QUEUE_BYTES, eventStream, HEARTBEAT_MS } from './event-stream.js';
import { guardChanges, guardHost } from './request-guard.js';
import { planRoutes } from './plan-routes.js';
import { runPicture } from './run-picture.js';
import { stageConference } from './stage-conference.js';
import { AnswerBodySchema, DEFAULT_MAX_BODY_BYTES, LastEventIdSchema, PathIdSchema, StartRunBodySchema, ValidateBodySchema } from './schemas.js';
import { webRoutes } from './web-routes.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The bearer token every API request must carry; none: no authentication (loopback, or `--no-auth`). */
  token?: string;
  /** The one origin allowed to call the API from a browser (CORS); none: no CORS headers. */
  corsOrigin?: string;
  /**
   * The `Host` values the server answers to (`host` or `host:port`; a name
   * without a port matches any port); its own pages' origins are the same.
   * Default: `localhost`, `127.0.0.1` and `[::1]` on any port. (For
   * `startServer`: hosts besides its own address and `localhost`.)
   */
  allowedHosts?: readonly string[];
  /** Largest request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Time between heartbeats on an idle event stream (default 15 s). */
  heartbeatMs?: number;
  /**
   * Bytes of live events an event stream's client may have waiting while its
   * connection takes nothing; past them it is dropped (it reconnects with
   * `Last-Event-ID` and misses nothing). Default 64 KiB. A client that takes
   * nothing for two heartbeats while anything waits is dropped too.
   */
  maxStreamQueueBytes?: number;
  /** The built web page (index.html, app.js, app.css); none: `/` says how to build it. */
  webDir?: string;
  /** The project's session plan (`orchestra serve --project`); none: the plan endpoints answer 404. */
  plans?: ServerPlans;
}

function idParam(c: Context, name = 'id'): string {
  return parseInput(PathIdSchema, c.req.param(name), `path parameter ${name}`);
}

/** The HTTP API of spec §9.5 (and the web page) over a server's runs. Errors are JSON: see docs/http-api.md. */
export function createApp(runs: ServerRuns, options: AppOptions = {}): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    const api = apiErrorOf(error);
    return errorResponse(c, api.status, api.code, api.message, api.details);
  });
  app.notFound((c) => errorResponse(c, 404, 'ORCH_NOT_FOUND', `no such endpoint: ${c.req.method} ${c.req.path}`));
  // Requests meant for another server, or another site's page changing things, are refused first (docs/security.md).
  const hosts = new AllowedHosts(options.allowedHosts ?? LOOPBACK_HOSTS);
  app.use('*', guardHost(hosts));
  if (options.corsOrigin) app.use('*', cors({ origin: options.corsOrigin, allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'], allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'] }));
  app.use('*', guardChanges({ hosts, ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}) }));
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limits = { heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS, maxQueueBytes: options.maxStreamQueueBytes ?? DEFAULT_MAX_STREAM_QUEUE_BYTES };
  app.use('*', bodyLimit({ maxSize, onError: (c) => errorResponse(c, 413, 'ORCH_BODY_TOO_LARGE', `the body is larger than ${maxSize} bytes`) }));
  if (options.token) {
    app.use('/pipelines', requireToken(options.token));
    app.use('/pipelines/*', requireToken(options.token));
    app.use('/validate', requireToken(options.token));
    app.use('/plan', requireToken(options.token));
    app.use('/plan/*', requireToken(options.token));
  }

  app.post('/validate', async (c) => {
    const body = parseInput(ValidateBodySchema, await jsonBody(c), 'body');
    const file = body.file || 'pipeline.dot';
    const loaded = loadPipeline(body.source, { file });
    return c.json({ ok: loaded.ok, diagnostics: sortDiagnostics(loaded.diagnostics).map((d) => diagnosticToJson(d, file)) });
  });

  app.get('/pipelines', async (c) => c.json({ runs: await runs.list() }));
  app.post('/pipelines', async (c) => {
    const body = parseInput(StartRunBodySchema, await jsonBody(c), 'body');
    const run = await runs.start({
      source: body.source,
      ...(body.file !== undefined ? { file: body.file } : {}),
      ...(body.context !== undefined ? { context: body.context as never } : {}),
      ...(body.simulate !== undefined ? { simulate: body.simulate } : {}),
      ...(body.model !== undefined ? { model: body.model } : {}),
      ...(body.interactive !== undefined ? { interactive: body.interactive } : {}),
    });
    c.header('Location', `/pipelines/${run.id}`);
    return c.json(run, 201);
  });
  app.get('/pipelines/:id', async (c) => c.json(await runs.summary(idParam(c))));
  app.get('/pipelines/:id/events', async (c) => {
    const id = idParam(c);
    const given = c.req.header('last-event-id') ?? c.req.query('after') ?? '0';
    const lastId = parseInput(LastEventIdSchema, given, 'Last-Event-ID');
    return eventStream(c, await runs.events(id), lastId, limits);
  });
  app.post('/pipelines/:id/cancel', async (c) => c.json(await runs.cancel(idParam(c))));
  app.post('/pipelines/:id/resume', async (c) => c.json(await runs.resume(idParam(c))));
  app.get('/pipelines/:id/graph', async (c) => {
    const svg = await runPicture(runs, idParam(c));
    return c.body(svg, 200, { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'no-store' });
  });
  app.get('/pipelines/:id/questions', async (c) => c.json({ questions: (await runs.questions(idParam(c))).map(questionJson) }));
  app.post('/pipelines/:id/questions/:qid/answer', async (c) => {
    const id = idParam(c);
    const qid = idParam(c, 'qid');
    const body = parseInput(AnswerBodySchema, await jsonBody(c), 'body');
    return c.json(await runs.answer(id, qid, body.answer));
  });
  app.get('/pipelines/:id/checkpoint', async (c) => {
    const checkpoint = await runs.checkpoint(idParam(c));
    return c.json({ checkpoint: checkpoint ?? null });
  });
  app.get('/pipelines/:id/context', async (c) => {
    const summary = await runs.report(idParam(c));
    return c.json({ context: summary.restored.context });
  });
  app.get('/pipelines/:id/stages/:node/conference', async (c) => c.json(await stageConference(runs, idParam(c), idParam(c, 'node'))));

  planRoutes(app, options.plans);

  webRoutes(app, options.webDir, options.token !== undefined, options.plans !== undefined);
  return app;
}
