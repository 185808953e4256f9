import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Client-side routing over history.pushState: `/`, `/new`, `/runs/<id>`, `/session-plan`. */

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  listeners.forEach((l) => l());
}

/** The current path; re-renders on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return path;
}

export type Route = { view: 'list' } | { view: 'new' } | { view: 'plan' } | { view: 'run'; id: string } | { view: 'missing'; path: string };

/** The page of the project's session plan (the API's is `/plan`). */
export const PLAN_PAGE = '/session-plan';

export function routeOf(path: string): Route {
  if (path === '/' || path === '') return { view: 'list' };
  if (path === '/new' || path === '/new/') return { view: 'new' };
  if (path === PLAN_PAGE || path === `${PLAN_PAGE}/`) return { view: 'plan' };
  const run = /^\/runs\/([^/]+)\/?$/.exec(path);
  if (run?.[1]) {
    try {
      return { view: 'run', id: decodeURIComponent(run[1]) };
    } catch {
      return { view: 'missing', path };
    }
  }
  return { view: 'missing', path };
}

export function runUrl(id: string): string {
  return `/runs/${encodeURIComponent(id)}`;
}

type LinkProps = { href: string; class?: string; children?: ComponentChildren };

/** A real link (open in a new tab works) that navigates in place on a plain click. */
export function Link({ href, children, class: className }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (href !== location.pathname) navigate(href);
  };
  return (
    <a href={href} onClick={onClick} class={className} aria-current={location.pathname === href ? 'page' : undefined}>
      {children}
    </a>
  );
}
