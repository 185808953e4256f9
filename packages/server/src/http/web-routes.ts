import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { errorResponse } from './errors.js';

const ASSET_TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.js.map': 'application/json; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>orchestra</title>
<p>The web page is not built. Run <code>node scripts/build.mjs</code> in the orchestra repository; the HTTP API works without it.</p>`;

/**
 * The web page: `/` (and `/runs/...`, so a run's page can be reloaded, `/new`
 * and `/session-plan`) serve
 * `index.html`, `/assets/<name>` its script and style sheet. They need no
 * token: the page asks for it and sends it with every API call. Meta tags
 * tell the page whether it needs a token and whether the server has a
 * project's plan (`hasPlan`: the header links to it).
 */
export function webRoutes(app: Hono, webDir: string | undefined, authRequired: boolean, hasPlan = false): void {
  const page = webDir && existsSync(join(webDir, 'index.html')) ? readFileSync(join(webDir, 'index.html'), 'utf8') : undefined;
  const html =
    page
      ?.replace('<meta name="orchestra-auth" content="">', `<meta name="orchestra-auth" content="${authRequired ? 'token' : 'none'}">`)
      .replace('<meta name="orchestra-plan" content="">', `<meta name="orchestra-plan" content="${hasPlan ? 'project' : 'none'}">`) ?? NOT_BUILT;
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    'X-Content-Type-Options': 'nosniff',
  };
  app.get('/', (c) => c.body(html, 200, headers));
  app.get('/runs/*', (c) => c.body(html, 200, headers));
  app.get('/new', (c) => c.body(html, 200, headers));
  app.get('/session-plan', (c) => c.body(html, 200, headers));
  app.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    const type = ASSET_TYPES[name];
    if (!webDir || !type || !existsSync(join(webDir, name))) return errorResponse(c, 404, 'ORCH_NOT_FOUND', `no asset ${name}`);
    return c.body(readFileSync(join(webDir, name)), 200, { 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  });
}
