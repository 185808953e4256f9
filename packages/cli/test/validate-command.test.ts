import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { runCli } from '../src/index.js';

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

function tempDot(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-cli-'));
  const file = join(dir, 'p.dot');
  writeFileSync(file, content);
  return file;
}

describe('orchestra validate', () => {
  it('exits 0 and prints a summary for a valid pipeline', async () => {
    const file = fixturePath('simple.dot');
    const r = await cli('validate', file);
    expect(r).toEqual({ code: 0, stdout: `${file}: valid (0 warnings)\n`, stderr: '' });
  });

  it('exits 0 with warnings, printing each as file:line:col: severity [rule] message with its fix', async () => {
    const file = fixturePath('invalid/only-warnings.dot');
    const r = await cli('validate', file);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${file}:5:40: warning [fidelity_valid] node work has unknown fidelity "everything"`);
    expect(lines[1]).toBe('    fix: use one of full, truncate, compact, summary:low, summary:medium, summary:high');
    expect(lines.filter((l) => l.startsWith(file)).map((l) => l.slice(file.length).replace(/\] .*/, ']'))).toEqual([
      ':5:40: warning [fidelity_valid]',
      ':5:63: warning [retry_target_exists]',
      ':6:5: warning [prompt_on_llm_nodes]',
      ':8:13: warning [node_redeclared]',
      ':11:39: warning [human_gate_condition]',
      ': valid (5 warnings)',
    ]);
  });

  it('exits 1 on a node type no handler is registered for (type_known is an error, as run refuses it)', async () => {
    const file = fixturePath('invalid/warnings.dot');
    const r = await cli('validate', file);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${file}:5:12: error [type_known] node work has type "my.custom", which no handler is registered for`);
    expect(lines[1]).toMatch(/^ {4}fix: use one of start, exit, codergen, .*, pipeline, conference or register a handler for "my.custom"$/);
    expect(lines.at(-1)).toBe(`${file}: invalid: 1 error, 3 warnings`);
  });

  it('exits 1 on lint errors, listing them in file order', async () => {
    const file = fixturePath('invalid/lint-errors.dot');
    const r = await cli('validate', file);
    expect(r.code).toBe(1);
    const heads = r.stdout.split('\n').filter((l) => l.startsWith(file));
    expect(heads.map((l) => l.slice(file.length).replace(/\] .*/, ']'))).toEqual([
      ':5:27: error [attribute_value]',
      ':5:46: error [attribute_value]',
      ':6:5: error [reachability]',
      ':9:38: error [condition_syntax]',
      ':10:5: error [start_no_incoming]',
      ':11:5: error [exit_no_outgoing]',
      ': invalid: 6 errors, 0 warnings',
    ]);
  });

  it('refuses what run would stop at: a node id too long for a directory name, a manager without a child pipeline', async () => {
    const long = `n${'x'.repeat(299)}`;
    const file = tempDot(`digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  ${long} [shape=parallelogram, tool_command="true"]\n  boss [shape=house]\n  start -> ${long} -> boss -> exit\n}\n`);
    const r = await cli('validate', file);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith(file))).toEqual([
      `${file}:4:3: error [node_id_length] node id n${'x'.repeat(39)}... is 300 bytes long: its stage directory would be named by it, and file systems refuse names over 255 bytes`,
      `${file}:5:3: error [manager_has_child] manager node boss has no child pipeline to supervise; a run would refuse it`,
      `${file}: invalid: 2 errors, 0 warnings`,
    ]);
  });

  it('exits 1 on a syntax error and reports its line and column', async () => {
    const file = tempDot('digraph G {\n  a [label="x"\n  b -> c\n}\n');
    const r = await cli('validate', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}:3:5: error [syntax] expected`);
    expect(r.stderr).toBe('');
  });

  it('prints the diagnostics as a JSON array with --json', async () => {
    const file = fixturePath('invalid/lint-errors.dot');
    const r = await cli('validate', file, '--json');
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(parsed).toHaveLength(6);
    expect(parsed[3]).toEqual({
      file,
      line: 9,
      column: 38,
      severity: 'error',
      rule: 'condition_syntax',
      message: 'condition "outcome==success" on work -> exit: "==" is not an operator here',
      node_id: null,
      edge: { from: 'work', to: 'exit' },
      fix: 'write a single "=" for equality',
    });
    expect((await cli('validate', '--json', fixturePath('simple.dot'))).stdout).toBe('[]\n');
  });

  it('exits 2 with a clear message when the file cannot be read', async () => {
    const r = await cli('validate', '/nonexistent/pipeline.dot');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'orchestra: cannot read /nonexistent/pipeline.dot: no such file\n' });
  });

  it('exits 2 on missing arguments and unknown options', async () => {
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: orchestra');
    for (const command of ['validate', 'run', 'resume']) expect(none.stderr).toContain(command);
    expect((await cli('validate')).code).toBe(2);
    const unknown = await cli('validate', fixturePath('simple.dot'), '--frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('prints help and version with exit 0', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('validate');
    expect((await cli('--version')).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
