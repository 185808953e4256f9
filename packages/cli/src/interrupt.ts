/**
 * Turns the first SIGINT/SIGTERM into an abort (the run stops at a safe
 * point and keeps its checkpoint); a second one exits at once with 130.
 * Returns the signal and a function that removes the handlers.
 */
export function abortOnSignals(onSecond: () => void): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) onSecond();
    else controller.abort(`received ${sig}`);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
