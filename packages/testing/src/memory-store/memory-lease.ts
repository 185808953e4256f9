import { hostname } from 'node:os';
import { RunLockedError } from '@orchestra/core';
import { processStartTime, type LeaseHolder, type RunLease } from '@orchestra/core/store';

let ownStartTime: string | null | undefined;

/** This process as a lease holder (its start time read once). */
function ownHolder(): LeaseHolder {
  ownStartTime ??= processStartTime(process.pid) ?? null;
  return { pid: process.pid, host: hostname(), start_time: ownStartTime, acquired_at: new Date().toISOString() };
}

interface Held {
  readonly holder: LeaseHolder;
  /** The holder is gone (see {@link LeaseSlot.crash}): the next acquire takes the lease over. */
  stale: boolean;
}

/**
 * The lease of a run kept in memory: one holder at a time, like `run.lock`.
 * A holder presumed dead ({@link LeaseSlot.crash}) stays visible until the
 * lease is taken over, and a released lease that was taken over does not
 * free its successor's hold.
 */
export class LeaseSlot {
  private held: Held | undefined;

  /** Takes the lease; throws `RunLockedError` while a live holder has it. */
  acquire(location: string): RunLease {
    if (this.held && !this.held.stale) throw new RunLockedError(location, { ...this.held.holder });
    const held: Held = { holder: ownHolder(), stale: false };
    this.held = held;
    let released = false;
    return {
      holder: { ...held.holder },
      release: () => {
        if (released) return;
        released = true;
        if (this.held === held) this.held = undefined;
      },
    };
  }

  /** The holder, alive or not. */
  holder(): LeaseHolder | undefined {
    return this.held ? { ...this.held.holder } : undefined;
  }

  /** The holder, if it is alive. */
  liveHolder(): LeaseHolder | undefined {
    return this.held && !this.held.stale ? { ...this.held.holder } : undefined;
  }

  /** Marks the holder dead, as a killed process's lock becomes stale. */
  crash(): void {
    if (this.held) this.held.stale = true;
  }
}
