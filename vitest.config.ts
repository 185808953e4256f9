import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.js';

export default defineConfig({
  test: {
    projects,
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where the
    // suite mostly waits (child processes, a browser, servers on 127.0.0.1). One per core halves it.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
