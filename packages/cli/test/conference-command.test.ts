import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** A copy of the sample manuscript project, its pipeline's roles optionally renamed. */
function manuscript(roles?: string): { dir: string; pipeline: string } {
  const dir = join(tempDir(), 'manuscript');
  cpSync(fixturePath('manuscript'), dir, { recursive: true });
  const pipeline = join(dir, 'conference-review.dot');
  if (roles !== undefined) writeFileSync(pipeline, readFileSync(pipeline, 'utf8').replace('conference.roles="critic,continuity,editor"', `conference.roles="${roles}"`));
  return { dir, pipeline };
}

describe('conference nodes from the command line', () => {
  it('run --simulate gives a deterministic conference: a receipt, every role grounded, the report reached', async () => {
    const { dir, pipeline } = manuscript();
    const logs = join(tempDir(), 'run');
    const r = await cliWith(['run', pipeline, '--simulate', '--logs-dir', logs], { cwd: dir, env: modelFreeEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/◦ critic answered\n.*◦ continuity answered\n.*◦ editor answered\n.*✓ review/s);
    const record = JSON.parse(readFileSync(join(logs, 'review', 'conference.json'), 'utf8')) as { evidence: { receipt_id: string }[]; roles: { status: string; evidence_line: string }[]; answered: number };
    expect(record.evidence).toHaveLength(1);
    expect(record.answered).toBe(3);
    for (const role of record.roles) expect(role.evidence_line).toBe(`Evidence: receipt_id: ${record.evidence[0]?.receipt_id}`);
    // The simulation plays the configured roles: their tiers (the editor is T5) and contracts.
    expect((record.roles as unknown as { role: string; tier: string }[]).map((r) => [r.role, r.tier])).toEqual([['critic', 'T3'], ['continuity', 'T3'], ['editor', 'T5']]);
    // And a role the configuration does not define is refused before the run, as with a model.
    const ghost = manuscript('critic,ghost');
    const refused = await cliWith(['run', ghost.pipeline, '--simulate', '--logs-dir', join(tempDir(), 'ghost')], { cwd: ghost.dir, env: modelFreeEnv() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"ghost" is not a role');
    expect(readFileSync(join(logs, 'report', 'prompt.md'), 'utf8')).toContain('3 of 3 roles gave grounded answers');
  });

  it('validate checks the roles against the orchestra.yaml beside the pipeline', async () => {
    const good = manuscript();
    expect(await cliWith(['validate', good.pipeline], { cwd: good.dir, env: modelFreeEnv() })).toMatchObject({ code: 0 });
    const bad = manuscript('critic,continuty,editor');
    const r = await cliWith(['validate', bad.pipeline], { cwd: bad.dir, env: modelFreeEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${bad.pipeline}:10:5: error [conference_role] conference node review: "continuty" is not a role (roles: in ${join(bad.dir, 'orchestra.yaml')}; the roles are critic, continuity, editor, planner, writer, librarian): did you mean "continuity"?`);
  });

  it('lint refuses a conference without roles or with a quorum above them (exit 1, file:line:col)', async () => {
    const { dir, pipeline } = manuscript('');
    const r = await cliWith(['validate', pipeline], { cwd: dir, env: modelFreeEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${pipeline}:10:5: error [conference_settings] conference node review names no roles`);
    const one = manuscript('critic');
    const q = await cliWith(['validate', one.pipeline], { cwd: one.dir, env: modelFreeEnv() });
    expect(q.code).toBe(1);
    expect(q.stdout).toContain('error [conference_settings] conference node review: conference.quorum=2 is more than its 1 role (critic) could ever answer');
  });

  it('doctor lists the roles, and names a pipeline role that is not defined', async () => {
    const { dir, pipeline } = manuscript('critic,ghost');
    const r = await cliWith(['doctor', pipeline, '--offline', '--model', 'm'], { cwd: dir, env: modelFreeEnv({ OPENAI_API_KEY: 'sk-x' }) });
    expect(r.stdout).toContain('Conference roles:\n  critic: evidence receipt, tier T3, model the stage\'s, contract "You are the critic.');
    expect(r.stdout).toContain('  editor: evidence any, tier T5,');
    expect(r.stdout).toContain('✗ stage review: "ghost" is not a role');
    expect(r.code).toBe(1);
  });
});
