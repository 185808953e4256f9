import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandEnvironment, createWorkspaceTools } from '../../src/tools/index.js';
import { call, isGone, pidFrom, removeTempDirs, tempDir, waitFor, write } from './helpers.js';

afterEach(removeTempDirs);

function commandTools(root: string, commandTimeoutMs = 10_000, env: NodeJS.ProcessEnv = { PATH: process.env.PATH }, scrubEnv?: string[]) {
  return createWorkspaceTools({ root, tools: ['run_command'], commandTimeoutMs, env, ...(scrubEnv ? { scrubEnv } : {}) });
}

describe('run_command', () => {
  it('runs the command in the workspace root and reports exit code, stdout and stderr', async () => {
    const root = tempDir();
    write(root, 'hello.txt', 'hi there\n');
    expect(await call(commandTools(root), 'run_command', { command: 'cat hello.txt; echo warn >&2; exit 4' })).toBe(
      'exit code 4\n--- stdout ---\nhi there\n--- stderr ---\nwarn',
    );
    expect(await call(commandTools(root), 'run_command', { command: 'true' })).toBe('exit code 0 (no output)');
    expect(await call(commandTools(root), 'run_command', { command: 'pwd' })).toMatch(new RegExp(`^exit code 0\\n--- stdout ---\\n.*${root.split('/').pop()}$`));
  });

  it('takes no working directory from the model: a cwd or path of .. is ignored and the command starts in the workspace root', async () => {
    const root = tempDir();
    expect(await call(commandTools(root), 'run_command', { command: 'pwd', cwd: '..', path: '..', working_directory: '..' })).toBe(
      `exit code 0\n--- stdout ---\n${realpathSync(root)}`,
    );
  });

  it('passes the command as one argument: quotes and substitutions are the shell\'s, nothing is added', async () => {
    const root = tempDir();
    expect(await call(commandTools(root), 'run_command', { command: `printf '%s|' "a b" 'c"d' '$(x)'` })).toBe('exit code 0\n--- stdout ---\na b|c"d|$(x)|');
  });

  it('escapes control characters and cuts long output with a note', async () => {
    const root = tempDir();
    expect(await call(commandTools(root), 'run_command', { command: "printf 'red \\033[31mX\\r\\a\\tok\\n'" })).toBe('exit code 0\n--- stdout ---\nred \\e[31mX\\r\\x07\tok');
    const long = await call(commandTools(root), 'run_command', { command: 'seq 1 20000' });
    expect(long.length).toBeLessThan(31_000);
    expect(long).toMatch(/\n\[\.\.\. \d+ characters left out \.\.\.\]\n/);
    expect(long.startsWith('exit code 0\n--- stdout ---\n1\n2\n3\n')).toBe(true);
    expect(long.endsWith('\n19999\n20000')).toBe(true);
  });

  it('hides API keys, tokens and secrets from the command', async () => {
    const root = tempDir();
    // Values no temporary directory name (mkdtemp's 6-character suffix, seen through PWD) or PATH can contain by chance.
    const secrets = {
      OPENAI_API_KEY: 'secret-value-openai-7f3a9c1e',
      GITHUB_TOKEN: 'secret-value-github-2b8d4e6a',
      MY_SECRET: 'secret-value-mine-5c0f1a93',
      AWS_SECRET_ACCESS_KEY: 'secret-value-aws-e4d7b260',
      CUSTOM_KEY_VAR: 'secret-value-custom-91ac3f58',
    };
    const env = { PATH: process.env.PATH, ...secrets, VISIBLE: 'ok' };
    const out = await call(commandTools(root, 10_000, env, ['CUSTOM_KEY_VAR']), 'run_command', { command: 'env' });
    expect(out).toContain('VISIBLE=ok');
    for (const [name, secret] of Object.entries(secrets)) expect(out, name).not.toContain(secret);
    expect(commandEnvironment({ A_TOKEN: 'x', TOKENIZER: 'y', PASSWORD: 'z', openai_api_key: 'w' })).toEqual({ TOKENIZER: 'y' });
  });

  it('kills the whole process group at the timeout (the smaller of the request and the limit)', async () => {
    const root = tempDir();
    const started = Date.now();
    const out = await call(commandTools(root, 300), 'run_command', { command: 'sleep 30 & echo $! > child.pid; echo waiting; wait', timeout_seconds: 60 });
    expect(out).toBe('timed out after 0.3s; the process group was killed\n--- stdout ---\nwaiting');
    // Far below the 30 s the sleep would take.
    expect(Date.now() - started).toBeLessThan(5000);
    const child = await pidFrom(join(root, 'child.pid'));
    expect(await waitFor(() => isGone(child))).toBe(true);
    expect(await call(commandTools(root, 60_000), 'run_command', { command: 'sleep 30', timeout_seconds: 0.2 })).toBe(
      'timed out after 0.2s; the process group was killed (no output)',
    );
  });

  it('kills the whole process group when the tool call is aborted', async () => {
    const root = tempDir();
    const controller = new AbortController();
    const running = call(commandTools(root), 'run_command', { command: 'sleep 30 & echo $! > child.pid; wait' }, controller.signal);
    const child = await pidFrom(join(root, 'child.pid'));
    controller.abort(new Error('stage stopped'));
    await expect(running).rejects.toThrow();
    expect(await waitFor(() => isGone(child))).toBe(true);
  });

  it('gets an empty stdin', async () => {
    const root = tempDir();
    expect(await call(commandTools(root), 'run_command', { command: 'cat; echo end' })).toBe('exit code 0\n--- stdout ---\nend');
  });
});
