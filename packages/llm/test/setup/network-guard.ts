import { afterAll, expect } from 'vitest';

/**
 * No test touches the network: every fetch to a host other than 127.0.0.1
 * (the scripted server) is refused, and the file fails if one was tried.
 */
const realFetch = globalThis.fetch;
const refused: string[] = [];

globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (new URL(url).hostname !== '127.0.0.1') {
    refused.push(url);
    return Promise.reject(new Error(`test network guard: refused ${url}`));
  }
  return realFetch(input, init);
}) as typeof fetch;

afterAll(() => {
  expect(refused, 'requests to hosts other than 127.0.0.1').toEqual([]);
});
