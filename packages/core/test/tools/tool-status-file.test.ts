import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunContext } from '../../src/index.js';
import { STAGE_DIR_ENV, toolEnvironment } from '../../src/handlers/tool-environment.js';
import { dot, eventsOf, run, runInMemory, statusAt, tempDir, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

/** Writes a shell script and returns the tool_command that runs it (`sh <path>`; temp paths need no quoting). */
function script(body: string): string {
  const path = join(tempDir(), 'tool.sh');
  writeFileSync(path, `${body}\n`);
  return `sh ${path}`;
}

/** A script line that writes `status` (an object, or raw text) to the stage's status.json. */
function writesStatus(status: object | string): string {
  const text = typeof status === 'string' ? status : JSON.stringify(status);
  return `cat > "$ORCHESTRA_STAGE_DIR/status.json" <<'EOF'\n${text}\nEOF`;
}

/** A script line that counts its runs in `$ORCHESTRA_LOGS_DIR/<name>` and leaves the count in `$n`. */
const counting = (name: string) => `n=$(cat "$ORCHESTRA_LOGS_DIR/${name}" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$ORCHESTRA_LOGS_DIR/${name}"`;

/** t, a tool node running `body`, with two ways out: alpha (label "Alpha") and zeta (label "Zeta"); without a status file, alpha wins (sorts first). */
function forked(body: string, edgeAttrs: { alpha?: string; zeta?: string } = { alpha: 'label="Alpha"', zeta: 'label="Zeta"' }, nodeAttrs = ''): string {
  return dot(
    [
      `  t [shape=parallelogram, tool_command="${script(body)}"${nodeAttrs}]`,
      '  alpha [shape=parallelogram, tool_command="true"]',
      '  zeta [shape=parallelogram, tool_command="true"]',
      '  start -> t',
      `  t -> alpha${edgeAttrs.alpha ? ` [${edgeAttrs.alpha}]` : ''}`,
      `  t -> zeta${edgeAttrs.zeta ? ` [${edgeAttrs.zeta}]` : ''}`,
      '  alpha -> exit',
      '  zeta -> exit',
    ].join('\n'),
  );
}

describe('tool stages: the status-file contract (spec Appendix C)', () => {
  it('gives the command the stage directory as $ORCHESTRA_STAGE_DIR', async () => {
    const { result, logsRoot } = await run(dot(`  t [shape=parallelogram, tool_command="${script('printf %s "$ORCHESTRA_STAGE_DIR"')}"]\n  start -> t -> exit`));
    expect(result.context['tool.output']).toBe(join(logsRoot, 't'));
  });

  it('never passes on an ORCHESTRA_STAGE_DIR orchestra itself inherited (a tool running another orchestra)', () => {
    process.env[STAGE_DIR_ENV] = '/outer/run/stage';
    try {
      expect(toolEnvironment(new RunContext(), '/logs', 'n')[STAGE_DIR_ENV]).toBeUndefined();
      expect(toolEnvironment(new RunContext(), '/logs', 'n', '/logs/n/context.json', '/logs/n')[STAGE_DIR_ENV]).toBe('/logs/n');
    } finally {
      delete process.env[STAGE_DIR_ENV];
    }
  });

  it('routes by the preferred_label the command wrote, and records the final status over its file', async () => {
    const { result, logsRoot } = await run(forked(`${writesStatus({ outcome: 'success', preferred_label: 'Zeta', notes: 'all green' })}\necho checked`));
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 't', 'zeta', 'exit']);
    expect(result.context.preferred_label).toBe('Zeta');
    // The engine's own record replaced the command's file: the full shape, tool.output included.
    expect(statusAt(logsRoot, 't')).toEqual({
      outcome: 'success',
      preferred_label: 'Zeta',
      suggested_next_ids: [],
      context_updates: { 'tool.output': 'checked' },
      notes: 'all green',
    });
  });

  it('reads the file with a store that has no directories of its own (memory store)', async () => {
    const { result } = await runInMemory(forked(writesStatus({ outcome: 'success', preferred_label: 'Zeta' })));
    expect(result.completedNodes).toEqual(['start', 't', 'zeta', 'exit']);
  });

  it('routes by suggested_next_ids when no label matches', async () => {
    const { result } = await run(forked(writesStatus({ outcome: 'success', suggested_next_ids: ['nowhere', 'zeta'] }), {}));
    expect(result.completedNodes).toEqual(['start', 't', 'zeta', 'exit']);
  });

  it('applies context_updates, which later nodes and conditions see', async () => {
    const source = dot(
      [
        `  t [shape=parallelogram, tool_command="${script(writesStatus({ outcome: 'success', context_updates: { 'build.version': '1.2.3', 'build.meta': { ok: true, n: 2 } } }))}"]`,
        `  show [shape=parallelogram, tool_command="${script('printf %s "$ORCHESTRA_CTX_BUILD_VERSION"')}"]`,
        '  never [shape=parallelogram, tool_command="true"]',
        '  start -> t',
        '  t -> show [condition="context.build.version=1.2.3"]',
        '  t -> never [condition="context.build.version!=1.2.3"]',
        '  show -> exit',
        '  never -> exit',
      ].join('\n'),
    );
    const { result } = await run(source);
    expect(result.completedNodes).toEqual(['start', 't', 'show', 'exit']);
    expect(result.context['build.version']).toBe('1.2.3');
    expect(result.context['build.meta']).toEqual({ ok: true, n: 2 });
    expect(result.context['tool.output']).toBe('1.2.3');
  });

  it('lets the file win over the exit code: a non-zero exit with outcome=success succeeds, and the notes say so', async () => {
    const { result, logsRoot } = await run(forked(`${writesStatus({ outcome: 'success', preferred_label: 'Zeta' })}\necho 'warnings only' >&2; exit 3`));
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 't', 'zeta', 'exit']);
    expect(String(statusAt(logsRoot, 't').notes)).toContain('[exit code 3; the outcome is the one in status.json]');
  });

  it('and an exit 0 with outcome=fail fails, routed like any failure', async () => {
    const source = forked(writesStatus({ outcome: 'fail', failure_reason: '3 tests failed' }), { alpha: 'condition="outcome=fail"', zeta: 'condition="outcome=success"' });
    const { result, logsRoot } = await run(source);
    expect(result.completedNodes).toEqual(['start', 't', 'alpha', 'exit']);
    expect(statusAt(logsRoot, 't')).toMatchObject({ outcome: 'fail', failure_reason: '3 tests failed' });
  });

  it('retries on outcome=retry, and the file of the first attempt does not count for the second', async () => {
    // Attempt 1 writes retry; attempt 2 writes nothing and exits 0, so it succeeds on its exit code.
    const body = `${counting('tries')}\nif [ $n -eq 1 ]; then ${writesStatus({ outcome: 'retry', notes: 'db not up yet' })}\nfi\necho attempt $n`;
    const { result, logsRoot, events } = await run(dot(`  t [shape=parallelogram, max_retries=1, tool_command="${script(body)}"]\n  start -> t -> exit`));
    expect(result.status).toBe('success');
    expect(readFileSync(join(logsRoot, 'tries'), 'utf8').trim()).toBe('2');
    expect(eventsOf(events, 'stage.failed')[0]).toMatchObject({ nodeId: 't', failureReason: 'tool_command reported retry in status.json: db not up yet', willRetry: true });
    expect(result.context['tool.output']).toBe('attempt 2');
  });

  it('never counts a status.json from an earlier visit', async () => {
    // Visit 1 asks for "Again" (back to t); visit 2 writes nothing, so the weight picks exit.
    // Reading visit 1's file (or the engine's record of it) again would loop until max_visits.
    const body = `${counting('visits')}\nif [ $n -eq 1 ]; then ${writesStatus({ outcome: 'success', preferred_label: 'Again' })}\nfi`;
    const source = dot(
      [
        `  t [shape=parallelogram, tool_command="${script(body)}"]`,
        '  back [shape=parallelogram, tool_command="true"]',
        '  start -> t',
        '  t -> back [label="Again"]',
        '  t -> exit [label="Done", weight=1]',
        '  back -> t',
      ].join('\n'),
      'P',
      'default_max_visits=4',
    );
    const { result, logsRoot } = await run(source);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 't', 'back', 't', 'exit']);
    expect(statusAt(logsRoot, 't')).toMatchObject({ outcome: 'success', preferred_label: '' });
  });

  it('fails the node on an invalid file with the zod message, and on broken JSON with the parser message', async () => {
    const invalid = await run(forked(`${writesStatus({ outcome: 'great', preferred_label: 'Zeta' })}\necho done`));
    expect(invalid.result.status).toBe('fail');
    expect(invalid.result.failureReason).toMatch(/^t failed: status\.json is invalid: outcome: Invalid option: expected one of "success"\|/);
    expect(statusAt(invalid.logsRoot, 't')).toMatchObject({ outcome: 'fail', preferred_label: '' });

    const broken = await run(forked(writesStatus('{"outcome": "success",')));
    expect(broken.result.status).toBe('fail');
    expect(broken.result.failureReason).toMatch(/^t failed: status\.json is not valid JSON: \S/);
  });

  it('ignores the file of a command killed by a signal', async () => {
    const write = script(writesStatus({ outcome: 'success' }));
    const { result } = await run(dot(`  t [shape=parallelogram, tool_command="${write}; kill -9 $$"]\n  start -> t -> exit`));
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('killed by SIGKILL');
  });

  it('auto_status changes nothing for a tool: the exit code always gives an outcome, and a file still decides', async () => {
    const ok = await run(dot(`  t [shape=parallelogram, auto_status=true, tool_command="echo fine"]\n  start -> t -> exit`));
    expect(ok.result.status).toBe('success');
    expect(statusAt(ok.logsRoot, 't').notes).toBe('Tool completed: echo fine');

    const failing = await run(dot(`  t [shape=parallelogram, auto_status=true, tool_command="exit 5"]\n  start -> t -> exit`));
    expect(failing.result.status).toBe('fail');
    expect(failing.result.failureReason).toContain('exit code 5');

    const reported = await run(dot(`  t [shape=parallelogram, auto_status=true, tool_command="${script(writesStatus({ outcome: 'fail', failure_reason: 'said so' }))}"]\n  start -> t -> exit`));
    expect(reported.result.failureReason).toBe('t failed: said so');
  });
});

describe('tool stages: tool.output', () => {
  it('drops the trailing newlines of stdout, so a condition can compare it, and keeps stdout.log byte for byte', async () => {
    const source = dot(
      [
        '  t [shape=parallelogram, tool_command="echo present"]',
        '  yes [shape=parallelogram, tool_command="true"]',
        '  no [shape=parallelogram, tool_command="true"]',
        '  start -> t',
        '  t -> yes [condition="tool.output=present"]',
        '  t -> no [condition="tool.output!=present"]',
        '  yes -> exit',
        '  no -> exit',
      ].join('\n'),
    );
    const { result, logsRoot } = await run(source);
    expect(result.completedNodes).toEqual(['start', 't', 'yes', 'exit']);
    expect(readFileSync(join(logsRoot, 't', 'stdout.log'), 'utf8')).toBe('present\n');
    expect(statusAt(logsRoot, 't').context_updates).toEqual({ 'tool.output': 'present' });
  });

  it('removes only newlines, all of them, and only at the end', async () => {
    const { result, logsRoot } = await run(dot(`  t [shape=parallelogram, tool_command="${script("printf 'two\\n\\nlines \\t\\n\\n\\n'")}"]\n  start -> t -> exit`));
    expect(result.context['tool.output']).toBe('two\n\nlines \t');
    expect(readFileSync(join(logsRoot, 't', 'stdout.log'), 'utf8')).toBe('two\n\nlines \t\n\n\n');
    expect(existsSync(join(logsRoot, 't', 'stderr.log'))).toBe(true);
  });
});
