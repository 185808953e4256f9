import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadPipeline, runPipeline, simulationBackend, type CodergenBackend, type TokenUsage } from '@orchestra/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, SKIP_BROWSER, startTestServer, untilNodeState, untilText, type TestServer } from './harness.js';

/** A backend whose one call per node used the tokens `usages` gives that node, priced as `orchestra.yaml`'s `prices` would make the model backend price them (no `cost`: the model has no price). */
function backendUsing(usages: Record<string, TokenUsage>): CodergenBackend {
  return {
    run: async (request) => {
      const usage = usages[request.node.id];
      if (usage) request.report.response({ model: 'some-model', durationMs: 1, usage });
      return simulationBackend.run(request);
    },
  };
}

const DRAFT: TokenUsage = { inputTokens: 1200, outputTokens: 300, totalTokens: 1500, cost: { amount: 0.0081, currency: 'USD' } };
const REVIEW: TokenUsage = { inputTokens: 900, outputTokens: 150, totalTokens: 1050, cost: { amount: 0.005, currency: 'USD' } };
const { cost: _unpriced, ...REVIEW_UNPRICED } = REVIEW;

const SOURCE = 'digraph Priced {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  draft [prompt="Draft"]\n  review [prompt="Review"]\n  start -> draft -> review -> exit\n}\n';

/** The text of the event log's line for the event `type` whose text starts with `start`. */
async function logLine(page: Page, type: string, start: string): Promise<string> {
  const line = page.getByTestId('event-log').locator('li').filter({ has: page.locator('.ev-type', { hasText: new RegExp(`^${type.replace('.', '\\.')}$`) }) }).locator('.ev-text', { hasText: start });
  await line.first().waitFor();
  expect(await line.count()).toBe(1);
  return (await line.textContent()) ?? '';
}

describe.skipIf(SKIP_BROWSER)('the run page in Chromium: what a run cost', { timeout: 30_000 }, () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startTestServer()]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Runs the pipeline into the server's runs directory as run `id`. */
  async function run(id: string, usages: Record<string, TokenUsage>): Promise<void> {
    const { graph } = loadPipeline(SOURCE);
    await runPipeline(graph!, { source: SOURCE, backend: backendUsing(usages), logsRoot: join(server.server.runs.location, id) });
  }

  it("shows the run's tokens and cost, and each stage's, when its models have prices, and the API gives them", async () => {
    await run('priced', { draft: DRAFT, review: REVIEW });
    const summary = (await (await fetch(`${server.url}/pipelines/priced`)).json()) as { usage: { total_tokens: number; cost: { amount: number; currency: string } } };
    expect(summary.usage.total_tokens).toBe(2550);
    expect(summary.usage.cost.currency).toBe('USD');
    expect(summary.usage.cost.amount).toBeCloseTo(0.0131, 12);
    const { page, errors, close } = await openPage(browser, server);
    try {
      await page.goto(`${server.url}/runs/priced`);
      await untilText(page.locator('.run-cost'), '$0.0131');
      await untilText(page.locator('.run-facts'), 'Tokens2,550');
      await untilText(page.getByTestId('event-log'), 'pipeline.completed');
      expect(await logLine(page, 'stage.completed', 'draft:')).toMatch(/^draft: success in \d+ ms, 1,500 tokens, \$0\.0081$/);
      expect(await logLine(page, 'stage.completed', 'review:')).toMatch(/^review: success in \d+ ms, 1,050 tokens, \$0\.0050$/);
      expect(await logLine(page, 'pipeline.completed', 'completed:')).toMatch(/, 2,550 tokens, \$0\.0131$/);
      // A stage that called no model says nothing of tokens or money.
      expect(await logLine(page, 'stage.completed', 'start:')).toMatch(/^start: success in \d+ ms$/);
      await untilNodeState(page, 'review', 'completed');
      await screenshot(page, 'run-cost.png');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows no cost, not $0, for a stage whose model has no price, nor for the run', async () => {
    await run('unpriced', { draft: DRAFT, review: REVIEW_UNPRICED });
    const summary = (await (await fetch(`${server.url}/pipelines/unpriced`)).json()) as { usage: { total_tokens: number; cost: unknown } };
    expect(summary.usage).toMatchObject({ total_tokens: 2550, cost: null });
    const { page, errors, close } = await openPage(browser, server);
    try {
      await page.goto(`${server.url}/runs/unpriced`);
      await untilText(page.getByTestId('event-log'), 'pipeline.completed');
      expect(await logLine(page, 'stage.completed', 'draft:')).toMatch(/^draft: success in \d+ ms, 1,500 tokens, \$0\.0081$/);
      expect(await logLine(page, 'stage.completed', 'review:')).toMatch(/^review: success in \d+ ms, 1,050 tokens$/);
      expect(await logLine(page, 'pipeline.completed', 'completed:')).toMatch(/ms, 2,550 tokens$/);
      await untilText(page.locator('.run-facts'), 'Tokens2,550');
      expect(await page.locator('.run-cost').count()).toBe(0);
      expect(await page.locator('.run-facts').textContent()).not.toMatch(/Cost|\$/);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
