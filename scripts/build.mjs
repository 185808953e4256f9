// Bundles the CLI (packages/cli/dist/: the start-up bundle and its code cache, the other
// commands as lazily loaded ES modules; scripts/build-cli.mjs) so the command starts in
// tens of milliseconds instead of compiling TypeScript at every start, then the web page
// of `orchestra serve` (packages/server/web/ -> packages/server/web-dist/, copied to
// packages/cli/dist/web/), then the libraries `orchestra init` puts in a new project
// (packages/cli/dist/libraries/, scripts/carry-libraries.mjs). Runs after install and
// before the tests; `pnpm build` by hand.
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCli } from './build-cli.mjs';
import { carryLibraries } from './carry-libraries.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
await buildCli();
console.log(`built packages/cli/dist/ in ${Math.round(performance.now() - started)} ms`);

// The web page: preact TSX bundled into one script (no request leaves the page but to its server).
const pageStarted = performance.now();
const web = `${root}packages/server/web`;
const webDist = `${root}packages/server/web-dist`;
rmSync(webDist, { recursive: true, force: true });
mkdirSync(webDist, { recursive: true });
await Promise.all([
  build({
    entryPoints: { app: `${web}/main.tsx` },
    outdir: webDist,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  }),
  build({
    entryPoints: { app: `${web}/app.css` },
    outdir: webDist,
    bundle: true,
    minify: true,
    logLevel: 'warning',
  }),
]);
copyFileSync(`${web}/index.html`, `${webDist}/index.html`);
cpSync(webDist, `${root}packages/cli/dist/web`, { recursive: true });
console.log(`built packages/server/web-dist/ (copied to packages/cli/dist/web/) in ${Math.round(performance.now() - pageStarted)} ms`);

carryLibraries();
