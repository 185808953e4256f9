import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEvidence, type EvidenceSources } from '../../../src/handlers.js';
import { replyKind } from '../../../src/handlers/conference/evidence-check.js';
import { readWorkspaceFile } from '../../../src/handlers/conference/workspace-files.js';
import { tempDir, useTempDirs } from '../../engine/engine-helpers.js';

useTempDirs();

function workspace(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'scenes'));
  writeFileSync(join(dir, 'canon.md'), 'Mara has grey eyes.\nShe is   thirty-one,\nand “never” lies.\n');
  writeFileSync(join(dir, 'scenes', 'two.md'), 'one\ntwo\nthree\n');
  return dir;
}

function sources(dir: string, receipts: string[] = ['rcpt_aaaa1111']): EvidenceSources {
  return { receipts: new Set(receipts), readFile: (path) => readWorkspaceFile(dir, path) };
}

describe('replyKind', () => {
  it('abstains only on a first line of exactly ABSTAIN, with the rest as the reason', () => {
    expect(replyKind('ABSTAIN')).toEqual({ abstain: true });
    expect(replyKind('  ABSTAIN  \nnot my area')).toEqual({ abstain: true, reason: 'not my area' });
    expect(replyKind('I would ABSTAIN here')).toEqual({ abstain: false });
    expect(replyKind('ABSTAINED\nx')).toEqual({ abstain: false });
  });
});

describe('checkEvidence', () => {
  it('accepts a cited receipt of this conference under the receipt rule, and gives the line', () => {
    const dir = workspace();
    expect(checkEvidence('The pacing drags.\nEvidence: receipt_id: rcpt_aaaa1111', 'receipt', sources(dir))).toEqual({ grounded: true, line: 'Evidence: receipt_id: rcpt_aaaa1111' });
    // A list marker or bold markers around the label are fine.
    expect(checkEvidence('x\n- **Evidence:** receipt_id: rcpt_aaaa1111', 'receipt', sources(dir))).toMatchObject({ grounded: true });
  });

  it('rejects a receipt id the conference never issued, under every rule', () => {
    const dir = workspace();
    for (const rule of ['receipt', 'quote', 'any', 'none'] as const) {
      const verdict = checkEvidence('x\nEvidence: receipt_id: rcpt_made_up', rule, sources(dir));
      expect(verdict).toEqual({ grounded: false, reason: 'rcpt_made_up is not a receipt of this conference (its receipts are rcpt_aaaa1111)' });
    }
  });

  it('needs exactly one Evidence: line', () => {
    const dir = workspace();
    expect(checkEvidence('No evidence here.', 'any', sources(dir))).toMatchObject({ grounded: false, reason: expect.stringContaining('no line starting with "Evidence:"') });
    expect(checkEvidence('Evidence: receipt_id: rcpt_aaaa1111\nEvidence: receipt_id: rcpt_aaaa1111', 'any', sources(dir))).toEqual({ grounded: false, reason: 'the answer has 2 lines starting with "Evidence:"; keep exactly one' });
  });

  it('finds a quoted passage in its file with whitespace and typographic quotes normalised', () => {
    const dir = workspace();
    expect(checkEvidence('x\nEvidence: "She is thirty-one, and \'never\' lies" (canon.md)', 'quote', sources(dir))).toMatchObject({ grounded: true });
    expect(checkEvidence('x\nEvidence: “Mara has grey eyes.” (canon.md)', 'quote', sources(dir))).toMatchObject({ grounded: true });
    expect(checkEvidence('x\nEvidence: "Mara has blue eyes." (canon.md)', 'quote', sources(dir))).toEqual({ grounded: false, reason: '"Mara has blue eyes." does not occur in canon.md' });
  });

  it('accepts path:line only for a line the file has', () => {
    const dir = workspace();
    expect(checkEvidence('x\nEvidence: scenes/two.md:3', 'quote', sources(dir))).toMatchObject({ grounded: true });
    expect(checkEvidence('x\nEvidence: scenes/two.md:2-3', 'quote', sources(dir))).toMatchObject({ grounded: true });
    expect(checkEvidence('x\nEvidence: scenes/two.md:4', 'quote', sources(dir))).toEqual({ grounded: false, reason: 'scenes/two.md has 3 lines: scenes/two.md:4 names none of them' });
    expect(checkEvidence('x\nEvidence: scenes/none.md:1', 'quote', sources(dir))).toEqual({ grounded: false, reason: 'the cited file cannot be checked: there is no file scenes/none.md in the workspace' });
  });

  it('never reads outside the workspace: .. and symbolic links out are refused', () => {
    const dir = workspace();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.md'), 'the secret\n');
    symlinkSync(join(outside, 'secret.md'), join(dir, 'link.md'));
    expect(checkEvidence(`x\nEvidence: "the secret" (../${outside.split('/').pop()}/secret.md)`, 'quote', sources(dir))).toMatchObject({ grounded: false, reason: expect.stringContaining('is outside the workspace') });
    expect(checkEvidence('x\nEvidence: "the secret" (link.md)', 'quote', sources(dir))).toEqual({ grounded: false, reason: 'the quoted file cannot be checked: link.md is outside the workspace (a symbolic link leads out of it)' });
    expect(checkEvidence(`x\nEvidence: "the secret" (${join(outside, 'secret.md')})`, 'quote', sources(dir))).toMatchObject({ grounded: false, reason: expect.stringContaining('is outside the workspace') });
  });

  it('asks each rule for what it needs: receipt, quote, either, nothing', () => {
    const dir = workspace();
    const receiptOnly = 'x\nEvidence: receipt_id: rcpt_aaaa1111';
    const quoteOnly = 'x\nEvidence: "Mara has grey eyes." (canon.md)';
    const bare = 'x\nEvidence: my own reading of the scene';
    expect(checkEvidence(quoteOnly, 'receipt', sources(dir))).toMatchObject({ grounded: false, reason: expect.stringContaining('cites no receipt') });
    expect(checkEvidence(receiptOnly, 'quote', sources(dir))).toMatchObject({ grounded: false, reason: expect.stringContaining('cites no quoted passage') });
    expect(checkEvidence(receiptOnly, 'any', sources(dir))).toMatchObject({ grounded: true });
    expect(checkEvidence(quoteOnly, 'any', sources(dir))).toMatchObject({ grounded: true });
    expect(checkEvidence(bare, 'any', sources(dir))).toMatchObject({ grounded: false, reason: expect.stringContaining('cites no receipt or quoted passage') });
    expect(checkEvidence(bare, 'none', sources(dir))).toMatchObject({ grounded: true });
  });
});
