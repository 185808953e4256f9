import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../cli-helpers.js';
import { withProcessState } from './process-state.js';

/** The helper the in-process CLI tests stand on: what it lends a command, and that it takes it all back. */
describe('withProcessState', () => {
  it('lends the working directory and exactly the environment (os.homedir too), then puts both back', async () => {
    const cwd = process.cwd();
    const before = { ...process.env };
    const dir = realpathSync(tempDir());
    const seen = await withProcessState({ cwd: dir, env: { HOME: dir, ONLY: 'this' } }, async () => ({ cwd: process.cwd(), env: { ...process.env }, home: homedir() }));
    expect(seen).toEqual({ cwd: dir, env: { HOME: dir, ONLY: 'this' }, home: dir });
    expect(process.cwd()).toBe(cwd);
    expect(process.env).toEqual(before);
  });

  it('puts them back when the command throws', async () => {
    const cwd = process.cwd();
    const before = { ...process.env };
    await expect(withProcessState({ cwd: tempDir(), env: {} }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(process.cwd()).toBe(cwd);
    expect(process.env).toEqual(before);
  });

  it('fails a command that leaves a signal handler installed, and removes it', async () => {
    const before = process.listenerCount('SIGINT');
    await expect(withProcessState({ cwd: process.cwd(), env: process.env }, async () => void process.on('SIGINT', () => {}))).rejects.toThrow('a command left SIGINT handler(s) installed');
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('refuses process.exit inside, and lets it be outside', async () => {
    const exit = process.exit;
    await expect(withProcessState({ cwd: process.cwd(), env: process.env }, async () => process.exit(130))).rejects.toThrow('process.exit(130) called by a command running in the test process');
    expect(process.exit).toBe(exit);
  });

  it('lets commands overlap with the same state and refuses another state meanwhile', async () => {
    const state = { cwd: process.cwd(), env: { ...process.env, A: '1' } };
    let release = () => {};
    const first = withProcessState(state, () => new Promise<void>((r) => (release = r)));
    await expect(withProcessState({ ...state, env: { ...state.env, A: '2' } }, async () => {})).rejects.toThrow('need the same working directory and environment');
    await withProcessState(state, async () => expect(process.env.A).toBe('1'));
    expect(process.env.A).toBe('1'); // the first is still running
    release();
    await first;
    expect(process.env.A).toBeUndefined();
  });
});
