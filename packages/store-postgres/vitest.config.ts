import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'store-postgres',
    isolate: false,
    include: ['test/**/*.test.ts'],
  },
});
