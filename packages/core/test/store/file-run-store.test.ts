import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance, sampleManifest } from '@orchestra/testing/conformance';
import { describe, expect, it } from 'vitest';
import { FileRunStore, RunLockedError } from '../../src/index.js';
import { RUN_FILES, isProcessAlive } from '../../src/store.js';

/** The PID of a process that has exited. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid as number;
  expect(isProcessAlive(pid, null)).toBe(false);
  return pid;
}

/** A writer killed mid-append: whatever it had open is gone, `partial` is at the end of the file. */
function tearFile(store: FileRunStore, name: string, partial: string): void {
  store.close();
  appendFileSync(join(store.location, name), partial);
}

function fileFixture() {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-conformance-'));
  return {
    store: new FileRunStore(join(dir, 'run')),
    tear: (store: FileRunStore, partial: string) => tearFile(store, RUN_FILES.journal, partial),
    tearEvents: (store: FileRunStore, partial: string) => tearFile(store, RUN_FILES.events, partial),
    crash: (store: FileRunStore) => {
      // The lock file now names a process that has exited, as a killed owner leaves it.
      const holder = { pid: deadPid(), host: hostname(), start_time: null, acquired_at: new Date().toISOString() };
      writeFileSync(join(store.location, RUN_FILES.lock), `${JSON.stringify(holder)}\n`);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

runStoreConformance('FileRunStore', fileFixture);

describe('FileRunStore lease across handles', () => {
  it('refuses a second handle on the same directory while this process holds the run, and lets it in after', async () => {
    const { store, cleanup } = fileFixture();
    try {
      store.create(sampleManifest(store.runId), undefined);
      const lease = store.acquire();
      const other = new FileRunStore(store.location);
      expect(other.leaseHolder()).toEqual(lease.holder);
      let refused: unknown;
      try {
        other.acquire();
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(RunLockedError);
      expect((refused as RunLockedError).holder).toEqual(lease.holder);
      lease.release();
      const taken = other.acquire();
      expect(store.leaseHolder()).toEqual(taken.holder);
      taken.release();
    } finally {
      cleanup();
    }
  });

  it('takes over from a dead holder at once, also when a process killed in the middle of a takeover left its marker', async () => {
    const { store, cleanup } = fileFixture();
    try {
      store.create(sampleManifest(store.runId), undefined);
      const dead = { pid: deadPid(), host: hostname(), start_time: null, acquired_at: new Date().toISOString() };
      writeFileSync(join(store.location, RUN_FILES.lock), `${JSON.stringify(dead)}\n`);
      // The marker of a takeover whose process died right after writing it (a fresh one: no waiting for it to age).
      writeFileSync(join(store.location, `${RUN_FILES.lock}.takeover`), `${JSON.stringify({ pid: dead.pid, host: dead.host, start_time: null })}\n`);
      const lease = store.acquire();
      expect(lease.holder.pid).toBe(process.pid);
      expect(existsSync(join(store.location, `${RUN_FILES.lock}.takeover`))).toBe(false);
      lease.release();
    } finally {
      cleanup();
    }
  });
});
