import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunStore } from '@orchestra/core';
import { expect, it } from 'vitest';
import type { RunStoreFactory } from './fixture.js';
import { sampleManifest } from './sample-records.js';
import { thrownBy, withFixture } from './with-fixture.js';

/** Cases for the stages: a node's own files. */
export function stageCases<S extends RunStore>(factory: RunStoreFactory<S>): void {
  it('reads, writes, replaces and removes stage files; a revisit reuses the stage', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      const first = await store.stage('plan');
      expect(first).toMatchObject({ nodeId: 'plan', reused: false });
      expect(await first.read('status.json')).toBeUndefined();
      await first.write('status.json', '{"outcome":"fail"}');
      await first.write('status.json', '{"outcome":"success"}');
      await first.write('prompt.md', 'Plan it');
      expect(await first.read('status.json')).toBe('{"outcome":"success"}');

      const again = await store.stage('plan');
      expect(again.reused).toBe(true);
      expect(await again.read('prompt.md')).toBe('Plan it');
      await again.remove('prompt.md');
      await again.remove('prompt.md'); // removing what is not there is fine
      expect(await first.read('prompt.md')).toBeUndefined();

      const other = await store.stage('build');
      expect(other.reused).toBe(false);
      expect(await other.read('status.json')).toBeUndefined();
    }));

  it('refuses node ids and file names that are not one path segment', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      for (const bad of ['a/b', '..', '.', '']) expect(await thrownBy(() => store.stage(bad)), `stage(${JSON.stringify(bad)})`).toBeInstanceOf(Error);
      const stage = await store.stage('ok');
      for (const bad of ['../escape', 'sub/file', '..', '/etc/passwd']) {
        expect(await thrownBy(() => stage.write(bad, 'x')), `write(${JSON.stringify(bad)})`).toBeInstanceOf(Error);
        expect(await thrownBy(() => stage.read(bad)), `read(${JSON.stringify(bad)})`).toBeInstanceOf(Error);
        expect(await thrownBy(() => stage.remove(bad)), `remove(${JSON.stringify(bad)})`).toBeInstanceOf(Error);
      }
    }));

  it("gives a real directory holding the stage's files, where files written are the stage's", () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      const stage = await store.stage('tool');
      await stage.write('before.txt', 'written before the directory was asked for');
      const dir = stage.directory();
      expect(stage.directory()).toBe(dir);
      expect(readFileSync(join(dir, 'before.txt'), 'utf8')).toBe('written before the directory was asked for');
      writeFileSync(join(dir, 'stdout.log'), 'from a command');
      expect(await stage.read('stdout.log')).toBe('from a command');
      await stage.write('after.txt', 'through the store');
      expect(readFileSync(join(dir, 'after.txt'), 'utf8')).toBe('through the store');
      await stage.remove('stdout.log');
      expect(existsSync(join(dir, 'stdout.log'))).toBe(false);
      expect(await (await store.stage('tool')).read('after.txt')).toBe('through the store');
    }));

  it('streams a file into a stage: created (or emptied) when opened, the written bytes read back once it is closed', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      const stage = await store.stage('tool');
      await stage.write('stdout.log', 'from an earlier attempt');
      const stream = await stage.openStream('stdout.log');
      expect(await stage.read('stdout.log')).toBe(''); // emptied at once
      await new Promise<void>((resolve, reject) => {
        stream.on('error', reject);
        stream.write('line 1\n');
        stream.write(Buffer.from('line 2\n'));
        stream.end(resolve);
      });
      await new Promise((resolve) => (stream.closed ? resolve(undefined) : stream.once('close', resolve)));
      expect(await stage.read('stdout.log')).toBe('line 1\nline 2\n');
      expect(await thrownBy(() => stage.openStream('../out.log'))).toBeInstanceOf(Error);
    }));

  it("keeps a node's child runs: the same name gives the same run, apart from the parent's and each other's records", () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), 'digraph Parent {}');
      const child = store.child('sub', 'run-1');
      expect(child.location).not.toBe(store.location);
      expect(await child.exists()).toBe(false);
      await child.create(sampleManifest(child.runId), 'digraph Child {}');
      expect(await child.readSource()).toBe('digraph Child {}');
      expect(await store.readSource()).toBe('digraph Parent {}');
      // Asked again (as a resumed parent does), the name gives the same run.
      const again = store.child('sub', 'run-1');
      expect(again.location).toBe(child.location);
      expect(await again.exists()).toBe(true);
      expect(await again.readSource()).toBe('digraph Child {}');
      const other = store.child('sub', 'run-2');
      expect(await other.exists()).toBe(false);
      expect(store.child('other', 'run-1').location).not.toBe(child.location);
      for (const [node, name] of [['a/b', 'run-1'], ['sub', '..'], ['..', 'x'], ['sub', 'a/b']] as const) {
        expect(await thrownBy(() => store.child(node, name)), `child(${node}, ${name})`).toBeInstanceOf(Error);
      }
    }));
}
