import { describe, expect, it } from 'vitest';
import { RESERVED_NODE_IDS, reservedNameOf } from '../../src/loader.js';
import { RUN_DIRECTORIES, RUN_FILES } from '../../src/store.js';
import { byRule, load, pipeline } from '../helpers.js';
import { readFileSync } from 'node:fs';

const runDirectoryDoc = readFileSync(new URL('../../../../docs/run-directory.md', import.meta.url), 'utf8');

describe('node_id_reserved', () => {
  it('refuses a node named like a directory the run directory keeps for itself, whatever its case', () => {
    const r = load(pipeline('  artifacts [prompt="collect"]\n  Artifacts [prompt="again"]\n  start -> artifacts -> Artifacts -> exit'));
    expect(r.ok).toBe(false);
    expect(byRule(r.diagnostics, 'node_id_reserved')).toEqual([
      {
        rule: 'node_id_reserved',
        severity: 'error',
        message: `node id "artifacts" is reserved: its stage directory would be the run directory's own artifacts/`,
        fix: 'rename the node (for example artifacts_step) and keep the name for people in label="..."',
        nodeId: 'artifacts',
        location: { file: 'test.dot', line: 4, column: 3 },
      },
      expect.objectContaining({
        severity: 'error',
        nodeId: 'Artifacts',
        message: `node id "Artifacts" is reserved: its stage directory would be the run directory's own artifacts/ (names are compared without case, as on macOS and Windows)`,
        location: { file: 'test.dot', line: 5, column: 3 },
      }),
    ]);
    expect(byRule(load(pipeline('  artifacts_step [prompt="x"]\n  start -> artifacts_step -> exit')).diagnostics, 'node_id_reserved')).toEqual([]);
  });

  it('reserves every dot-free name of the run directory layout, and each reserved name is in docs/run-directory.md', () => {
    const layout = [...Object.values(RUN_FILES), ...Object.values(RUN_DIRECTORIES)];
    for (const name of layout) if (!name.includes('.')) expect(reservedNameOf(name), name).toBe(name);
    for (const name of RESERVED_NODE_IDS) expect(runDirectoryDoc).toMatch(new RegExp(`^  ${name}/ `, 'm'));
    // The documented tree's top-level entries without a dot are reserved too (stage directories aside).
    const tree = runDirectoryDoc.slice(runDirectoryDoc.indexOf('<run dir>/'), runDirectoryDoc.indexOf('```', runDirectoryDoc.indexOf('<run dir>/')));
    const topLevel = [...tree.matchAll(/^ {2}([^\s<][^\s]*?)\/?\s/gm)].map((m) => m[1] as string).filter((n) => !n.includes('.'));
    expect(topLevel).toEqual([...RESERVED_NODE_IDS]);
  });
});
