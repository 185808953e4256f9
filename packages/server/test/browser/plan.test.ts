import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/index.js';
import { backendOf, manuscriptCopy, scriptedBackend } from '../support/plan-app.js';
import { launchBrowser, openPage, screenshot, SKIP_BROWSER, untilText, WEB_DIST, type TestServer } from './harness.js';

/** The chief's plan: two tasks the router takes (one after the other) and one too vague for any recipe. */
const PROPOSAL = {
  tasks: [
    { id: 'consistency', description: 'check scene 2 for continuity errors', deps: [] },
    { id: 'prose', description: 'review the prose and pacing of scene 2', deps: ['consistency'] },
    { id: 'polish', description: 'make the book better', deps: [] },
  ],
};

describe.skipIf(SKIP_BROWSER)('the plan view in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let running: RunningServer;
  let server: TestServer;

  beforeAll(async () => {
    // The chief's replies scripted; the recipes' agents are the simulation's.
    const { backend } = scriptedBackend((_call, n) => (n === 1 ? JSON.stringify(PROPOSAL) : '{"tasks": []}'));
    [browser, running] = await Promise.all([launchBrowser(), startServer({ project: manuscriptCopy(), allowTools: true, port: 0, webDir: WEB_DIST, checkpointIntervalMs: 0, backendFor: backendOf(backend) })]);
    server = { server: running, url: running.url, close: () => running.close(), startRun: async () => ({ id: '' }) };
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
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
});
