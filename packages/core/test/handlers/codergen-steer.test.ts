import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CodergenBackend, type Outcome } from '../../src/index.js';
import { createCodergenHandler } from '../../src/handlers.js';
import { dot, run, tempDir, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

/** An LLM backend that records each prompt; `reply(n)` answers call n (1-based). */
function recording(reply: (call: number, stageDir: string) => string | Outcome) {
  const prompts: string[] = [];
  const backend: CodergenBackend = { run: async ({ prompt, stageDir }) => (prompts.push(prompt), reply(prompts.length, stageDir)) };
  return { prompts, backend };
}

describe("an LLM stage's instruction from a supervisor (steer.md)", () => {
  it('is read on a later attempt when it was left in the stage during an earlier one', async () => {
    const { prompts, backend } = recording((call, stageDir) => {
      if (call > 1) return 'ok';
      writeFileSync(join(stageDir, 'steer.md'), 'Be brief.\n'); // left while the first attempt runs
      return { status: 'retry', failureReason: 'try again' };
    });
    const { result } = await run(dot('  write [prompt="Write it", max_retries=1]\n  start -> write -> exit'), {
      logsRoot: join(tempDir(), 'run'),
      handlers: { codergen: createCodergenHandler(backend) },
    });
    expect(result.status).toBe('success');
    expect(prompts).toEqual(['Write it', 'Write it\n\n## Instruction from the supervisor\n\nBe brief.']);
  });
});
