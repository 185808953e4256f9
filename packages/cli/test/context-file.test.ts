import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

function files() {
  const dir = tempDir();
  const pipeline = join(dir, 'p.dot');
  writeFileSync(pipeline, 'digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="Ideas:\\n{{brainstorm.ideas[]}} for {{who}}"]\n  start -> a -> exit\n}\n');
  return { dir, pipeline };
}

describe('orchestra run --context-file', () => {
  it('puts a JSON object into the initial context, values kept as JSON, --set winning on a shared key', async () => {
    const { dir, pipeline } = files();
    const context = join(dir, 'context.json');
    writeFileSync(context, JSON.stringify({ 'brainstorm.ideas': ['kites', 'tides'], who: 'the file', n: 3 }));
    const logs = join(dir, 'run');
    const r = await cli('run', pipeline, '--simulate', '--quiet', '--logs-dir', logs, '--context-file', context, '--set', 'who=the flag');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const checkpoint = JSON.parse(readFileSync(join(logs, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.context).toMatchObject({ 'brainstorm.ideas': ['kites', 'tides'], who: 'the flag', n: 3 });
    // {{path}} references in the prompt read those values.
    expect(readFileSync(join(logs, 'a', 'prompt.md'), 'utf8')).toBe('Ideas:\nkites\ntides for the flag');
  });

  it('refuses a missing file, a directory, text that is not JSON and JSON that is not an object, with exit 2 and nothing run', async () => {
    const { dir, pipeline } = files();
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{ nope');
    const list = join(dir, 'list.json');
    writeFileSync(list, '[1, 2]');
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.json'), /^orchestra: cannot read --context-file .*missing\.json: no such file\n$/],
      [dir, /^orchestra: cannot read --context-file .*: .* is a directory, not a context file\n$/],
      [notJson, /^orchestra: --context-file .*bad\.json is not valid JSON: /],
      [list, /^orchestra: --context-file .*list\.json must hold a JSON object \(context keys and their values\)\n$/],
    ];
    for (const [file, message] of cases) {
      const logs = join(tempDir(), 'run');
      const r = await cli('run', pipeline, '--simulate', '--logs-dir', logs, '--context-file', file);
      expect(r.code, file).toBe(2);
      expect(r.stderr, file).toMatch(message);
    }
  });
});
