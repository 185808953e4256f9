import { guardNetwork } from '@orchestra/testing/network-guard';
import { afterAll, expect } from 'vitest';

/**
 * No test touches the network: every fetch to a host other than 127.0.0.1
 * (the scripted server) is refused, and the file fails if one was tried.
 */
const guard = guardNetwork();

afterAll(() => {
  guard.restore();
  expect(guard.refused, 'requests to hosts other than 127.0.0.1').toEqual([]);
});
