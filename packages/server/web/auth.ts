/**
 * The server's token, when it needs one (`<meta name="orchestra-auth" content="token">`):
 * asked once, kept for the browser tab in sessionStorage and in the
 * SameSite=Strict cookie `orchestra_token` (the event stream and GET requests
 * use the cookie; every fetch also sends `Authorization: Bearer`).
 */

const STORAGE_KEY = 'orchestra_token';
const COOKIE = 'orchestra_token';

/** Whether the server asks for a token (its page says so in a meta tag). */
export function tokenRequired(): boolean {
  return document.querySelector('meta[name="orchestra-auth"]')?.getAttribute('content') === 'token';
}

export function currentToken(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeCookie(value: string, maxAge?: number): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  const age = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  document.cookie = `${COOKIE}=${encodeURIComponent(value)}; Path=/; SameSite=Strict${age}${secure}`;
}

export function saveToken(token: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage refused (private mode): the cookie still carries it for this tab's session.
  }
  writeCookie(token);
}

export function forgetToken(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
  writeCookie('', 0);
}

type Listener = (reason: string) => void;
const listeners = new Set<Listener>();

/** Called when the server refused the token (HTTP 401): the page asks for it again. */
export function onTokenRefused(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function tokenRefused(reason: string): void {
  forgetToken();
  for (const listener of listeners) listener(reason);
}
