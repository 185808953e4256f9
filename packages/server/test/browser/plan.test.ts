import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodergenBackend } from '@orchestra/core';
import { startServer } from '../../src/index.js';
import { backendOf, manuscriptCopy, scriptedBackend, type RoleCall } from '../support/plan-app.js';
import { launchBrowser, openPage, screenshot, SKIP_BROWSER, untilText, WEB_DIST, type TestServer } from './harness.js';

/** The chief's plan: two tasks the router takes (one after the other) and one too vague for any recipe. */
const PROPOSAL = {
  tasks: [
    { id: 'consistency', description: 'check scene 2 for continuity errors', deps: [] },
    { id: 'prose', description: 'review the prose and pacing of scene 2', deps: ['consistency'] },
    { id: 'polish', description: 'make the book better', deps: [] },
  ],
};

/** A server over a copy of the manuscript whose model is `backend`, as the harness's TestServer. */
async function planServer(backend: CodergenBackend): Promise<TestServer> {
  const running = await startServer({ project: manuscriptCopy(), allowTools: true, port: 0, webDir: WEB_DIST, checkpointIntervalMs: 0, backendFor: backendOf(backend) });
  return { server: running, url: running.url, close: () => running.close(), startRun: async () => ({ id: '' }) };
}

/** What the simulation's agents answer: JSON (checks pass) when asked for it, else text. */
function simulated(call: RoleCall): string {
  return /JSON/.test(call.prompt) ? '{"pass": true, "findings": []}' : `[Simulated] ${call.role}`;
}

describe.skipIf(SKIP_BROWSER)('the plan view in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let server: TestServer;
  let failing = true;

  beforeAll(async () => {
    // The chief's replies scripted; the recipes' agents are the simulation's, but for scene 3's continuity step while `failing`.
    const { backend } = scriptedBackend(
      (call, n) => (n === 1 ? JSON.stringify(PROPOSAL) : call.prompt.includes('scene 3') ? JSON.stringify({ tasks: [{ id: 'scene3', description: 'check scene 3 for continuity errors', deps: [] }] }) : '{"tasks": []}'),
      (call) => {
        if (failing && call.role === 'continuity' && call.prompt.includes('scene 3')) throw new Error('the model is down');
        return simulated(call);
      },
    );
    [browser, server] = await Promise.all([launchBrowser(), planServer(backend)]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('proposes a plan, edits and moves a task (a move across a dependency refused), starts it, answers a scoping question inline, and links each done task to its run', async () => {
    const { page, outside, errors, close } = await openPage(browser, server, { width: 1100, height: 900 });
    await page.goto(`${server.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plan' }).click();
    await page.getByRole('heading', { name: 'Plan', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/session-plan');

    // Propose.
    await page.getByLabel('What do you want done?').fill('Get scene 2 ready for the editor');
    await page.getByRole('button', { name: 'Ask the chief for a plan' }).click();
    const tasks = page.getByTestId('plan-task');
    await expect.poll(() => tasks.count()).toBe(3);
    expect(await page.locator('#plan-heading').textContent()).toBe('Get scene 2 ready for the editor');
    await untilText(page.getByTestId('plan-state'), 'proposed');
    const task = (id: string) => page.locator(`[data-testid="plan-task"][data-task="${id}"]`);
    await untilText(task('consistency'), 'recipe analytical_consistency');
    await untilText(task('prose'), 'after consistency');
    await untilText(task('polish'), 'needs scoping');

    // Edit inline (text stays text), twice.
    const edit = async (text: string) => {
      await page.getByRole('button', { name: 'Edit task polish' }).click();
      await page.getByLabel('New description of task polish').fill(text);
      await task('polish').getByRole('button', { name: 'Save' }).click();
      await untilText(task('polish').locator('.plan-task-description'), text);
    };
    await edit('polish the <b>book</b>');
    expect(await task('polish').locator('.plan-task-description b').count()).toBe(0);
    await edit('polish the book');

    // Move: prose cannot go before what it depends on; polish can go first.
    await page.getByRole('button', { name: 'Move up task prose' }).click();
    await untilText(page.getByTestId('plan-error'), 'task prose cannot go to position 1');
    await page.getByRole('button', { name: 'Move down task prose' }).click();
    await expect.poll(async () => (await tasks.evaluateAll((items) => items.map((i) => i.getAttribute('data-task'))))).toEqual(['consistency', 'polish', 'prose']);

    // Approve: the two routed tasks run; then the chief's question about the vague one waits in its place.
    await page.getByRole('button', { name: 'Approve and start' }).click();
    const question = task('polish').getByTestId('plan-question');
    await untilText(question, 'No recipe takes "polish the book"');
    await untilText(task('consistency'), 'done');
    await untilText(task('prose'), 'done');
    await screenshot(page, 'web-plan.png');

    await question.getByLabel('Your answer').fill('check scene 1 for continuity errors');
    await question.getByRole('button', { name: 'Send answer' }).click();
    await untilText(page.getByTestId('plan-state'), 'done');
    for (const id of ['consistency', 'polish', 'prose']) await untilText(task(id), /done/);
    await untilText(task('polish'), 'Your answer: check scene 1 for continuity errors');

    // Each task links to its run's page.
    const link = task('prose').getByRole('link', { name: /^Run .* of task prose$/ });
    const runId = (await link.locator('code').textContent()) ?? '';
    expect(runId).toMatch(/recipe_analytical_prose$/);
    await link.click();
    await page.waitForURL(`**/runs/${runId}`);
    await untilText(page.getByTestId('run-state'), 'completed');

    expect(outside).toEqual([]);
    // The refused move (409) and the first look for a plan (404: none yet) are the only errors the browser logs.
    expect(errors.filter((e) => !/status of (404|409)/.test(e))).toEqual([]);
    await close();
  });

  it("shows a task run's gate in its task, pauses and resumes the plan (the gate asked again), and the gate's buttons answer it", async () => {
    const { page, outside, errors, close } = await openPage(browser, server, { width: 1100, height: 900 });
    await page.goto(`${server.url}/session-plan`);
    // A new plan replaces the ended one (its form is open): its one task's continuity step fails, and the recipe's gate asks what to do.
    await page.getByLabel('What do you want done?').fill('check scene 3 for continuity errors');
    await page.getByRole('button', { name: 'Ask the chief for a plan' }).click();
    const task = page.locator('[data-testid="plan-task"][data-task="scene3"]');
    await untilText(task, 'recipe analytical_consistency');
    await page.getByRole('button', { name: 'Approve and start' }).click();
    const gate = task.getByTestId('plan-question');
    await untilText(gate, 'The continuity step (check_consistency) failed');
    expect(await gate.getByRole('button').allTextContents()).toEqual(['XStop', 'RRetry', 'SSkip']);

    await page.getByRole('button', { name: 'Pause' }).click();
    await untilText(page.getByTestId('plan-state'), 'paused');
    expect(await task.getByTestId('plan-question').count()).toBe(0);
    failing = false;
    await page.getByRole('button', { name: 'Resume' }).click();
    await untilText(task.getByTestId('plan-question'), 'The continuity step (check_consistency) failed');
    await task.getByTestId('plan-question').getByRole('button', { name: /Retry/ }).click();
    await untilText(page.getByTestId('plan-state'), 'done');
    await untilText(task, 'done');
    await expect.poll(() => task.getByRole('link', { name: /^Run .* of task scene3$/ }).count()).toBe(1);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
