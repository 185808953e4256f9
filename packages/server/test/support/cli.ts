import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The real `orchestra` launcher. */
export const BIN = fileURLToPath(new URL('../../../cli/bin/orchestra.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete e.FORCE_COLOR;
  return e;
}

/** Runs `orchestra` to the end. */
export function orchestra(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: env() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `orchestra` with stdin left open (a console gate waits), collecting its output. */
export function startOrchestra(...args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}
