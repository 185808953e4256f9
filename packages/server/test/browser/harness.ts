/**
 * What the browser tests share: Chromium (playwright-core, the system's
 * browser), a server started in-process on a port of 127.0.0.1 with the built
 * page, pages that cannot reach anything but that server, and screenshots.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../src/index.js';
import { browserTestMode } from './availability.js';

/** What the browser tests do here: run, or skip (`ORCHESTRA_SKIP_BROWSER=1`, or no Chromium outside CI). See availability.ts. */
const MODE = browserTestMode(process.env);

/** Skip these tests: `ORCHESTRA_SKIP_BROWSER=1`, or no Chromium on a machine that is not CI (under `CI` a missing browser fails them). */
export const SKIP_BROWSER = MODE.skip;

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '../../../..');
export const WEB_DIST = resolve(here, '../../web-dist');

/** Seconds a test waits for what the page should show. */
export const WAIT_MS = 15_000;

export function fixturePath(name: string): string {
  return join(REPO_ROOT, 'fixtures', name);
}

export function fixture(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

/** Chromium, headless; fails with what to do when it or the built page is missing. */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath } = MODE;
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium and found none at ${executablePath}. Install it (e.g. apt-get install chromium), ` +
        'set CHROMIUM_PATH to its executable, or set ORCHESTRA_SKIP_BROWSER=1 to skip the browser tests.',
    );
  }
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(`The web page is not built (no ${join(WEB_DIST, 'index.html')}): run \`node scripts/build.mjs\` first.`);
  }
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface TestServer {
  server: RunningServer;
  url: string;
  close(): Promise<void>;
  /** Starts a run through the API (bearer token when the server has one). */
  startRun(body: Record<string, unknown>): Promise<{ id: string }>;
}

/** A server on 127.0.0.1 (a free port) over a fresh runs directory, serving the built page. */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const runsDir = mkdtempSync(join(tmpdir(), 'orchestra-browser-'));
  const server = await startServer({ runsDir, port: 0, webDir: WEB_DIST, checkpointIntervalMs: 0, ...options });
  return {
    server,
    url: server.url,
    async close() {
      await server.close();
      rmSync(runsDir, { recursive: true, force: true });
    },
    async startRun(body) {
      const response = await fetch(`${server.url}/pipelines`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { id: string };
      if (response.status !== 201) throw new Error(`POST /pipelines: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
  };
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Requests the page tried to make anywhere but the test server (refused). */
  outside: string[];
  /** Uncaught errors in the page, and errors it logged (a refused request, a CSP violation). */
  errors: string[];
  close(): Promise<void>;
}

/** A fresh browser context and page that may talk to `server` only. */
export async function openPage(browser: Browser, server: TestServer, viewport = { width: 1280, height: 900 }): Promise<TestPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, reducedMotion: 'reduce', locale: 'en-GB', timezoneId: 'UTC' });
  const origin = new URL(server.url).origin;
  const outside: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return { context, page, outside, errors, close: () => context.close() };
}

/** Waits until the locator's text contains `text` (or matches it). */
export async function untilText(locator: Locator, text: string | RegExp): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? ((await locator.first().textContent()) ?? '') : ''), { timeout: WAIT_MS, interval: 50 })
    .toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);
}

/** Waits until an SVG node of the pipeline picture is in `state` (its class `state-<state>`). */
export async function untilNodeState(page: Page, nodeId: string, state: 'pending' | 'current' | 'completed' | 'failed'): Promise<void> {
  const node = page.getByTestId('pipeline-picture').locator(`g.node[id="node-${nodeId}"]`);
  await expect.poll(async () => ((await node.count()) > 0 ? await node.getAttribute('class') : null), { timeout: WAIT_MS, interval: 50 }).toContain(`state-${state}`);
}

/** The run id in the page's URL (`/runs/<id>`). */
export function runIdOf(page: Page): string {
  const match = /\/runs\/([^/?#]+)/.exec(page.url());
  if (!match?.[1]) throw new Error(`not a run page: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/**
 * Where screenshots go: docs/images/ with ORCHESTRA_SCREENSHOTS=1 (to
 * refresh the documentation's pictures), else a temporary directory.
 */
let shotsDir: string | undefined;
export function screenshotsDir(): string {
  if (!shotsDir) {
    shotsDir = process.env.ORCHESTRA_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'images') : mkdtempSync(join(tmpdir(), 'orchestra-screenshots-'));
    mkdirSync(shotsDir, { recursive: true });
  }
  return shotsDir;
}

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const path = join(screenshotsDir(), name);
  await page.screenshot({ path, fullPage: options.fullPage ?? true, animations: 'disabled', caret: 'hide' });
  return path;
}
