import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { loadPipeline, runPipeline, simulationBackend, type CodergenBackend } from '@orchestra/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, SKIP_BROWSER, startTestServer, untilText, type TestServer } from './harness.js';

/** A backend whose every call used 40 tokens in and 10 out, priced as `orchestra.yaml`'s `prices` would make the model backend price them. */
const priced: CodergenBackend = {
  run: async (request) => {
    request.report.response({ model: 'priced-model', durationMs: 1, usage: { inputTokens: 40, outputTokens: 10, totalTokens: 50, cost: { amount: 0.00027, currency: 'USD' } } });
    return simulationBackend.run(request);
  },
};

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

  it("shows the run's tokens and cost when its models have prices, and the API gives them", async () => {
    const source = 'digraph Priced {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  draft [prompt="Draft"]\n  review [prompt="Review"]\n  start -> draft -> review -> exit\n}\n';
    const { graph } = loadPipeline(source);
    await runPipeline(graph!, { source, backend: priced, logsRoot: join(server.server.runs.location, 'priced') });
    const summary = (await (await fetch(`${server.url}/pipelines/priced`)).json()) as { usage: { total_tokens: number; cost: { amount: number; currency: string } } };
    expect(summary.usage.total_tokens).toBe(100);
    expect(summary.usage.cost.currency).toBe('USD');
    expect(summary.usage.cost.amount).toBeCloseTo(0.00054, 12);
    const { page, errors, close } = await openPage(browser, server);
    try {
      await page.goto(`${server.url}/runs/priced`);
      await untilText(page.locator('.run-cost'), '$0.0005');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
