/** The signals that stop a run at a safe point (a closed terminal sends SIGHUP). */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Turns the first SIGINT, SIGTERM or SIGHUP into an abort (the run stops at
 * a safe point and keeps its checkpoint), after calling `onFirst` (to say
 * so); a second one calls `onSecond` (which exits at once with 130).
 * Returns the signal and a function that removes the handlers.
 */
export function abortOnSignals(onSecond: () => void, onFirst: (signal: NodeJS.Signals) => void = () => {}): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      onSecond();
      return;
    }
    onFirst(sig);
    controller.abort(`received ${sig}`);
  };
  for (const sig of STOP_SIGNALS) process.on(sig, handler);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const sig of STOP_SIGNALS) process.off(sig, handler);
    },
  };
}
