import { fileURLToPath } from 'node:url';

/**
 * A module that refuses every `fetch` to a host other than 127.0.0.1. Give it
 * to a child process you test against the scripted server —
 * `NODE_OPTIONS=--import=${NETWORK_GUARD}` — so a misconfigured test fails
 * instead of reaching a real provider.
 */
export const NETWORK_GUARD = fileURLToPath(new URL('../network-guard.mjs', import.meta.url));

/** A guard installed in this process by {@link guardNetwork}. */
export interface NetworkGuard {
  /** URLs something tried to fetch from hosts other than 127.0.0.1 (each refused). */
  readonly refused: readonly string[];
  /** Puts the original `fetch` back. */
  restore(): void;
}

/**
 * Refuses, in this process, every `fetch` to a host other than 127.0.0.1 (the
 * scripted server): the request rejects, and `refused` lists it so a test
 * can assert nothing tried. Call `restore()` when done (e.g. in `afterAll`).
 */
export function guardNetwork(): NetworkGuard {
  const realFetch = globalThis.fetch;
  const refused: string[] = [];
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).hostname !== '127.0.0.1') {
      refused.push(url);
      return Promise.reject(new Error(`test network guard: refused ${url} (tests talk to 127.0.0.1 only)`));
    }
    return realFetch(input, init);
  }) as typeof fetch;
  return {
    refused,
    restore: () => {
      globalThis.fetch = realFetch;
    },
  };
}
