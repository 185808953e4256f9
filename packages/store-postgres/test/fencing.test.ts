import { RunLockedError } from '@orchestra/core';
import { sampleCheckpoint, sampleEntry, sampleManifest } from '@orchestra/testing/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDatabase, PostgresRunStore } from '../src/index.js';
import { usePostgres } from './support/postgres.js';

const server = usePostgres();
let db: PostgresDatabase | undefined;
afterAll(() => db?.close());

async function refusal(write: () => unknown): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('writes fenced by the lease', () => {
  it('once another process has taken the run over, every write of the old holder is refused, however it learnt of it', async () => {
    db ??= new PostgresDatabase(await server().createDatabase());
    const old = new PostgresRunStore(db, 'fenced', undefined, { leaseMs: 60_000 });
    await old.create(sampleManifest('fenced'), undefined);
    await old.acquire();
    await old.appendJournal(sampleEntry(1));
    const stage = await old.stage('a');
    // The old holder is cut off: its lease runs out and another process takes the run over.
    old.heldLease?.stop();
    await db.query("UPDATE orchestra.leases SET expires_at = clock_timestamp() - interval '1 second' WHERE run_key = 'fenced'");
    const next = new PostgresRunStore(db, 'fenced');
    await next.acquire();
    for (const [what, write] of [
      ['journal', () => old.appendJournal(sampleEntry(2))],
      ['checkpoint', () => old.writeCheckpoint(sampleCheckpoint(1))],
      ['events', () => old.appendEvents(['{"type":"late"}'])],
      ['interviews', () => old.appendInterview('{"q":1}')],
      ['answers', () => old.writeAnswers({ a: 1 })],
      ['pending questions', () => old.writePendingQuestions({ q: 1 })],
      ['stage file', () => stage.write('response.md', 'stale')],
      ['stage removal', () => stage.remove('prompt.md')],
      // A second try, after the first refusal marked the lease lost: still refused.
      ['journal again', () => old.appendJournal(sampleEntry(2))],
    ] as const) {
      expect(await refusal(write), what).toBeInstanceOf(RunLockedError);
    }
    // The new holder's writes go through, and nothing of the old one's landed.
    await next.appendJournal({ ...sampleEntry(2), node: 'c' });
    await next.appendEvents(['{"type":"new"}']);
    await (await next.stage('a')).write('response.md', 'fresh');
    expect((await next.readJournal()).entries.map((e) => e.node)).toEqual(['n1', 'c']);
    expect(await next.readEvents()).toEqual(['{"type":"new"}']);
    expect(await (await next.stage('a')).read('response.md')).toBe('fresh');
    expect(await next.readAnswers()).toBeUndefined();
  });
});
