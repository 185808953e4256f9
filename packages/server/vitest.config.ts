import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    isolate: false,
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/network-guard.ts'],
    // One line when the browser tests are skipped (no Chromium, not under CI): test/browser/availability.ts.
    globalSetup: ['test/setup/browser-notice.ts'],
  },
});
