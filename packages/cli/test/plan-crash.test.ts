import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturePath, reply, startScriptedOpenAIServer, type RecordedRequest, type ScriptedOpenAIServer } from '@orchestra/testing';
import { BIN, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await server.close();
});

const PROPOSAL = JSON.stringify({
  tasks: [
    { id: 'consistency', description: 'check scene 2 for continuity errors', deps: [] },
    { id: 'prose', description: 'review the prose and pacing of scene 2', deps: ['consistency'] },
  ],
});

function system(r: RecordedRequest): string {
  return String(r.messages?.[0]?.content ?? '');
}

/** The models of the plan: the chief plans (and proposes no follow-ups), JSON steps pass, the rest answer in a line; `hold` delays the editor. */
function models(hold: { editor: number }) {
  return (r: RecordedRequest) => {
    if (system(r).startsWith('You are the chief')) return reply(String(r.lastUserText).includes('findings') ? '{"tasks": []}' : PROPOSAL);
    if (/JSON/.test(String(r.lastUserText))) return reply('{"pass": true, "findings": [], "gaps": [], "approve": true, "concerns": []}');
    if (system(r).startsWith('You are the editor')) return reply('Fix the eyes first.', { delayMs: hold.editor });
    return reply('Notes on the scene.');
  };
}

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('orchestra plan after a SIGKILL', () => {
  it('plan --resume goes on where the killed process stopped: the running task is resumed, nothing finished runs again', async () => {
    const dir = join(tempDir(), 'manuscript');
    cpSync(fixturePath('manuscript'), dir, { recursive: true });
    const env = modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k', NO_COLOR: '1' });
    server.respondWith(models({ editor: 60_000 }));
    const child = spawn(process.execPath, [BIN, 'plan', 'Get scene 2 ready', '--project', dir, '--model', 'scripted-model', '--auto-approve'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    // Killed while the first task's editor is thinking: its continuity step is done and checkpointed.
    await until('the editor call', () => server.completions.some((r) => system(r).startsWith('You are the editor')));
    const file = join(dir, '.orchestra', 'plan.json');
    const before = JSON.parse(readFileSync(file, 'utf8')) as { state: string; tasks: { id: string; state: string; run_id: string | null }[] };
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    expect(before.tasks.map((t) => [t.id, t.state])).toEqual([['consistency', 'running'], ['prose', 'pending']]);
    expect(before.tasks[0]?.run_id).toBeTruthy();
    expect(existsSync(join(dir, '.orchestra', 'runs', before.tasks[0]?.run_id as string, 'checkpoint.json'))).toBe(true);

    const callsBefore = server.completions.length;
    server.respondWith(models({ editor: 0 }));
    const resumed = await cliWith(['plan', '--resume', '--project', dir, '--model', 'scripted-model', '--auto-approve'], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8')) as { state: string; tasks: { state: string; run_id: string }[] };
    expect(after.state).toBe('done');
    expect(after.tasks.map((t) => t.state)).toEqual(['done', 'done']);
    expect(after.tasks[0]?.run_id).toBe(before.tasks[0]?.run_id);
    const later = server.completions.slice(callsBefore);
    // No new plan was proposed, and the first task's continuity step did not run again.
    expect(later.filter((r) => system(r).startsWith('You are the chief') && !String(r.lastUserText).includes('findings'))).toEqual([]);
    expect(later.filter((r) => system(r).startsWith('You are the continuity editor'))).toHaveLength(0);
  }, 60_000);
});
