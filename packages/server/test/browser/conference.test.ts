import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANON_RECEIPT, QUESTION, SCRIPT_REPLY, SEARCH_RECEIPT, UNKNOWN_RECEIPT, writeConferenceRun, writeConferenceRunUnderWay } from '../support/conference-run.js';
import { launchBrowser, openPage, screenshotsDir, SKIP_BROWSER, startTestServer, untilText, WAIT_MS, type TestServer } from './harness.js';

/** What the page's `getComputedStyle` gives (the tests are type-checked without the DOM's types). */
type ComputedStyle = (el: unknown) => { getPropertyValue(name: string): string };

/** The computed style property of each element the locator finds. */
function styles(locator: Locator, property: string): Promise<string[]> {
  return locator.evaluateAll((els, p) => els.map((el) => ((globalThis as unknown as { getComputedStyle: ComputedStyle }).getComputedStyle)(el).getPropertyValue(p)), property);
}

/** Whether a `<details>` is open. */
async function isOpen(details: Locator): Promise<boolean> {
  return (await details.getAttribute('open')) !== null;
}

describe.skipIf(SKIP_BROWSER)('the run page in Chromium: a conference stage', { timeout: 30_000 }, () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startTestServer()]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the question, the receipts and a card per role in order; evidence links go to the receipts; replies are text', async () => {
    writeConferenceRun(server.server.runs.location, 'scene-review');
    const { page, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/runs/scene-review`);
    const panel = page.getByTestId('conference');
    await panel.getByRole('heading', { name: 'Conference review' }).waitFor();
    await untilText(panel.locator('.conference-question'), QUESTION);
    await untilText(panel, '1 of 3 roles answered (quorum 1): success');

    // One card per role, in the roles' order (not the order they finished in), each with its status.
    const cards = panel.getByTestId('role-card');
    await expect.poll(() => cards.count(), { timeout: WAIT_MS }).toBe(3);
    expect(await cards.locator('.role-name').allTextContents()).toEqual(['critic', 'continuity', 'editor']);
    expect(await cards.locator('.role-tier').allTextContents()).toEqual(['T3', 'T1', 'T5']);
    expect(await cards.locator('.role-status').allInnerTexts()).toEqual(['✓ answered', '– abstained', '! ungrounded']);
    // Each status looks different, not by colour alone: the mark, and for an abstention a dashed edge.
    expect(new Set(await styles(cards.locator('.role-status'), 'background-color')).size).toBe(3);
    expect(new Set(await styles(cards, 'border-left-color')).size).toBe(3);
    expect(await styles(cards, 'border-left-style')).toEqual(['solid', 'dashed', 'solid']);
    await untilText(cards.nth(1).locator('.role-reason'), 'Why it abstained: the receipts do not say when scene 2 takes place');
    await untilText(cards.nth(2).locator('.role-reason'), `Why: cites ${UNKNOWN_RECEIPT}, which is no receipt of this conference`);
    expect(await cards.nth(0).locator('.role-reason').count()).toBe(0);
    expect(await cards.nth(1).locator('.role-evidence').count()).toBe(0);

    // The chief's evidence: one entry per receipt, anchored by its id, its payload folded.
    const receipts = panel.getByTestId('receipt');
    expect(await receipts.evaluateAll((els) => els.map((el) => el.id))).toEqual([CANON_RECEIPT, SEARCH_RECEIPT]);
    await untilText(receipts.nth(0), 'read_file path: "canon.md"');
    await untilText(receipts.nth(1), 'search_text pattern: "brother", path: "scenes/"');
    const searchPayload = page.locator(`#${SEARCH_RECEIPT} details`);
    expect(await isOpen(searchPayload)).toBe(false);
    expect(await page.getByText('scenes/scene-2.md:14', { exact: false }).isVisible()).toBe(false);

    // The critic's evidence line links each receipt it cites; following one targets its entry and unfolds it.
    const links = cards.nth(0).locator('.role-evidence').getByRole('link');
    expect(await links.allTextContents()).toEqual([CANON_RECEIPT, SEARCH_RECEIPT]);
    expect(await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')))).toEqual([`#${CANON_RECEIPT}`, `#${SEARCH_RECEIPT}`]);
    await untilText(cards.nth(0).locator('.role-evidence'), `Evidence: receipt_id: ${CANON_RECEIPT}, ${SEARCH_RECEIPT}`);
    await links.nth(1).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/runs/scene-review#${SEARCH_RECEIPT}`);
    expect(await page.locator(':target').getAttribute('id')).toBe(SEARCH_RECEIPT);
    await expect.poll(() => isOpen(searchPayload)).toBe(true);
    expect(await page.getByText('scenes/scene-2.md:14', { exact: false }).isVisible()).toBe(true);
    expect(await page.getByTestId('conference').count()).toBe(1); // still the run's page

    // The editor cites an id no receipt has: marked, not linked. Its reply's markup is text, never run.
    const editor = cards.nth(2);
    expect(await editor.locator('.role-evidence').getByRole('link').count()).toBe(0);
    await untilText(editor.locator('.receipt-unknown'), UNKNOWN_RECEIPT);
    expect(await editor.locator('.role-reply').first().textContent()).toBe(SCRIPT_REPLY);
    expect(await panel.locator('script').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();

    // The replies sent back are folded.
    const rejections = editor.locator('details.role-rejections');
    expect(await isOpen(rejections)).toBe(false);
    await untilText(rejections.locator('summary'), '1 reply sent back');
    await rejections.locator('summary').click();
    await untilText(rejections, 'It reads well.Sent back: no Evidence: line');

    // The event log says what the conference events mean.
    const log = page.getByTestId('event-log');
    await untilText(log, 'review: critic (T3) takes part');
    await untilText(log, "review: editor's answer sent back: no Evidence: line");
    await untilText(log, 'review: critic answered in 812 ms');

    await page.evaluate('window.scrollTo(0, 0)');
    await panel.screenshot({ path: join(screenshotsDir(), 'web-conference.png'), animations: 'disabled', caret: 'hide' });
    // In a narrow window the panel is one column, and nothing scrolls sideways.
    await page.setViewportSize({ width: 380, height: 800 });
    await expect.poll(() => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });

  it('follows a conference under way: the roles from the events, then the record once the stage ends', async () => {
    const run = writeConferenceRunUnderWay(server.server.runs.location, 'scene-review-live');
    const { page, outside, errors, close } = await openPage(browser, server);
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(new URL(response.url()).pathname);
    });
    await page.goto(`${server.url}/runs/scene-review-live`);
    const panel = page.getByTestId('conference');
    await untilText(panel, 'Under way: critic answered · continuity abstained · editor working…');
    await untilText(page.getByTestId('run-state'), 'running (elsewhere)');
    expect(await panel.getByTestId('role-card').count()).toBe(0);

    run.finish();
    const cards = panel.getByTestId('role-card');
    await expect.poll(() => cards.count(), { timeout: WAIT_MS }).toBe(3);
    expect(await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual(['answered', 'abstained', 'ungrounded']);
    await untilText(page.getByTestId('run-state'), 'completed');
    // Asked before the stage wrote it, the record was a 404 (which Chromium logs): nothing else went wrong.
    expect(new Set(notFound)).toEqual(new Set(['/pipelines/scene-review-live/stages/review/conference']));
    expect(errors.filter((e) => !/Failed to load resource: the server responded with a status of 404/.test(e))).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });
});
