// Loaded into a child process with `node --import <this file>` (NODE_OPTIONS) by
// tests that run orchestra against the scripted server: any fetch to a host other
// than 127.0.0.1 is refused, so a test that forgot OPENAI_BASE_URL fails instead of
// calling a real provider.
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1') return Promise.reject(new Error(`test network guard: refused ${url} (tests talk to 127.0.0.1 only)`));
  return realFetch(input, init);
};
