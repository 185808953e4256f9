import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'llm',
    isolate: false,
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/network-guard.ts'],
  },
});
