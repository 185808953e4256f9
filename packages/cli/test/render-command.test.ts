import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { renderCommand } from '../src/commands/render.js';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

describe('orchestra render', () => {
  it('writes an SVG of the pipeline to stdout, or to -o', async () => {
    const out = await cli('render', fixturePath('branching.dot'));
    expect(out.code).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout.startsWith('<?xml')).toBe(true);
    expect(out.stdout).toContain('<title>start</title>');
    const file = join(tempDir(), 'picture.svg');
    expect(await cli('render', fixturePath('branching.dot'), '-o', file)).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(file, 'utf8')).toBe(out.stdout);
  });

  it('colours the nodes by their state in a run with --run', async () => {
    const run = join(tempDir(), 'run');
    expect((await cli('run', fixturePath('failing.dot'), '--quiet', '--logs-dir', run)).code).toBe(1);
    const out = await cli('render', fixturePath('failing.dot'), '--run', run);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('<g id="node&#45;start" class="node state&#45;completed">');
    expect(out.stdout).toContain('<g id="node&#45;build" class="node state&#45;failed">');
    expect(out.stdout).toContain('<g id="node&#45;exit" class="node state&#45;pending">');
  });

  it('refuses an invalid pipeline (exit 1, its diagnostics), and a missing file, a bad --run or an unwritable -o (exit 2)', async () => {
    const invalid = await cli('render', fixturePath('invalid/lint-errors.dot'));
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toContain(`orchestra: ${fixturePath('invalid/lint-errors.dot')} is not a valid pipeline; nothing was drawn`);
    expect(await cli('render', '/nonexistent/p.dot')).toMatchObject({ code: 2, stdout: '' });
    const notRun = tempDir();
    writeFileSync(join(notRun, 'note.txt'), '');
    const badRun = await cli('render', fixturePath('simple.dot'), '--run', notRun);
    expect(badRun.code).toBe(2);
    expect(badRun.stderr).toMatch(/^orchestra: --run: /);
    const blocked = join(tempDir(), 'a-file');
    writeFileSync(blocked, '');
    const badOut = await cli('render', fixturePath('simple.dot'), '-o', join(blocked, 'x.svg'));
    expect(badOut.code).toBe(2);
    expect(badOut.stderr).toBe(`orchestra: cannot write ${join(blocked, 'x.svg')}: ${join(blocked, 'x.svg')} cannot exist: ${blocked} is a file, not a directory\n`);
    expect(existsSync(join(blocked, 'x.svg'))).toBe(false);
  });

  it('draws by the layout attributes it can use and warns at each value it cannot (exit 0)', async () => {
    const file = join(tempDir(), 'p.dot');
    writeFileSync(file, 'digraph P {\n  rankdir=LR\n  splines="sideways"\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n}\n');
    let stdout = '';
    let stderr = '';
    const code = await renderCommand(file, {}, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    expect(code).toBe(0);
    expect(stderr).toBe(`${file}:3:11: warning [render_attribute] splines="sideways" is not used in the picture: expected one of spline, polyline, ortho, curved, line\n`);
    // Left to right: exit's caption is right of start's, on the same line.
    const captionAt = (id: string): number[] => {
      const match = / x="([-\d.]+)" y="([-\d.]+)"/.exec(stdout.slice(stdout.indexOf(`<title>${id}</title>`)));
      return [Number(match?.[1]), Number(match?.[2])];
    };
    const [startX, startY] = captionAt('start');
    const [exitX, exitY] = captionAt('exit');
    expect(startX).toBeLessThan(exitX as number);
    expect(startY).toBe(exitY);
  });
});
