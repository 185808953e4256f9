import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'chat',
    isolate: false,
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/network-guard.ts'],
  },
});
