import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOrchestraError, type RunEvent } from '@orchestra/core';
import { replayCassette } from '@orchestra/llm';
import { describe, expect, it } from 'vitest';

// The pipeline, and a cassette of one real run of it, recorded in that directory with
//   orchestra run release.dot --model gpt-5-mini --record release.cassette
// and committed. Record it again the same way after changing the pipeline.
const pipeline = fileURLToPath(new URL('release/release.dot', import.meta.url));
const cassette = fileURLToPath(new URL('release/release.cassette', import.meta.url));

describe('release pipeline, against its recorded run', () => {
  it('drafts, reviews and publishes as the recorded run did', async () => {
    const events: RunEvent[] = [];
    const result = await replayCassette({
      pipeline,
      cassette,
      env: {}, // the developer's variables stay out; no key is needed
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe('success');
    expect(result.warnings).toEqual([]);
    expect(result.completedNodes).toEqual(['start', 'draft', 'stamp', 'review', 'gate', 'exit']);
    // The tool node did not run: its recorded output came back (the time of the recording).
    expect(result.context['tool.output']).toBe('2026-11-27T05:36:23Z');
    // The reply streamed again, chunk by chunk, and counted its recorded tokens.
    expect(events.filter((e) => e.type === 'llm.delta' && e.nodeId === 'draft').length).toBeGreaterThan(1);
    expect(readFileSync(join(result.logsRoot, 'draft', 'response.md'), 'utf8')).toBe('Version 2.0 is out: commands start twice as fast.');
    expect(result.usage?.totalTokens).toBe(166);
    // The human's recorded answer routed the gate.
    expect(result.context['human.gate.selected']).toBe('P');
  });

  it('stops at the first request the recording does not hold, saying what differs', async () => {
    // Another input: the first stage's preamble lists it, so its request differs from the recorded one.
    const failure = await replayCassette({ pipeline, cassette, env: {}, context: { audience: 'admins' } }).catch((error: unknown) => error);
    expect(isOrchestraError(failure, 'ORCH_CASSETTE_MISMATCH')).toBe(true);
    expect((failure as Error).message).toMatch(/^stage draft, model request 1: messages\[0\]\.content differs: cassette .*, now .*audience = admins.*release\.cassette:2\)$/);
  });

  it('lenient: goes on with the recorded replies and warns about each difference', async () => {
    const result = await replayCassette({ pipeline, cassette, env: {}, context: { audience: 'admins' }, mode: 'lenient' });
    expect(result.status).toBe('success');
    expect(result.warnings.map((warning) => warning.split(':')[0])).toEqual(['stage draft, model request 1', 'stage review, model request 1']);
  });
});
