import { sampleManifest } from '@orchestra/testing/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDatabase, PostgresRunStore } from '../src/index.js';
import { usePostgres } from './support/postgres.js';

const server = usePostgres();
const opened: PostgresDatabase[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function database(url: string): Promise<PostgresDatabase> {
  const db = new PostgresDatabase(url);
  opened.push(db);
  return db;
}

describe('event notifications (LISTEN/NOTIFY)', () => {
  it("tells a watcher in another connection pool when a run's events are appended, not for other runs", async () => {
    const url = await server().createDatabase();
    const writer = new PostgresRunStore(await database(url), 'watched');
    const other = new PostgresRunStore(writer.db, 'other');
    await writer.create(sampleManifest('watched'), undefined);
    await other.create(sampleManifest('other'), undefined);
    const reader = new PostgresRunStore(await database(url), 'watched');
    const told: number[] = [];
    const stop = await reader.watchEvents(() => told.push(Date.now()));
    await other.appendEvents(['{"type":"x"}']);
    await writer.appendEvents(['{"type":"a"}', '{"type":"b"}']);
    for (let i = 0; i < 100 && told.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(told).toHaveLength(1);
    expect(await reader.readEvents()).toEqual(['{"type":"a"}', '{"type":"b"}']);
    stop();
    await writer.appendEvents(['{"type":"c"}']);
    await new Promise((r) => setTimeout(r, 200));
    expect(told).toHaveLength(1);
  });

  it('after the database restarts, watchers are told to look again, and writes go on', async () => {
    const url = await server().createDatabase();
    const db = await database(url);
    const store = new PostgresRunStore(db, 'restart');
    await store.create(sampleManifest('restart'), undefined);
    const reader = new PostgresRunStore(await database(url), 'restart');
    let told = 0;
    await reader.watchEvents(() => told++);
    server().stop();
    const write = store.appendEvents(['{"type":"during"}']); // waits for the server
    await new Promise((r) => setTimeout(r, 300));
    server().start();
    await write;
    for (let i = 0; i < 200 && told === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(told).toBeGreaterThan(0);
    expect(await reader.readEvents()).toEqual(['{"type":"during"}']);
  });
});
