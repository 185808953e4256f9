import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, getJson } from './api.js';
import { useRefresher } from './refresh.js';
import type { PlanJson } from './types.js';

/** How often the plan is read again: often while it runs here, seldom otherwise. */
const ACTIVE_MS = 1000;
const IDLE_MS = 4000;

/** What `GET /plan` said: a plan, none yet, a refusal (no --allow-tools, a damaged file), or not yet. */
export type PlanLoad = { status: 'loading' } | { status: 'none' } | { status: 'refused'; message: string } | { status: 'plan'; plan: PlanJson };

/** Whether a failed `GET /plan` means "this server has a project but no plan yet" (the error names the plan file). */
export function isNoPlan(error: unknown): boolean {
  return error instanceof ApiFailure && error.status === 404 && typeof error.details.plan_file === 'string';
}

/**
 * The project's plan, read now and again (every second while it runs here,
 * every few seconds otherwise); `refresh` reads it at once, `show` takes a
 * plan an action answered with.
 */
export function usePlan(): { load: PlanLoad; error: string | null; refresh: () => void; show: (plan: PlanJson) => void } {
  const [load, setLoad] = useState<PlanLoad>({ status: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);

  const read = useCallback(async () => {
    clearTimeout(timer.current);
    let active = false;
    try {
      const plan = await getJson<PlanJson>('/plan');
      if (!alive.current) return;
      active = plan.active;
      setLoad({ status: 'plan', plan });
      setError(null);
    } catch (e) {
      if (!alive.current) return;
      if (isNoPlan(e)) setLoad({ status: 'none' });
      else if (e instanceof ApiFailure && e.status !== 0 && e.status !== 401) setLoad({ status: 'refused', message: e.message });
      else setError(e instanceof Error ? e.message : String(e));
      if (e instanceof ApiFailure && e.status === 401) return;
    }
    timer.current = setTimeout(() => refresh(), active ? ACTIVE_MS : IDLE_MS);
  }, []);
  const refresh = useRefresher(read);

  useEffect(() => {
    alive.current = true;
    refresh();
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const show = useCallback((plan: PlanJson) => {
    setLoad({ status: 'plan', plan });
    setError(null);
    refresh();
  }, []);
  return { load, error, refresh, show };
}
