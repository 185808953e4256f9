import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /**
   * Keep PostgreSQL's own disk flushes (`fsync`), as in production. Off by
   * default: a test server is thrown away, and a clean stop or restart loses
   * nothing either way. Benchmarks turn it on.
   */
  fsync?: boolean;
  /** Where the data directory goes (default the system's temporary directory). */
  parent?: string;
}

/** A throwaway PostgreSQL server started by {@link startPostgres}. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (no password: local trust). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The data directory (and the Unix socket's directory). */
  readonly dir: string;
  /** A new, empty database on this server; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (`pg_ctl stop -m fast`): connections are cut, as when a database restarts. */
  stop(): void;
  /** Starts it again on the same port with the same data. */
  start(): void;
  /** Stops it and removes its directory. */
  dispose(): void;
}

/** The directory holding `initdb`, `pg_ctl` and `postgres`: on the PATH, else Debian's `/usr/lib/postgresql/<version>/bin`. */
export function postgresBinaries(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath.slice(0, onPath.lastIndexOf('/'));
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** A TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program as the `postgres` user when this process is root (initdb and postgres refuse root). */
function asServerUser(program: string, args: string[]): { command: string; args: string[] } {
  return isRoot ? { command: 'runuser', args: ['-u', 'postgres', '--', program, ...args] } : { command: program, args };
}

function run(program: string, args: string[]): void {
  const how = asServerUser(program, args);
  execFileSync(how.command, how.args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

let made = 0;

/**
 * Starts a throwaway PostgreSQL server for tests: `initdb` in a temporary
 * directory, the server on a free port of 127.0.0.1 and a Unix socket in
 * that directory, trusted local logins as `postgres`. Debian's
 * `postgresql` package provides the programs (`.ci/run` installs it when
 * missing); as root they run as the `postgres` user.
 *
 * @example
 * ```ts
 * let pg: PostgresServer;
 * beforeAll(async () => { pg = await startPostgres(); });
 * afterAll(() => pg.dispose());
 * it('stores runs', async () => { const url = await pg.createDatabase(); ... });
 * ```
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL is not installed (no initdb on the PATH or in /usr/lib/postgresql/*/bin): install Debian's postgresql package (.ci/run does)");
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'orchestra-pg-'));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const settings = ['-k', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `fsync=${options.fsync ? 'on' : 'off'}`, '-c', 'max_connections=200'];
  if (!options.fsync) settings.push('-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const pgCtl = join(bin, 'pg_ctl');
  const start = (): void => run(pgCtl, ['-D', data, '-o', settings.join(' '), '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  const stop = (): void => run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    host: '127.0.0.1',
    port,
    dir,
    async createDatabase(name = `test_${process.pid}_${++made}`) {
      await psql(bin, port, `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    stop() {
      stop();
      stopped = true;
    },
    start() {
      start();
      stopped = false;
    },
    dispose() {
      try {
        if (!stopped) stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs one SQL statement with `psql` on the server's TCP port. */
function psql(bin: string, port: number, sql: string): Promise<void> {
  const program = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`psql failed (${code}): ${stderr.trim()}`))));
  });
}
