import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellCommand, shellQuote } from '../src/shell-quote.js';

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellCommand(['orchestra', 'answer', '/tmp/run-1', 'A'])).toBe('orchestra answer /tmp/run-1 A');
    expect(shellQuote("it's a $dir")).toBe(`'it'\\''s a $dir'`);
  });

  it('writes control characters and bidi marks as $\'...\' escapes, which bash reads back as they were', () => {
    const hostile = "run\u001b]0;owned\u0007\u001b[31m\r\u009b2J\b\u007f\u202e\u2066\n\t'\"\\ $x `y`";
    const quoted = shellQuote(hostile);
    expect(quoted).toBe("$'run\\E]0;owned\\a\\E[31m\\r\\u009b2J\\b\\x7f\\u202e\\u2066\\n\\t\\'\"\\\\ $x `y`'");
    expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const back = spawnSync('bash', ['-c', `printf %s ${quoted}`], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    expect(back.stdout).toBe(hostile);
  });
});
