import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, launchBrowser, openPage, SKIP_BROWSER, startTestServer, untilText, type TestServer } from './harness.js';

const TOKEN = 'browser-test-token-0123456789';

describe.skipIf(SKIP_BROWSER)('the web page of a server with a token, in Chromium', { timeout: 30_000 }, () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startTestServer({ token: TOKEN })]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('asks for the token once, keeps it for the tab, and asks again when the server refuses it', async () => {
    const { id } = await server.startRun({ source: fixture('human-gate.dot'), file: 'human-gate.dot', simulate: true });
    const { page, context, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/`);

    const prompt = page.getByRole('heading', { name: 'This server needs a token' });
    await prompt.waitFor();
    expect(await page.getByRole('link', { name: 'New run' }).count()).toBe(0);
    const field = page.getByRole('textbox', { name: 'Token' });
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill('not-the-token-0123456789');
    await page.getByRole('button', { name: 'Continue' }).click();
    await untilText(page.getByRole('alert'), 'the token is wrong');

    await field.fill(TOKEN);
    await field.press('Enter');
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    expect(await prompt.count()).toBe(0);
    const cookie = (await context.cookies()).find((c) => c.name === 'orchestra_token');
    expect(cookie).toMatchObject({ value: TOKEN, sameSite: 'Strict', path: '/' });

    // The run's page: its summary (Bearer) and its event stream (the cookie).
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await untilText(page.getByTestId('event-log'), 'interview.started');

    // A reload keeps the token (this tab's sessionStorage): no prompt.
    await page.reload();
    await page.getByRole('button', { name: 'Approve' }).click();
    await untilText(page.getByTestId('run-state'), 'completed');
    expect(await prompt.count()).toBe(0);

    // A token the server refuses (it changed): the page asks again. The stale token is put in place from a
    // document of the server's that runs no script (its style sheet): the run page's own requests would meet the
    // stale token first, and a refusal there forgets it before the page below is loaded.
    await page.goto(`${server.url}/assets/app.css`);
    await page.evaluate("sessionStorage.setItem('orchestra_token', 'an-old-token-0123456789'); document.cookie = 'orchestra_token=an-old-token-0123456789; Path=/; SameSite=Strict'");
    await page.goto(`${server.url}/runs/${encodeURIComponent(id)}`);
    await prompt.waitFor();
    await untilText(page.getByRole('alert'), 'did not accept the token');
    await page.getByRole('textbox', { name: 'Token' }).fill(TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await untilText(page.getByTestId('run-state'), 'completed');
    // The refused requests are the only errors (the browser logs each 401).
    expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    await close();
  });
});
