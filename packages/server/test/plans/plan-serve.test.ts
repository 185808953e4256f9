import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { orchestra, startOrchestra } from '../support/cli.js';
import { manuscriptCopy } from '../support/plan-app.js';
import { tempRunsDir } from '../support/test-server.js';

const WEB_DIST = fileURLToPath(new URL('../../web-dist/', import.meta.url));

describe('a server with a project', () => {
  it('startServer({ project }) serves the plan, its runs kept in <project>/.orchestra/runs; runsDir with it is refused', async () => {
    const project = manuscriptCopy();
    const server = await startServer({ project, allowTools: true, port: 0, checkpointIntervalMs: 0 });
    try {
      const none = await fetch(`${server.url}/plan`);
      expect(none.status).toBe(404);
      const post = await fetch(`${server.url}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ intent: 'check scene 2 for continuity errors', simulate: true }) });
      expect(post.status).toBe(201);
      expect(post.headers.get('location')).toBe('/plan');
      expect(server.runs.location).toBe(join(project, '.orchestra', 'runs'));
    } finally {
      await server.close();
    }
    await expect(startServer({ project, runsDir: tempRunsDir(), port: 0 })).rejects.toThrow(/give no runsDir or catalogue with project/);
  });

  it.skipIf(!existsSync(join(WEB_DIST, 'index.html')))('its page (also at /session-plan) says it serves a plan, so the header links to it; a server without a project\'s says not', async () => {
    const withPlan = await startServer({ project: manuscriptCopy(), allowTools: true, port: 0, webDir: WEB_DIST });
    const without = await startServer({ runsDir: tempRunsDir(), port: 0, webDir: WEB_DIST });
    try {
      for (const path of ['/', '/session-plan']) {
        const page = await fetch(`${withPlan.url}${path}`);
        expect(page.headers.get('content-type')).toContain('text/html');
        expect(await page.text()).toContain('<meta name="orchestra-plan" content="project">');
      }
      expect(await (await fetch(`${without.url}/`)).text()).toContain('<meta name="orchestra-plan" content="none">');
    } finally {
      await withPlan.close();
      await without.close();
    }
  });

  it('orchestra serve --project: refuses a missing directory and another --runs-dir; serves the plan', async () => {
    const missing = orchestra('serve', '--project', '/nonexistent/project', '--port', '0');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--project /nonexistent/project does not exist');
    const project = manuscriptCopy();
    const clash = orchestra('serve', '--project', project, '--runs-dir', tempRunsDir(), '--port', '0');
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(`with --project the runs are kept in ${join(project, '.orchestra', 'runs')}`);

    const served = startOrchestra('serve', '--project', project, '--allow-tools', '--port', '0');
    try {
      const deadline = Date.now() + 20_000;
      let url: string | undefined;
      while (!url && Date.now() < deadline) {
        url = /serving (http:\/\/\S+)/.exec(served.output())?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 50));
      }
      expect(url, served.output()).toBeDefined();
      expect(served.output()).toContain(`the plan of ${project}`);
      const post = await fetch(`${url}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ intent: 'check scene 2 for continuity errors', simulate: true }) });
      expect(post.status).toBe(201);
      const started = await fetch(`${url}/plan/start`, { method: 'POST', headers: { 'content-type': 'application/json' } });
      expect(started.status).toBe(200);
      let plan: any;
      while (Date.now() < deadline) {
        plan = await (await fetch(`${url}/plan`)).json();
        if (!plan.active) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(plan.state).toBe('done');
      expect(existsSync(join(project, '.orchestra', 'runs', plan.tasks[0].run_id))).toBe(true);
    } finally {
      served.child.kill('SIGINT');
      await served.exited;
    }
  }, 60_000);
});
