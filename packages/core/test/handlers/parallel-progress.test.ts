import { describe, expect, it } from 'vitest';
import { ProgressSaver, SAVE_COST_FACTOR } from '../../src/handlers/parallel-progress.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ProgressSaver (batched progress saves of the parallel handler)', () => {
  it('saves the first change at once, and changes that come while a save runs in one save after it', async () => {
    const finishers: (() => void)[] = [];
    let saves = 0;
    const saver = new ProgressSaver(() => {
      saves += 1;
      return new Promise<void>((resolve) => finishers.push(resolve));
    });
    saver.changed();
    expect(saves).toBe(1);
    for (let i = 0; i < 100; i++) saver.changed();
    expect(saves).toBe(1); // one save at a time
    const flushed = saver.flush();
    finishers.shift()?.();
    await tick();
    expect(saves).toBe(2); // the 100 changes in one save
    finishers.shift()?.();
    expect(await flushed).toEqual({ ok: true });
    expect(saves).toBe(2);
  });

  it('waits after a slow save in proportion to its cost, and flush saves what the wait held back', async () => {
    let saves = 0;
    const saver = new ProgressSaver(async () => {
      saves += 1;
      const until = performance.now() + 5; // a 5 ms save: the next may start 5 * SAVE_COST_FACTOR ms later
      while (performance.now() < until);
    });
    saver.changed();
    await tick();
    expect(saves).toBe(1);
    for (let i = 0; i < 10; i++) saver.changed();
    await tick();
    expect(saves).toBe(1);
    expect(SAVE_COST_FACTOR).toBeGreaterThan(1);
    expect(await saver.flush()).toEqual({ ok: true });
    expect(saves).toBe(2);
    expect(await saver.flush()).toEqual({ ok: true }); // nothing left: no save
    expect(saves).toBe(2);
  });

  it('a deferred save runs without a flush', async () => {
    let saves = 0;
    const saver = new ProgressSaver(async () => {
      saves += 1;
      const until = performance.now() + 1;
      while (performance.now() < until);
    });
    saver.changed();
    await tick();
    saver.changed();
    // The deferred save comes on its own, with no flush. Its wait is a multiple of how long the first save took,
    // which on a loaded machine is far more than its 1 ms of work: wait for it, within a generous bound.
    for (let waited = 0; saves < 2 && waited < 10_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(saves).toBe(2);
    expect(await saver.flush()).toEqual({ ok: true });
    expect(saves).toBe(2);
  });

  it('reports the first failed save from flush and stops saving', async () => {
    let saves = 0;
    const saver = new ProgressSaver(() => {
      saves += 1;
      throw new Error('disk full');
    });
    saver.changed();
    await tick();
    saver.changed();
    const flushed = await saver.flush();
    expect(flushed.ok).toBe(false);
    expect(!flushed.ok && (flushed.error as Error).message).toBe('disk full');
    expect(saves).toBe(1);
  });
});
