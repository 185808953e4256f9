import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOrchestraError } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { pathProblem } from '@orchestra/core/handlers';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { abortOnSignals } from '../interrupt.js';
import { runBackendFactory } from '../run-backend-factory.js';
import { modelFlags } from '../model-flags.js';
import { isDatabaseSpec, openStore, storeSpec, type OpenedStore } from '../run-store.js';
import { startCliTracing } from '../tracing/cli-tracing.js';

/** Flags of `orchestra serve`. */
export interface ServeFlags {
  host?: string;
  port?: string;
  runsDir?: string;
  /** `--store postgres://…` (else `$ORCHESTRA_STORE`): show and steer the runs of a database; workers drive them. */
  store?: string;
  /** `--project <dir>`: serve the project's session plan (its runs kept in `<dir>/.orchestra/runs`). */
  project?: string;
  token?: string;
  /** false with `--no-auth`. */
  auth?: boolean;
  allowTools?: boolean;
  cors?: string;
  /** `--allowed-host`, repeatable. */
  allowedHost?: string[];
  maxBody?: string;
  model?: string;
  baseUrl?: string;
  backend?: string;
  /** `--otel`: trace the runs it drives (also on when an OTLP endpoint variable is set; docs/tracing.md). */
  otel?: boolean;
}

/** The environment variable a token may come from instead of `--token` (keeps it out of the process list). */
export const TOKEN_ENV = 'ORCHESTRA_TOKEN';

/** Where the built web page is: next to the bundle (`dist/web`), else the server package's build (a source checkout). */
function webDir(): string | undefined {
  const candidates = ['../web/', './web/', '../../../server/web-dist/'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  return candidates.find((dir) => existsSync(`${dir}index.html`));
}

/** The largest `--max-body`: 1 GiB (a body is held in memory whole). */
export const MAX_BODY_LIMIT = 1024 ** 3;

/** What {@link checkFlags} needs of `@orchestra/server` (loaded only when serve runs). */
interface ServerChecks {
  isLoopback: (host: string) => boolean;
  parseHostPort: (text: string) => unknown;
  TOOL_BACKENDS: ReadonlySet<string>;
}

/** Checks the flags; an error message for a bad one. */
function checkFlags(flags: ServeFlags, token: string | undefined, server: ServerChecks): { port: number; maxBody?: number } | string {
  const port = flags.port === undefined ? 7070 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return `--port expects a port number (0-65535), got ${JSON.stringify(flags.port)}`;
  let maxBody: number | undefined;
  if (flags.maxBody !== undefined) {
    maxBody = /^\d+$/.test(flags.maxBody.trim()) ? Number(flags.maxBody) : Number.NaN;
    if (!(maxBody >= 1 && maxBody <= MAX_BODY_LIMIT)) return `--max-body expects a size in bytes from 1 to ${MAX_BODY_LIMIT} (1 GiB), got ${JSON.stringify(flags.maxBody)}`;
  }
  for (const host of flags.allowedHost ?? []) {
    if (server.parseHostPort(host) === undefined) return `--allowed-host expects a host name or address, with or without a port (such as orchestra.example.com or 192.168.1.20:7070), got ${JSON.stringify(host)}`;
  }
  if (token !== undefined && token.length < 16) return `the token must be at least 16 characters (use e.g. \`openssl rand -hex 24\`)`;
  if (token !== undefined && flags.auth === false) return flags.token !== undefined ? 'use --token or --no-auth, not both' : `$${TOKEN_ENV} is set and --no-auth was given: unset one of them`;
  if (flags.backend !== undefined && !flags.allowTools && server.TOOL_BACKENDS.has(flags.backend)) {
    return `--backend ${flags.backend} lets models run commands on this machine: add --allow-tools to serve it`;
  }
  const host = flags.host ?? '127.0.0.1';
  if (!server.isLoopback(host) && token === undefined && flags.auth !== false) {
    return `binding to ${host} lets other machines reach the server: give it a token (--token or $${TOKEN_ENV}), or accept an open server with --no-auth`;
  }
  if (flags.cors !== undefined) {
    let url: URL;
    try {
      url = new URL(flags.cors);
    } catch {
      return `--cors expects an origin such as https://example.com, got ${JSON.stringify(flags.cors)}`;
    }
    if (url.origin !== flags.cors.replace(/\/$/, '')) return `--cors expects an origin (scheme, host and port only), got ${JSON.stringify(flags.cors)}`;
  }
  return { port, ...(maxBody !== undefined ? { maxBody } : {}) };
}

/**
 * `orchestra serve`: the HTTP API and web page over the runs in
 * `--runs-dir` (or, with `--project <dir>`, the project's runs and its
 * session plan) until Ctrl-C (which stops the runs it drives at a safe point:
 * each stays resumable). Exit 0 after a clean stop; 2 for bad flags or an
 * address that cannot be bound.
 */
export async function serveCommand(flags: ServeFlags, io: CliIO): Promise<number> {
  const token = flags.token ?? (process.env[TOKEN_ENV] || undefined);
  const server = await import('@orchestra/server');
  const checked = checkFlags(flags, token, server);
  if (typeof checked === 'string') {
    io.stderr(`orchestra: ${checked}\n`);
    return ExitCode.usage;
  }
  const models = modelFlags(flags);
  if (typeof models === 'string') {
    io.stderr(`orchestra: ${models}\n`);
    return ExitCode.usage;
  }
  const project = flags.project === undefined ? undefined : resolve(flags.project);
  if (project !== undefined) {
    const missing = existsSync(project) ? pathProblem(project, { kind: 'directory', what: 'a directory' }) : { message: `${project} does not exist` };
    if (missing) {
      io.stderr(`orchestra: --project ${escapeControl(missing.message)}\n`);
      return ExitCode.usage;
    }
    if (flags.runsDir !== undefined && resolve(flags.runsDir) !== join(project, '.orchestra', 'runs')) {
      io.stderr(`orchestra: with --project the runs are kept in ${escapeControl(join(project, '.orchestra', 'runs'))} (its plan's task runs among them): leave out --runs-dir\n`);
      return ExitCode.usage;
    }
  }
  // $ORCHESTRA_STORE counts for serve when it names a database (a directory of runs is --runs-dir's).
  const fromEnv = flags.store === undefined ? storeSpec({}) : undefined;
  const spec = flags.store ?? (fromEnv !== undefined && isDatabaseSpec(fromEnv) && project === undefined && flags.runsDir === undefined ? fromEnv : undefined);
  if (spec !== undefined && (!isDatabaseSpec(spec) || project !== undefined || flags.runsDir !== undefined)) {
    io.stderr(
      `orchestra: ${!isDatabaseSpec(spec) ? `--store for serve is a PostgreSQL URL (postgres://user@host:port/db); for a directory of runs use --runs-dir` : 'use --store without --runs-dir and --project (the database holds the runs)'}\n`,
    );
    return ExitCode.usage;
  }
  let store: OpenedStore | undefined;
  if (spec !== undefined) {
    try {
      store = await openStore(spec);
    } catch (error) {
      if (!isOrchestraError(error)) throw error;
      io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
      return ExitCode.usage;
    }
  }
  const runsDir = project !== undefined ? join(project, '.orchestra', 'runs') : resolve(flags.runsDir ?? '.orchestra/runs');
  const problem = existsSync(runsDir) ? pathProblem(runsDir, { kind: 'directory', what: 'a directory' }) : undefined;
  if (problem) {
    io.stderr(`orchestra: --runs-dir ${escapeControl(problem.message)}\n`);
    return ExitCode.usage;
  }
  // Models get no tools unless the server allows them: the chat backend, whatever orchestra.yaml prefers (a project's, with --project).
  const backendFor = runBackendFactory(models, flags.allowTools === true, project !== undefined ? join(project, 'project.dot') : undefined);
  const host = flags.host ?? '127.0.0.1';
  // Traces of the runs it drives, only when asked for (--otel, an OTLP endpoint variable).
  const tracing = await startCliTracing(flags.otel, io);
  let running: Awaited<ReturnType<typeof server.startServer>>;
  try {
    running = await server.startServer({
      ...(tracing ? { observe: () => tracing.observe() } : {}),
      host,
      port: checked.port,
      ...(store ? { catalogue: store.catalogue, ...(store.dispatch ? { dispatch: store.dispatch } : {}) } : project !== undefined ? { project } : { runsDir }),
      ...(token !== undefined ? { token } : {}),
      allowTools: flags.allowTools === true,
      ...(flags.cors !== undefined ? { corsOrigin: flags.cors.replace(/\/$/, '') } : {}),
      ...(checked.maxBody !== undefined ? { maxBodyBytes: checked.maxBody } : {}),
      ...(flags.allowedHost?.length ? { allowedHosts: flags.allowedHost } : {}),
      backendFor,
      ...(webDir() ? { webDir: webDir() as string } : {}),
    });
  } catch (error) {
    await tracing?.finish();
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE' || e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES' || e.code === 'ENOTFOUND') {
      io.stderr(`orchestra: cannot listen on ${host}:${checked.port}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}\n`);
      return ExitCode.usage;
    }
    await store?.close();
    if (isOrchestraError(error)) {
      io.stderr(`orchestra: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  if (flags.auth === false) io.stderr(`orchestra: warning: --no-auth: anyone who can reach ${running.url} can start runs and answer questions\n`);
  if (flags.allowTools) io.stderr('orchestra: warning: --allow-tools: submitted pipelines may run shell commands on this machine\n');
  else if (project !== undefined) io.stderr("orchestra: note: without --allow-tools the plan endpoints refuse: a plan's recipes read the project's files\n");
  io.stdout(`orchestra: serving ${running.url} (runs in ${store ? `${store.display}, driven by orchestra worker` : runsDir}${project !== undefined ? `; the plan of ${project}` : ''}${token !== undefined ? '; a token is required' : ''}); Ctrl-C stops\n`);
  const stopped = new Promise<void>((resolveStop) => {
    const interrupt = abortOnSignals(
      () => process.exit(ExitCode.interrupted),
      () => io.stderr('orchestra: stopping: runs waiting for an answer park with their questions, the others stop at a safe point; all stay resumable...\n'),
    );
    interrupt.signal.addEventListener('abort', () => {
      void running
        .close()
        .then(() => store?.close())
        .then(() => tracing?.finish())
        .finally(() => {
          interrupt.dispose();
          resolveStop();
        });
    });
  });
  await stopped;
  return ExitCode.ok;
}
