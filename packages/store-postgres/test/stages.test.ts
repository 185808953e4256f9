import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleManifest } from '@orchestra/testing/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { LARGE_PAYLOAD_CHARS, PostgresDatabase, PostgresRunCatalogue, PostgresRunStore } from '../src/index.js';
import { usePostgres } from './support/postgres.js';

const server = usePostgres();
let db: PostgresDatabase | undefined;
afterAll(() => db?.close());

async function freshStore(key: string): Promise<PostgresRunStore> {
  db ??= new PostgresDatabase(await server().createDatabase());
  const store = new PostgresRunStore(db, key);
  await store.create(sampleManifest(key), undefined);
  return store;
}

async function count(sql: string, key: string): Promise<number> {
  return Number((await (db as PostgresDatabase).query<{ n: string }>(sql, [key])).rows[0]?.n);
}

describe('stage files in PostgreSQL', () => {
  it('keeps a large text in the payload table, and removes it when the file is replaced or removed', async () => {
    const store = await freshStore('large');
    const stage = await store.stage('draft');
    const big = 'x'.repeat(LARGE_PAYLOAD_CHARS + 1);
    await stage.write('response.md', big);
    const payloads = 'SELECT count(*) AS n FROM orchestra.stage_payloads WHERE run_key = $1';
    expect(await count(payloads, 'large')).toBe(1);
    expect(await count("SELECT count(*) AS n FROM orchestra.stage_files WHERE run_key = $1 AND text IS NULL AND payload IS NOT NULL", 'large')).toBe(1);
    // Read back by another store (another process would do the same).
    const reader = new PostgresRunStore(store.db, 'large');
    expect(await (await reader.stage('draft')).read('response.md')).toBe(big);
    await stage.write('response.md', 'short now');
    expect(await count(payloads, 'large')).toBe(0);
    expect(await (await reader.stage('draft')).read('response.md')).toBe('short now');
    await stage.write('response.md', big);
    await stage.remove('response.md');
    expect(await count(payloads, 'large')).toBe(0);
    expect(await (await reader.stage('draft')).read('response.md')).toBeUndefined();
  });

  it("files a tool writes in the stage's directory, and a stream's output, become stage files", async () => {
    const store = await freshStore('tools');
    const stage = await store.stage('build');
    await stage.write('prompt.md', 'Build it');
    const dir = stage.directory();
    expect(readFileSync(join(dir, 'prompt.md'), 'utf8')).toBe('Build it');
    writeFileSync(join(dir, 'report.txt'), 'made by a tool');
    const stream = await stage.openStream('stdout.log');
    await new Promise<void>((resolve) => stream.end('line 1\nline 2\n', resolve));
    await store.flush();
    const reader = await new PostgresRunStore(store.db, 'tools').stage('build');
    expect(await reader.read('report.txt')).toBe('made by a tool');
    expect(await reader.read('stdout.log')).toBe('line 1\nline 2\n');
    expect(await reader.read('prompt.md')).toBe('Build it');
    await store.close(); // the temporary directory goes; the files stay
    expect(await (await new PostgresRunStore(store.db, 'tools').stage('build')).read('report.txt')).toBe('made by a tool');
  });

  it('child runs live under their parent: found again by the same node and name, removed with it', async () => {
    const store = await freshStore('parent');
    const child = store.child('sub', 'run-1');
    expect(child.runId).toBe('run-1');
    expect(child.location).toBe(`${store.location}/sub/run-1`);
    await child.create(sampleManifest('run-1'), undefined);
    expect(await store.child('sub', 'run-1').exists()).toBe(true);
    expect(await count("SELECT count(*) AS n FROM orchestra.runs WHERE parent = $1", 'parent')).toBe(1);
    // Not a run of the catalogue by itself; removed with its parent.
    const catalogue = new PostgresRunCatalogue(store.db);
    await expect(catalogue.open('run-1')).rejects.toMatchObject({ code: 'ORCH_RUN_NOT_FOUND' });
    await catalogue.remove('parent');
    expect(await count("SELECT count(*) AS n FROM orchestra.runs WHERE key = $1 OR parent = $1", 'parent')).toBe(0);
  });
});
