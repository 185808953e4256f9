import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, getJson } from './api.js';
import { currentToken, onTokenRefused, saveToken, tokenRequired } from './auth.js';
import { NewRun } from './new-run.js';
import { PlanView, servesPlan } from './plan-view.js';
import { Link, PLAN_PAGE, routeOf, usePath } from './router.js';
import { RunList } from './run-list.js';
import { RunPage } from './run-page.js';
import { TokenPrompt } from './token-prompt.js';

interface AuthState {
  needed: boolean;
  reason: string | null;
}

/** The page: a header, then the runs, a run, the new-run form, or the project's plan (or the token form first). */
export function App() {
  const path = usePath();
  const route = routeOf(path);
  const [auth, setAuth] = useState<AuthState>(() => ({ needed: tokenRequired() && !currentToken(), reason: null }));
  const [session, setSession] = useState(0);
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);

  useEffect(
    () =>
      onTokenRefused((message) =>
        setAuth({ needed: true, reason: `The server did not accept the token (${message.replace(/\.$/, '')}). Enter it again.` }),
      ),
    [],
  );

  // After navigating, move focus to the new view's heading (not on the first load).
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = path;
    const heading = main.current?.querySelector<HTMLElement>('h1');
    (heading ?? main.current)?.focus();
    window.scrollTo(0, 0);
  }, [path]);

  const onToken = async (token: string) => {
    saveToken(token);
    try {
      await getJson('/pipelines');
      setAuth({ needed: false, reason: null });
      setSession((s) => s + 1);
    } catch (e) {
      // A 401 has brought the form back with its reason already.
      if (!(e instanceof ApiFailure && e.status === 401)) setAuth({ needed: true, reason: e instanceof Error ? e.message : String(e) });
    }
  };

  let view;
  if (auth.needed) view = <TokenPrompt reason={auth.reason} onToken={onToken} />;
  else if (route.view === 'list') view = <RunList key={`list-${session}`} />;
  else if (route.view === 'new') view = <NewRun key={`new-${session}`} />;
  else if (route.view === 'plan') view = <PlanView key={`plan-${session}`} />;
  else if (route.view === 'run') view = <RunPage key={`run-${route.id}-${session}`} id={route.id} />;
  else
    view = (
      <>
        <h1 tabIndex={-1}>Not found</h1>
        <p>
          There is no page at <code>{route.path}</code>. See the <Link href="/">runs</Link>.
        </p>
      </>
    );

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/" class="brand">
          orchestra
        </Link>
        {!auth.needed && (
          <nav aria-label="Main">
            <Link href="/">Runs</Link>
            <Link href="/new">New run</Link>
            {(servesPlan() || route.view === 'plan') && <Link href={PLAN_PAGE}>Plan</Link>}
          </nav>
        )}
      </header>
      <main id="main" ref={main} tabIndex={-1} class={route.view === 'run' ? 'wide' : ''}>
        {view}
      </main>
    </>
  );
}
