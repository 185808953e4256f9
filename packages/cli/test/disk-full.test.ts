import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core';
import { orchestra, tempDir } from './cli-helpers.js';

describe('a full disk', () => {
  it.runIf(existsSync('/dev/full'))('is reported as "no space left on <path>" with exit 2, and the run stays resumable', () => {
    const runDir = join(tempDir(), 'run');
    expect(orchestra('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', runDir).code).toBe(3);
    expect(orchestra('answer', runDir, 'A').code).toBe(0);
    // Every write to the event log now fails with ENOSPC, as on a full disk.
    const events = join(runDir, 'events.jsonl');
    rmSync(events);
    symlinkSync('/dev/full', events);
    const full = orchestra('resume', runDir, '--quiet');
    expect(full.code).toBe(2);
    expect(full.stderr).toContain(`no space left on ${events}`);
    expect(full.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readCheckpoint(runDir).status).not.toBe('completed');
    // Space again: the same resume finishes the run.
    rmSync(events);
    const resumed = orchestra('resume', runDir, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readCheckpoint(runDir).status).toBe('completed');
  }, 30_000);
});
