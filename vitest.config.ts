import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.js';

export default defineConfig({
  test: {
    projects,
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where the
    // suite mostly waits (child processes, a browser, servers on 127.0.0.1). One per core halves it.
    maxWorkers: Math.max(2, availableParallelism()),
    // Each package's project sets isolate: false: a worker runs file after file in one module
    // graph instead of loading LangChain, zod and the engine again for each file (the suite's
    // import time fell from about 120 s to 40 s). So a test file must leave no global state
    // behind: no vi.mock, restore what it patches (the network guard does), no process.chdir.
  },
});
