import { useEffect, useMemo, useRef } from 'preact/hooks';

/**
 * A loader that many events may ask for at once: calls within `delayMs`
 * become one call, and a call asked for while one runs runs once more after
 * it (so the last state is always fetched, and never two at a time).
 */
export function useRefresher(load: () => Promise<void>, delayMs = 40): () => void {
  const latest = useRef(load);
  latest.current = load;
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  return useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running = false;
    let again = false;
    const run = async (): Promise<void> => {
      timer = undefined;
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        if (alive.current) await latest.current();
      } finally {
        running = false;
        if (again && alive.current) {
          again = false;
          trigger();
        }
      }
    };
    const trigger = (): void => {
      if (timer === undefined) timer = setTimeout(() => void run(), delayMs);
    };
    return trigger;
  }, [delayMs]);
}
