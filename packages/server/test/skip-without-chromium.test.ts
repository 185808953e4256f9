import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM, browserTestMode } from './browser/availability.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const nowhere = () => false;
const everywhere = () => true;

describe('whether the browser tests run', () => {
  it('runs them with a Chromium, at CHROMIUM_PATH or the default path', () => {
    expect(browserTestMode({}, (p) => p === DEFAULT_CHROMIUM)).toEqual({ skip: false, executablePath: DEFAULT_CHROMIUM });
    expect(browserTestMode({ CHROMIUM_PATH: '/opt/chromium' }, (p) => p === '/opt/chromium')).toEqual({ skip: false, executablePath: '/opt/chromium' });
  });

  it('skips them without Chromium outside CI, with one line saying so and how to run them', () => {
    for (const CI of [undefined, '', 'false', '0']) {
      const mode = browserTestMode({ CHROMIUM_PATH: '/nonexistent', CI }, nowhere);
      expect(mode.skip).toBe(true);
      expect(mode.notice).toBe(
        'orchestra: the browser tests (packages/server/test/browser) were skipped: no Chromium at /nonexistent; ' +
          'to run them, install it (apt-get install chromium) or set CHROMIUM_PATH to its executable (under CI=true they are required)',
      );
    }
  });

  it('keeps them required under CI: a missing Chromium fails them (launchBrowser says what is missing)', () => {
    expect(browserTestMode({ CHROMIUM_PATH: '/nonexistent', CI: 'true' }, nowhere)).toEqual({ skip: false, executablePath: '/nonexistent' });
    expect(browserTestMode({ CI: '1' }, nowhere).skip).toBe(false);
  });

  it('skips them with ORCHESTRA_SKIP_BROWSER=1, with or without a browser, under CI too', () => {
    for (const exists of [nowhere, everywhere]) {
      const mode = browserTestMode({ ORCHESTRA_SKIP_BROWSER: '1', CI: 'true' }, exists);
      expect(mode.skip).toBe(true);
      expect(mode.notice).toContain('ORCHESTRA_SKIP_BROWSER=1');
    }
  });

  it('a vitest run without Chromium, outside CI, passes and prints the notice once', () => {
    // The README's test command on a machine without Chromium, narrowed to one browser test file.
    const env: NodeJS.ProcessEnv = { ...process.env, CHROMIUM_PATH: '/nonexistent', NO_COLOR: '1' };
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'CI' || key === 'ORCHESTRA_SKIP_BROWSER' || key === 'FORCE_COLOR') delete env[key];
    const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'server', 'packages/server/test/browser/token.test.ts'], { cwd: ROOT, env, encoding: 'utf8' });
    const output = r.stdout + r.stderr;
    expect(r.status, output).toBe(0);
    expect(output.match(/the browser tests \(packages\/server\/test\/browser\) were skipped: no Chromium at \/nonexistent/g)).toHaveLength(1);
    expect(output).toMatch(/Tests\s+1 skipped/);
  }, 60_000);
});
