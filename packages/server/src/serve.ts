import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { AllowedHosts, serverHosts } from './http/allowed-hosts.js';
import { createApp, type AppOptions } from './http/app.js';
import type { ServerPlans } from './plans/server-plans.js';
import { ServerRuns, type ServerRunsOptions } from './runs/server-runs.js';

/** Options of {@link startServer}. */
export interface ServerOptions extends ServerRunsOptions, Omit<AppOptions, 'plans'> {
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Port (default 7070; 0 picks a free one). */
  port?: number;
  /**
   * A project directory whose session plan the server serves (`/plan`, the
   * page's plan view; with `allowTools` only). Its runs are kept in
   * `<project>/.orchestra/runs` (give no `runsDir` or `catalogue` with it)
   * and tool commands run in it.
   */
  project?: string;
}

/** The runs and the plan of a server: a project's (its recipes and plan, loaded only then), or plain runs. */
async function serverRuns(options: ServerOptions): Promise<{ runs: ServerRuns; plans?: ServerPlans }> {
  if (options.project === undefined) return { runs: new ServerRuns(options) };
  if (options.runsDir !== undefined || options.catalogue !== undefined) throw new RangeError('a server with a project keeps its runs in <project>/.orchestra/runs: give no runsDir or catalogue with project');
  const { runsDir: _runsDir, catalogue: _catalogue, project, ...rest } = options;
  const { projectPlans } = await import('./plans/project-plans.js');
  return projectPlans({ ...rest, project });
}

/** A running server. */
export interface RunningServer {
  /** Its base URL, e.g. `http://127.0.0.1:7070`. */
  url: string;
  port: number;
  runs: ServerRuns;
  /** Stops accepting requests, stops the runs it drives (each stays resumable) and closes open streams. */
  close(): Promise<void>;
}

/** Whether a host name is a loopback address (only this machine can connect). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Starts the HTTP server: the API of spec §9.5 over runs in
 * `options.runsDir` (or a project's, with its session plan:
 * `options.project`), and the web page. Resolves once it listens. It answers
 * requests whose `Host` is its address and port, `localhost` with its port
 * (every interface's address when it listens on `0.0.0.0` or `::`), or one
 * of `options.allowedHosts` (docs/security.md); a value there that is not
 * `host` or `host:port` throws a `RangeError`.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  new AllowedHosts(options.allowedHosts ?? []); // refuses a malformed host before anything starts
  const { runs, plans } = await serverRuns(options);
  const host = options.host ?? '127.0.0.1';
  let server!: ServerType;
  // The app needs the port (0 picks one): it is made once the server listens, before any request is read.
  let app: Hono | undefined;
  const info = await new Promise<AddressInfo>((resolve, reject) => {
    server = serve({ fetch: (request, env) => (app as Hono).fetch(request, env), hostname: host, port: options.port ?? 7070 }, (listening) => {
      app = createApp(runs, { ...options, ...(plans ? { plans } : {}), allowedHosts: serverHosts(host, listening.address, listening.port, options.allowedHosts) });
      resolve(listening);
    });
    server.once('error', reject);
  });
  const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    url: `http://${shownHost}:${info.port}`,
    port: info.port,
    runs,
    close: async () => {
      await plans?.close();
      await runs.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
