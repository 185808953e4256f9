import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres, type PostgresServer } from '@orchestra/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFreeEnv, tempDir } from './cli-helpers.js';
import { cli, cliWith } from './in-process.js';

/** `--store` / `$ORCHESTRA_STORE` on the CLI's commands, with a PostgreSQL store, in this process. */

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(() => pg?.dispose());

const GATE =
  'digraph Gate {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  draft [prompt="Draft"]\n  review [shape=hexagon, label="Review"]\n  start -> draft -> review\n  review -> exit [label="[A] Approve"]\n  review -> draft [label="[R] Revise"]\n}\n';

function pipeline(): string {
  const file = join(tempDir(), 'gate.dot');
  writeFileSync(file, GATE);
  return file;
}

const UNREACHABLE = 'postgres://someone:hunter2secret@127.0.0.1:1/runs';

describe('--store with PostgreSQL', () => {
  it('runs here, parks, and is answered and resumed by id; status says where it is', async () => {
    const url = await pg.createDatabase();
    const file = pipeline();
    const parked = await cli('run', file, '--simulate', '--park', '--store', url);
    expect(parked.code, parked.stderr).toBe(3);
    const id = /orchestra answer (\S+) --store/.exec(parked.stderr)?.[1] as string;
    expect(parked.stderr).toContain(`orchestra answer ${id} --store ${url} A`);
    expect(parked.stderr).toContain(`then a worker continues it (orchestra worker); or continue it here:\n  orchestra resume ${id} --store ${url}`);
    const status = await cli('status', id, '--store', url);
    expect(status.code).toBe(3);
    expect(status.stdout).toContain(`run: ${id} in ${url}`);
    expect(status.stdout).toContain(`orchestra answer ${id} --store ${url} A`);
    const answered = await cli('answer', id, 'A', '--store', url);
    expect(answered).toMatchObject({ code: 0 });
    // A database run's answer is queued for a worker; here the run is resumed by hand.
    expect(answered.stdout).toContain('recorded [A] Approve for review; the run is queued: a worker continues it');
    const resumed = await cli('resume', id, '--store', url);
    expect(resumed.code, resumed.stderr).toBe(0);
    const json = JSON.parse((await cli('status', id, '--store', url, '--json')).stdout);
    expect(json).toMatchObject({ state: 'completed', store: url, completed_nodes: 4 });
    // Queuing an ended run again does nothing.
    const again = await cli('resume', id, '--store', url, '--detach');
    expect(again).toMatchObject({ code: 0, stdout: 'orchestra: this run already ended (completed); nothing to resume\n' });
  });

  it('--detach queues the run (its id on stdout); status calls it queued; ORCHESTRA_STORE names the store', async () => {
    const url = await pg.createDatabase();
    const env = modelFreeEnv({ ORCHESTRA_STORE: url });
    const queued = await cliWith(['run', pipeline(), '--simulate', '--detach'], { env });
    expect(queued.code, queued.stderr).toBe(0);
    const id = queued.stdout.trim();
    expect(id).toMatch(/^\d{8}-\d{6}-\d{3}-Gate$/);
    expect(queued.stderr).toContain(`orchestra status ${id}`);
    const status = await cliWith(['status', id], { env });
    expect(status.code).toBe(5);
    expect(status.stdout).toContain('Gate: queued, waiting for a worker');
  });

  it('db migrate creates the schema, and says so when it is up to date', async () => {
    const url = await pg.createDatabase();
    const first = await cli('db', 'migrate', '--store', url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('orchestra schema 0 -> 1');
    const again = await cli('db', 'migrate', '--store', url);
    expect(again.stdout).toContain('the orchestra schema is up to date (version 1)');
  });
});

describe('--store: bad input, one line each, exit 2', () => {
  it('an unreachable database names host and port, prints no password and starts nothing', async () => {
    for (const args of [
      ['run', pipeline(), '--simulate', '--store', UNREACHABLE],
      ['run', pipeline(), '--simulate', '--detach', '--store', UNREACHABLE],
      ['status', 'x', '--store', UNREACHABLE],
      ['answer', 'x', 'A', '--store', UNREACHABLE],
      ['resume', 'x', '--store', UNREACHABLE],
      ['worker', '--store', UNREACHABLE],
      ['db', 'migrate', '--store', UNREACHABLE],
    ]) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\)/);
      expect(result.stderr).not.toContain('hunter2secret');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a run id the store does not hold', async () => {
    const url = await pg.createDatabase();
    for (const args of [['status', 'no-such-run'], ['answer', 'no-such-run', 'A'], ['resume', 'no-such-run']]) {
      const result = await cli(...args, '--store', url);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`orchestra: no run "no-such-run" in ${url}\n`);
    }
  });

  it('flags that do not go together', async () => {
    const file = pipeline();
    expect((await cli('run', file, '--simulate', '--detach')).stderr).toContain('--detach queues the run for workers: name their database with --store');
    expect((await cli('run', file, '--simulate', '--store', 'postgres://x@127.0.0.1:1/d', '--logs-dir', join(tempDir(), 'r'))).stderr).toContain('use --logs-dir or --store, not both');
    expect((await cli('run', file, '--simulate', '--detach', '--store', tempDir())).stderr).toContain('--detach needs a PostgreSQL store');
    const worker = await cli('worker');
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain('a worker takes runs from a PostgreSQL database');
    expect((await cli('worker', '--store', 'postgres://x@127.0.0.1:1/d', '--concurrency', '0')).stderr).toContain('--concurrency expects a whole number from 1 to 1000');
    expect((await cli('worker', '--store', 'postgres://x@127.0.0.1:1/d', '--backend', 'agent')).stderr).toContain('--backend agent lets models run commands on this machine: add --allow-tools');
    for (const command of [['worker'], ['db', 'migrate'], ['status', 'x'], ['serve']]) {
      const result = await cli(...command, '--store', 'postgres://[nope');
      expect(result.code, command.join(' ')).toBe(2);
      expect(result.stderr, command.join(' ')).toContain('is not a PostgreSQL URL');
    }
  });
});
