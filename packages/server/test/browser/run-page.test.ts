import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fixture,
  fixturePath,
  launchBrowser,
  openPage,
  runIdOf,
  screenshot,
  SKIP_BROWSER,
  startTestServer,
  untilNodeState,
  untilText,
  type TestServer,
} from './harness.js';

/** Two questions at once: a gate with choices and a free-form one (parallel branches). */
const TWO_AT_ONCE = `digraph TwoAtOnce {
  start [shape=Mdiamond]
  exit  [shape=Msquare]
  fan   [shape=component, label="Ask both"]
  release [shape=hexagon, label="Release now?"]
  notes [shape=hexagon, label="Release notes?", human.input="freeform"]
  join  [shape=tripleoctagon, label="Join"]
  start -> fan
  fan -> release
  fan -> notes
  release -> join [label="[Y] Yes"]
  release -> join [label="[N] Not yet"]
  notes -> join
  join -> exit
}
`;

describe.skipIf(SKIP_BROWSER)('the run page in Chromium: starting runs and answering gates', { timeout: 30_000 }, () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startTestServer()]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts a run from the form (a diagnostic first), draws it live and takes an answer from a button', async () => {
    const { page, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'New run' }).click();
    await page.getByRole('heading', { name: 'Start a run' }).waitFor();

    // A broken pipeline: the diagnostic shows under the text while typing.
    const source = page.getByLabel('Pipeline (DOT)');
    await source.fill('digraph Broken {\n  start [shape=Mdiamond]\n  start -> \n}\n');
    await untilText(page.getByTestId('diagnostics'), /pipeline\.dot:4:1: error \[syntax\] /);
    await untilText(page.getByRole('status').filter({ hasText: 'error' }), '1 error');
    await screenshot(page, 'new-run-diagnostic.png');

    // A valid one, from a .dot file: the diagnostics go, the file name is used.
    await page.getByLabel('Load a .dot file').setInputFiles(fixturePath('human-gate.dot'));
    await expect.poll(() => source.inputValue()).toContain('digraph Review');
    expect(await page.getByLabel('File name').inputValue()).toBe('human-gate.dot');
    await untilText(page.locator('#validation-status'), 'No problems found.');
    expect(await page.getByTestId('diagnostics').count()).toBe(0);
    await page.getByLabel('Simulate').check();
    await page.getByRole('button', { name: 'Start run' }).click();

    // The run's page: the gate waits, drawn as the current node.
    await page.waitForURL(/\/runs\/[^/]+$/);
    const id = runIdOf(page);
    expect(id).toMatch(/Review$/);
    await page.getByRole('heading', { name: 'Review', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Review Changes' }).waitFor();
    await untilNodeState(page, 'start', 'completed');
    await untilNodeState(page, 'review_gate', 'current');
    await untilNodeState(page, 'ship_it', 'pending');
    await untilText(page.getByTestId('event-log'), 'interview.started');
    await untilText(page.getByTestId('run-state'), 'running');
    const approve = page.getByRole('button', { name: 'Approve' });
    const fix = page.getByRole('button', { name: 'Fix' });
    expect(await approve.getAttribute('aria-keyshortcuts')).toBe('A');
    expect(await fix.textContent()).toContain('F');
    await screenshot(page, 'run-gate.png');

    await approve.click();
    // No reload: the stream brings the events, the picture is redrawn.
    await untilNodeState(page, 'review_gate', 'completed');
    await untilNodeState(page, 'ship_it', 'completed');
    await untilText(page.getByTestId('run-state'), 'completed');
    await untilText(page.getByTestId('event-log'), 'pipeline.completed');
    await untilText(page.getByTestId('event-log'), 'review_gate: Approve');
    expect(await page.getByTestId('question').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    await untilNodeState(page, 'fixes', 'pending');

    // The context, opened: what the gate recorded.
    await page.getByRole('heading', { name: 'Context' }).click();
    await untilText(page.locator('.json-panel').first(), 'human.gate.label');
    await screenshot(page, 'run-finished.png');

    // Back to the list (client-side): the run is there, completed, linked.
    await page.getByRole('link', { name: 'Runs' }).click();
    const row = page.getByRole('row').filter({ hasText: id });
    await untilText(row, 'completed');
    await row.getByRole('link', { name: 'Review', exact: true }).click();
    await page.waitForURL(`**/runs/${id}`);
    await untilText(page.getByTestId('run-state'), 'completed');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });

  it('answers gate after gate with their accelerator keys', async () => {
    const { id } = await server.startRun({ source: fixture('multiple-gates.dot'), file: 'multiple-gates.dot', simulate: true });
    const { page, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/runs/${encodeURIComponent(id)}`);

    await page.getByRole('heading', { name: 'Design OK?' }).waitFor();
    await untilText(page.locator('.hint').filter({ hasText: 'press the key' }), 'Y, N');
    await page.keyboard.press('n'); // "No, revise": the run revises, then asks again
    await untilText(page.getByTestId('event-log'), 'design: No, revise');
    await untilNodeState(page, 'revise', 'completed');
    await page.getByRole('heading', { name: 'Design OK?' }).waitFor();
    await page.keyboard.press('Y');
    await page.getByRole('heading', { name: 'Release now?' }).waitFor();
    await untilText(page.getByTestId('question'), 'then takes “Hold”');
    await page.keyboard.press('s');
    await untilText(page.getByTestId('run-state'), 'completed');
    await untilNodeState(page, 'ship', 'completed');
    await untilNodeState(page, 'hold', 'pending');
    const log = (await page.getByTestId('event-log').textContent()) ?? '';
    expect(log.match(/human\.interaction/g)).toHaveLength(3);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });

  it('takes a key typed in a text box as text, not as an answer', async () => {
    const { id } = await server.startRun({ source: TWO_AT_ONCE, simulate: true });
    const { page, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/runs/${encodeURIComponent(id)}`);
    await page.getByRole('heading', { name: 'Release now?' }).waitFor();
    await page.getByRole('heading', { name: 'Release notes?' }).waitFor();

    const notes = page.getByLabel('Your answer');
    await notes.click();
    await page.keyboard.type('Yes, fixes the login bug');
    expect(await notes.inputValue()).toBe('Yes, fixes the login bug');
    expect(await page.getByRole('button', { name: 'Yes' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.getByRole('heading', { name: 'Release notes?' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { name: 'Release now?' }).count()).toBe(1);

    // Out of the text box, the same key answers.
    await page.getByRole('heading', { name: 'Release now?' }).click();
    await page.keyboard.press('y');
    await untilText(page.getByTestId('run-state'), 'completed');
    await untilText(page.getByTestId('event-log'), 'notes: Yes, fixes the login bug');
    await untilText(page.getByTestId('event-log'), 'release: Yes');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });

  it('cancels a waiting run and resumes it: the buttons follow the state', async () => {
    const { id } = await server.startRun({ source: fixture('human-gate.dot'), file: 'human-gate.dot', simulate: true });
    const { page, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/runs/${encodeURIComponent(id)}`);
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect(await page.getByRole('button', { name: 'Resume run' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Cancel run' }).click();
    await untilText(page.getByTestId('run-state'), 'stopped');
    await untilText(page.getByTestId('event-log'), 'pipeline.interrupted');
    expect(await page.getByTestId('question').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Resume run' }).click();
    await untilText(page.getByTestId('run-state'), 'running');
    await page.getByRole('button', { name: 'Fix' }).waitFor();
    await untilText(page.getByTestId('event-log'), 'Review from review_gate (resumed)');
    // Asked again: its key answers it.
    await page.keyboard.press('a');
    await untilText(page.getByTestId('run-state'), 'completed');
    await untilNodeState(page, 'ship_it', 'completed');

    // The list: every run of this file, newest first.
    await page.getByRole('link', { name: 'Runs' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(5);
    const pipelines = await page.locator('tbody tr td:first-child a').allTextContents();
    expect(pipelines).toEqual(['Review', 'TwoAtOnce', 'MultipleGates', 'Review']);
    await page.setViewportSize({ width: 1280, height: 420 });
    await screenshot(page, 'runs.png', { fullPage: false });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });
});
