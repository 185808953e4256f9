import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { plainEnv } from './cli-helpers.js';

const BIN = fileURLToPath(new URL('../bin/orchestra.js', import.meta.url));

/** Runs the real `orchestra` binary in a child process. */
function orchestra(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: plainEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('orchestra binary (black box)', () => {
  it('validates a fixture: exit 0', () => {
    const r = orchestra('validate', fixturePath('branching.dot'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/branching\.dot: valid \(0 warnings\)\n$/);
  });

  it('reports errors with exit 1 and no stack trace', () => {
    const r = orchestra('validate', fixturePath('invalid/two-graphs.dot'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('two-graphs.dot:6:1: error [dialect] only one graph per file is allowed');
    expect(r.stdout + r.stderr).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('prints its help on stdout with exit 0, listing the commands', () => {
    const r = orchestra('--help');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: orchestra /);
    for (const command of ['validate', 'run', 'resume', 'answer', 'status', 'serve', 'chat', 'mcp']) expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('exits 2 for an unreadable file and for bad arguments', () => {
    const missing = orchestra('validate', 'no/such/file.dot');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('orchestra: cannot read no/such/file.dot: no such file\n');
    expect(orchestra('validate').code).toBe(2);
  });
});

describe('orchestra binary and a closed pipe', () => {
  it('exits quietly when its reader goes away (orchestra ... | head)', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    // Thousands of diagnostics: far more output than a pipe buffer holds.
    const file = join(mkdtempSync(join(tmpdir(), 'orchestra-pipe-')), 'orphans.dot');
    const orphans = Array.from({ length: 3000 }, (_, i) => `  orphan${i} [prompt="x"]`).join('\n');
    writeFileSync(file, `digraph G {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n${orphans}\n}\n`);
    const child = spawn(process.execPath, [BIN, 'validate', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toMatch(/\bat .*:\d+:\d+/);
    // The file is invalid (3000 orphan nodes are errors): validate's own code, 1. A reader going
    // away changes nothing about it, and is no crash either (that would be another code).
    expect(code).toBe(1);
  });
});
