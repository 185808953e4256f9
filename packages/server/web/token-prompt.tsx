import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Asks for the server's token (once per browser tab): the one `orchestra
 * serve` was started with. `reason` says why it is asked again.
 */
export function TokenPrompt({ reason, onToken }: { reason: string | null; onToken: (token: string) => Promise<void> }) {
  const [token, setToken] = useState('');
  const [checking, setChecking] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    document.title = 'Token · orchestra';
    field.current?.focus();
  }, [reason]);
  return (
    <section class="token-prompt panel" aria-labelledby="token-heading">
      <h1 id="token-heading" tabIndex={-1}>
        This server needs a token
      </h1>
      <p>
        Enter the token <code>orchestra serve</code> was started with (<code>--token</code> or <code>$ORCHESTRA_TOKEN</code>). The page keeps it for this tab only.
      </p>
      {reason && (
        <p role="alert" class="error">
          {reason}
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!token.trim()) return;
          setChecking(true);
          void onToken(token.trim()).finally(() => setChecking(false));
        }}
      >
        <label for="token">Token</label>
        <input id="token" ref={field} type="password" autoComplete="current-password" value={token} onInput={(e) => setToken((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit" class="primary" disabled={checking || !token.trim()}>
          {checking ? 'Checking…' : 'Continue'}
        </button>
      </form>
    </section>
  );
}
