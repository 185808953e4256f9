import { fileURLToPath } from 'node:url';

/**
 * A module that refuses every `fetch` to a host other than 127.0.0.1. Give it
 * to a child process you test against the scripted server —
 * `NODE_OPTIONS=--import=${NETWORK_GUARD}` — so a misconfigured test fails
 * instead of reaching a real provider.
 */
export const NETWORK_GUARD = fileURLToPath(new URL('../network-guard.mjs', import.meta.url));
