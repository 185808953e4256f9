import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core/store';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

describe('a full disk', () => {
  it.runIf(existsSync('/dev/full'))('is reported as "no space left on <path>" with exit 2, and the run stays resumable', async () => {
    const runDir = join(tempDir(), 'run');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', runDir)).code).toBe(3);
    expect((await cli('answer', runDir, 'A')).code).toBe(0);
    // Every write to the event log now fails with ENOSPC, as on a full disk.
    const events = join(runDir, 'events.jsonl');
    rmSync(events);
    symlinkSync('/dev/full', events);
    const full = await cli('resume', runDir, '--quiet');
    expect(full.code).toBe(2);
    expect(full.stderr).toContain(`no space left on ${events}`);
    expect(full.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readCheckpoint(runDir).status).not.toBe('completed');
    // Space again: the same resume finishes the run.
    rmSync(events);
    const resumed = await cli('resume', runDir, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readCheckpoint(runDir).status).toBe('completed');
  }, 30_000);
});
