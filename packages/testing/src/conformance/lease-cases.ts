import { RunLockedError, type RunStore } from '@orchestra/core';
import { expect, it } from 'vitest';
import type { RunStoreFactory } from './fixture.js';
import { sampleManifest, sampleProcess } from './sample-records.js';
import { thrownBy, withFixture } from './with-fixture.js';

/** Cases for process records, the lease and successors. */
export function leaseCases<S extends RunStore>(factory: RunStoreFactory<S>): void {
  it('records, lists and forgets process groups', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.listProcesses()).toEqual([]);
      await store.recordProcess(sampleProcess(101));
      await store.recordProcess(sampleProcess(102));
      expect(await store.listProcesses()).toEqual([sampleProcess(101), sampleProcess(102)]);
      const again = { ...sampleProcess(101), command: 'sleep again' };
      await store.recordProcess(again);
      expect(await store.listProcesses()).toEqual([sampleProcess(102), again]);
      (await store.listProcesses()).pop();
      await store.forgetProcess(102);
      await store.forgetProcess(999); // never recorded: nothing happens
      expect(await store.listProcesses()).toEqual([again]);
      await store.forgetProcess(101);
      expect(await store.listProcesses()).toEqual([]);
    }));

  it('lets one holder have the lease at a time; the holder is readable without it', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.leaseHolder()).toBeUndefined();
      const lease = await store.acquire();
      expect(lease.holder.pid).toBe(process.pid);
      expect(await store.leaseHolder()).toEqual(lease.holder);
      const refused = await thrownBy(() => store.acquire());
      expect(refused).toBeInstanceOf(RunLockedError);
      expect((refused as RunLockedError).holder.pid).toBe(process.pid);
      expect((refused as RunLockedError).message).toContain(`process ${process.pid}`);
      await lease.release();
      await lease.release(); // idempotent
      expect(await store.leaseHolder()).toBeUndefined();
      const next = await store.acquire();
      expect(await store.leaseHolder()).toEqual(next.holder);
      await next.release();
      expect(await store.leaseHolder()).toBeUndefined();
    }));

  it("takes over the lease of a holder that died; the dead holder's release does not free it", () =>
    withFixture(factory, async (fixture) => {
      const { store } = fixture;
      await store.create(sampleManifest(store.runId), undefined);
      const dead = await store.acquire();
      await store.appendJournal({ seq: 1, node: 'a', status: 'success', retries: 0, context: {}, next: 'b' });
      await fixture.crash(store);
      expect(await store.leaseHolder()).toBeDefined(); // a stale lease is still there to see
      const lease = await store.acquire();
      expect(await store.leaseHolder()).toEqual(lease.holder);
      await dead.release();
      expect(await store.leaseHolder()).toEqual(lease.holder);
      expect(await thrownBy(() => store.acquire())).toBeInstanceOf(RunLockedError);
      expect((await store.readJournal()).entries.map((e) => e.node)).toEqual(['a']); // the crash lost nothing stored
      await lease.release();
      expect(await store.leaseHolder()).toBeUndefined();
    }));

  it("names a successor at another, stable location that is not created yet", () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      const successor = store.successor();
      expect(successor.location).not.toBe(store.location);
      expect(successor.runId).not.toBe(store.runId);
      expect(store.successor().location).toBe(successor.location);
      expect(await successor.exists()).toBe(false);
      const third = successor.successor();
      expect([store.location, successor.location]).not.toContain(third.location);
      await successor.create(sampleManifest(successor.runId), undefined);
      expect(await store.successor().exists()).toBe(true);
      expect((await store.readManifest()).run_id).toBe(store.runId);
    }));
}
