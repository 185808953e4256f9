import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { validateCommand } from '../src/commands/validate.js';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

/** Runs `validate` on several files in process. */
async function validateFiles(files: string[], json = false): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await validateCommand(files, { json }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

function pipelineFile(name: string, body: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, `digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n}\n`);
  return file;
}

describe('orchestra validate with several files', () => {
  it("prints each file's diagnostics and summary in order, and exits 0 when none has an error", async () => {
    const simple = fixturePath('simple.dot');
    const warned = fixturePath('invalid/only-warnings.dot');
    const r = await validateFiles([simple, warned]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${simple}: valid (0 warnings)`);
    expect(lines[1]?.startsWith(`${warned}:5:40: warning [fidelity_valid]`)).toBe(true);
    expect(lines.at(-1)).toBe(`${warned}: valid (5 warnings)`);
    expect(r.stderr).toBe('');
  });

  it('exits 1 when any file has an error, still checking the others', async () => {
    const bad = fixturePath('invalid/lint-errors.dot');
    const good = fixturePath('simple.dot');
    const r = await validateFiles([bad, good]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${bad}: invalid: 6 errors, 0 warnings\n`);
    expect(r.stdout.endsWith(`${good}: valid (0 warnings)\n`)).toBe(true);
  });

  it('exits 2 when a file cannot be read, reporting it on stderr and checking the rest', async () => {
    const bad = fixturePath('invalid/lint-errors.dot');
    const r = await validateFiles(['/nonexistent/a.dot', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('orchestra: cannot read /nonexistent/a.dot: no such file\n');
    expect(r.stdout).toContain(`${bad}: invalid: 6 errors, 0 warnings\n`);
    expect(await validateFiles(['/nonexistent/a.dot'], true)).toEqual({ code: 2, stdout: '', stderr: 'orchestra: cannot read /nonexistent/a.dot: no such file\n' });
  });

  it('prints one JSON array of every file with --json, each element naming its file', async () => {
    const bad = fixturePath('invalid/lint-errors.dot');
    const warned = fixturePath('invalid/only-warnings.dot');
    const r = await validateFiles([bad, fixturePath('simple.dot'), warned], true);
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as { file: string; rule: string }[];
    expect(parsed).toHaveLength(11);
    expect(parsed.slice(0, 6).every((d) => d.file === bad)).toBe(true);
    expect(parsed.slice(6).map((d) => [d.file, d.rule])).toEqual(
      ['fidelity_valid', 'retry_target_exists', 'prompt_on_llm_nodes', 'node_redeclared', 'human_gate_condition'].map((rule) => [warned, rule]),
    );
  });
});

describe('orchestra validate <files...> on the command line', () => {
  it('takes several files, prints each summary in order and exits with the worst code', async () => {
    const simple = fixturePath('simple.dot');
    const bad = fixturePath('invalid/lint-errors.dot');
    const both = await cli('validate', simple, bad);
    expect(both.code).toBe(1);
    expect(both.stdout.startsWith(`${simple}: valid (0 warnings)\n`)).toBe(true);
    expect(both.stdout.endsWith(`${bad}: invalid: 6 errors, 0 warnings\n`)).toBe(true);
    expect((await cli('validate', simple, fixturePath('invalid/only-warnings.dot'))).code).toBe(0);
    expect((await cli('validate', simple, '/nonexistent/a.dot')).code).toBe(2);
  });

  it('still needs at least one file', async () => {
    const none = await cli('validate');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'files'");
  });
});

describe('validate and run agree on handler types', () => {
  it('a type no handler is registered for: validate errs, and run refuses with the same diagnostic (exit 1, nothing run)', async () => {
    const file = pipelineFile('custom.dot', '  ship [type="deploy"]\n  start -> ship -> exit');
    const checked = await cli('validate', file);
    expect(checked.code).toBe(1);
    const line = `${file}:4:9: error [type_known] node ship has type "deploy", which no handler is registered for`;
    expect(checked.stdout.split('\n')[0]).toBe(line);
    const ran = await cli('run', file, '--simulate', '--logs-dir', join(tempDir(), 'run'));
    expect(ran.code).toBe(1);
    expect(ran.stderr.split('\n')[0]).toBe(line);
    expect(ran.stderr).toContain(`orchestra: ${file} is not a valid pipeline; nothing was run`);
  });

  it('every built-in type: validate finds no type error, and run accepts the types', async () => {
    const file = pipelineFile(
      'builtins.dot',
      '  t [type="tool", tool_command="true"]\n  c [type="conditional"]\n  w [type="codergen", prompt="p"]\n  start -> t -> c -> w -> exit',
    );
    expect(await cli('validate', file)).toMatchObject({ code: 0, stdout: `${file}: valid (0 warnings)\n` });
    expect((await cli('run', file, '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run'))).code).toBe(0);
  });
});
