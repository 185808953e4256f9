import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCatalogueConformance } from '@orchestra/testing/conformance';
import { describe, expect, it } from 'vitest';
import { FileRunCatalogue } from '../../src/index.js';

runCatalogueConformance('FileRunCatalogue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-catalogue-'));
  return { catalogue: new FileRunCatalogue(join(dir, 'runs')), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
});

describe('FileRunCatalogue', () => {
  it('keeps run <id> in <directory>/<id>, and lists only directories that hold a run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchestra-catalogue-'));
    try {
      const catalogue = new FileRunCatalogue(dir);
      mkdirSync(join(dir, 'not-a-run'));
      writeFileSync(join(dir, 'notes.txt'), 'mine');
      const store = catalogue.create('P', { id: 'r1' });
      expect(store.location).toBe(join(dir, 'r1'));
      expect(await catalogue.list()).toEqual([]);
      // A directory that is taken (by anything) is not handed out as a new run.
      mkdirSync(join(dir, '20260102-030405-678-P'));
      expect(catalogue.create('P', { now: new Date('2026-01-02T03:04:05.678Z') }).runId).toBe('20260102-030405-678-P-2');
      expect(readdirSync(dir).sort()).toEqual(['20260102-030405-678-P', 'not-a-run', 'notes.txt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
