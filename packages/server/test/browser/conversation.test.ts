import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodergenBackend, ConversationalBackend } from '@orchestra/core';
import { fixture, launchBrowser, openPage, screenshot, SKIP_BROWSER, startTestServer, untilNodeState, untilText, type TestServer } from './harness.js';

/** A promise the test settles, or the run's signal rejects (a cancel, the server closing). */
function gate(): { open: () => void; wait: (signal: AbortSignal) => Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const wait = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      void opened.then(resolve);
    });
  return { open, wait };
}

/**
 * A conversation whose first reply streams in pieces when the test says so
 * (`llm.delta` is not replayed to a page that connects later), the last piece
 * held back until the test lets it go.
 */
function streamingBackend() {
  const begin = gate();
  const finish = gate();
  const backend: CodergenBackend & ConversationalBackend = {
    run: async ({ node }) => `done: ${node.id}`,
    startConversation: ({ report }) => {
      let replies = 0;
      return {
        async send(_message, { signal }) {
          replies += 1;
          if (replies > 1) return `Reply ${replies}`;
          await begin.wait(signal);
          report.delta('Here is a plan: ');
          report.delta('<b>bold?</b> ');
          await finish.wait(signal);
          report.delta('one shed.');
          return 'Here is a plan: <b>bold?</b> one shed.';
        },
      };
    },
  };
  return { backend, begin: begin.open, finish: finish.open };
}

/** A phased-like conversation: one reply, then on /done its finish streams a summary (phase summarize) held until the test lets it go. */
function summarizingBackend() {
  const finish = gate();
  const backend: CodergenBackend & ConversationalBackend = {
    run: async ({ node }) => `done: ${node.id}`,
    startConversation: ({ report }) => ({
      async send() {
        return 'What should the shed hold?';
      },
      async finish({ signal }) {
        report.delta('Brief: a shed ', 'summarize');
        report.delta('for two bikes.', 'summarize');
        await finish.wait(signal);
        return { status: 'success' as const, notes: 'summarized' };
      },
    }),
  };
  return { backend, finish: finish.open };
}

const CHAT = `digraph Chat {
  start [shape=Mdiamond]
  exit  [shape=Msquare]
  talk  [label="Talk", agent.mode="interactive", prompt="Plan a shed with the human"]
  start -> talk -> exit
}
`;

describe.skipIf(SKIP_BROWSER)('the run page in Chromium: conversations with an interactive node', { timeout: 30_000 }, () => {
  let browser: Browser;
  let server: TestServer;
  const streaming = streamingBackend();

  const summarizing = summarizingBackend();
  let backend: CodergenBackend & ConversationalBackend = streaming.backend;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startTestServer({ backendFor: async () => backend })]);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('holds a two-turn conversation, then /done finishes the run', async () => {
    const { id } = await server.startRun({ source: fixture('interactive.dot'), file: 'interactive.dot', simulate: true });
    const { page, outside, errors, close } = await openPage(browser, server);
    const url = `${server.url}/runs/${encodeURIComponent(id)}`;
    await page.goto(url);

    const chat = page.getByTestId('conversation');
    await chat.getByRole('heading', { name: 'Conversation with the agent' }).waitFor();
    await untilText(chat, 'Reply 1 for stage: refine');
    await untilNodeState(page, 'refine', 'current');
    const box = page.getByLabel('Your message to the agent');
    await box.fill('Make it smaller, and add a window');
    await box.press('Enter');
    await untilText(chat, 'Reply 2 for stage: refine (to: "Make it smaller, and add a window")');
    expect(await box.inputValue()).toBe('');
    const said = await chat.locator('.msg-human').allTextContents();
    expect(said.join('\n')).toContain('Make it smaller, and add a window');
    await screenshot(page, 'run-chat.png');

    // The same moment in a narrow window (a phone): one column.
    const narrow = await openPage(browser, server, { width: 400, height: 860 });
    await narrow.page.goto(url);
    await untilText(narrow.page.getByTestId('conversation'), 'Reply 2 for stage: refine');
    await narrow.page.getByTestId('pipeline-picture').locator('svg').waitFor();
    const width = await narrow.page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(400);
    await screenshot(narrow.page, 'run-narrow.png', { fullPage: false });
    expect(narrow.errors).toEqual([]);
    expect(narrow.outside).toEqual([]);
    await narrow.close();

    await chat.getByRole('button', { name: '/done' }).click();
    await untilText(page.getByTestId('run-state'), 'completed');
    await untilNodeState(page, 'publish', 'completed');
    await untilText(page.getByTestId('event-log'), 'refine: /done after 1 turns');
    expect(await page.getByTestId('conversation').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });

  it('a phased node’s summary streams under its own label, not as the agent’s next reply', async () => {
    backend = summarizing.backend;
    try {
      const { id } = await server.startRun({ source: CHAT, file: 'chat.dot' });
      const { page, outside, errors, close } = await openPage(browser, server);
      await page.goto(`${server.url}/runs/${encodeURIComponent(id)}`);
      const chat = page.getByTestId('conversation');
      await untilText(chat, 'What should the shed hold?');
      await chat.getByRole('button', { name: '/done' }).click();
      const streamed = chat.locator('.msg-streaming');
      await untilText(streamed, 'Brief: a shed for two bikes.');
      expect(await streamed.locator('.msg-who').textContent()).toBe('Agent · summary');
      summarizing.finish();
      await untilText(page.getByTestId('run-state'), 'completed');
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      await close();
    } finally {
      backend = streaming.backend;
    }
  });

  it('shows the agent’s reply as it streams in, as text', async () => {
    const { id } = await server.startRun({ source: CHAT, file: 'chat.dot' });
    const { page, outside, errors, close } = await openPage(browser, server);
    await page.goto(`${server.url}/runs/${encodeURIComponent(id)}`);

    await untilText(page.locator('.stream-status'), 'Live');
    await untilNodeState(page, 'talk', 'current');
    streaming.begin();
    const chat = page.getByTestId('conversation');
    const streamed = chat.locator('.msg-streaming');
    await untilText(streamed, 'Here is a plan: <b>bold?</b>');
    expect(await chat.locator('b').count()).toBe(0); // text, never markup
    await untilText(chat.getByRole('status'), 'The agent is writing');
    expect(await chat.getByRole('button', { name: '/done' }).isDisabled()).toBe(true);

    streaming.finish();
    await untilText(chat, 'Here is a plan: <b>bold?</b> one shed.');
    await expect.poll(() => streamed.count()).toBe(0);
    await chat.getByRole('button', { name: '/approve' }).click();
    await untilText(page.getByTestId('run-state'), 'completed');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  });
});
