import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { simulationBackend, type BackendFactory, type CodergenBackend } from '@orchestra/core';
import type { ConferenceBackend } from '@orchestra/core/handlers';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { projectPlans } from '../../src/plans/project-plans.js';
import type { ServerPlans } from '../../src/plans/server-plans.js';
import type { ServerRuns } from '../../src/runs/server-runs.js';
import { FIXTURES } from './test-server.js';

/** A fresh copy of the sample manuscript project (fixtures/manuscript). */
export function manuscriptCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'orchestra-plan-')), 'manuscript');
  cpSync(join(FIXTURES, 'manuscript'), dir, { recursive: true });
  return dir;
}

/** A response's status and JSON body. */
export interface Reply {
  status: number;
  body: any;
}

/** The app of a server with a project, asked in-process (`app.request`), with a JSON client. */
export class PlanApp {
  readonly app;
  constructor(
    readonly runs: ServerRuns,
    readonly plans: ServerPlans | undefined,
    options: AppOptions = {},
    /** The project directory ('' for a server without one). */
    readonly project = '',
  ) {
    this.app = createApp(runs, { ...options, ...(plans ? { plans } : {}) });
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...(method === 'GET' ? {} : { 'content-type': 'application/json' }), ...headers } };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await this.app.request(path, init);
    return { status: response.status, body: await response.json() };
  }

  get(path: string): Promise<Reply> {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown): Promise<Reply> {
    return this.request('POST', path, body);
  }

  /** Waits until the plan (GET /plan) satisfies `check`; returns it. */
  async until(check: (plan: any) => boolean, what: string, timeoutMs = 20_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.get('/plan');
      if (check(body)) return body;
      if (Date.now() > deadline) throw new Error(`the plan never ${what}: ${JSON.stringify(body, null, 1)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    await this.plans?.close();
    await this.runs.close();
  }
}

/** A server's app over a copy of the manuscript (or `project`), tools allowed unless said. */
export function planApp(options: { project?: string; allowTools?: boolean; backendFor?: BackendFactory; app?: AppOptions } = {}): PlanApp {
  const project = options.project ?? manuscriptCopy();
  const { runs, plans } = projectPlans({ project, allowTools: options.allowTools ?? true, checkpointIntervalMs: 0, ...(options.backendFor ? { backendFor: options.backendFor } : {}) });
  return new PlanApp(runs, plans, options.app, project);
}

/** A backend factory giving `backend` (a scripted chief and agents). */
export function backendOf(backend: CodergenBackend): BackendFactory {
  return async () => backend;
}

/** The plan's task states, in order, as [id, state]. */
export function states(plan: any): [string, string][] {
  return plan.tasks.map((t: any) => [t.id, t.state]);
}

/** Expects an error reply with `status` and `code`. */
export function expectError(reply: Reply, status: number, code: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.error?.code, JSON.stringify(reply.body)).toBe(code);
}

/** What a scripted role call is given. */
export interface RoleCall {
  role: string;
  prompt: string;
}

/**
 * The simulation with the chief's replies scripted (`chief`, called with
 * the call's number from 1) and, optionally, the agents' (`agents`; a throw
 * fails the step). Every call is recorded in `calls`.
 */
export function scriptedBackend(chief: (call: RoleCall, n: number) => string, agents?: (call: RoleCall) => Promise<string> | string): { backend: CodergenBackend; calls: RoleCall[] } {
  const base = simulationBackend.conference as ConferenceBackend;
  const calls: RoleCall[] = [];
  let n = 0;
  const conference: ConferenceBackend = {
    ...base,
    async askRole(request) {
      const call = { role: request.role.name, prompt: request.messages.map((m) => m.content).join('\n') };
      calls.push(call);
      if (call.role === 'chief') return { text: chief(call, ++n), model: 'scripted' };
      if (agents) return { text: await agents(call), model: 'scripted' };
      return base.askRole(request);
    },
  };
  return { backend: { run: async () => 'x', conference } as CodergenBackend, calls };
}
