import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunContext, type CodergenRequest, type ConversationStart, type LlmReporter, type Outcome } from '@orchestra/core';
import { openFileStage } from '@orchestra/core/store';
import type { LlmCall } from '@orchestra/core/handlers';
import { afterEach, describe, expect, it } from 'vitest';
import { CliAgentError, CliAgentTimeoutError, createCliAgentBackend } from '../src/backends/cli-backend.js';
import { eventsOf, dot as pipeline, runWith, useTempDirs } from './helpers.js';
import { isGone, pidFrom, read, removeTempDirs, script, tempDir, waitFor } from './tools/helpers.js';

afterEach(removeTempDirs);
useTempDirs();

interface Recorded extends LlmReporter {
  deltas: string[];
  calls: LlmCall[];
}

function reporter(): Recorded {
  const deltas: string[] = [];
  const calls: LlmCall[] = [];
  return { deltas, calls, delta: (t) => deltas.push(t), response: (c) => calls.push(c), toolCall() {} };
}

function request(dir: string, prompt: string, extra: Partial<Omit<CodergenRequest, 'report'>> = {}): CodergenRequest & { report: Recorded } {
  mkdirSync(join(dir, 'run'), { recursive: true });
  const stage = openFileStage(join(dir, 'run'), 'implement');
  return {
    node: { id: 'implement', attributes: {}, origins: {}, subgraphClasses: [] },
    graph: { name: 'g', attributes: {}, origins: {}, nodes: new Map(), edges: [] },
    prompt,
    context: new RunContext(),
    signal: new AbortController().signal,
    stage,
    stageDir: stage.directory(),
    workdir: dir,
    run: { id: 'run', logsRoot: join(dir, 'run'), completedNodes: [], nodeOutcomes: {}, resumedAfter: 0 },
    fidelity: { mode: 'compact' },
    report: reporter(),
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; retryable?: boolean }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('createCliAgentBackend: run', () => {
  it('sends the preamble and prompt on stdin and answers with stdout, trailing whitespace trimmed', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', 'cat; printf "\\n\\n"');
    const backend = createCliAgentBackend({ command: [agent], timeoutMs: 10_000, preamble: () => 'Context: step 2 of 3.' });
    const req = request(dir, 'Write the plan.');
    expect(await backend.run(req)).toBe('Context: step 2 of 3.\n\nWrite the plan.');
    expect(req.report.calls).toHaveLength(1);
    expect(req.report.calls[0]?.model).toBe('agent.sh');
    expect(await createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).run(request(dir, 'Just this.'))).toBe('Just this.');
  });

  it('passes argv as it is, without a shell', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', 'for a in "$@"; do printf "<%s>" "$a"; done');
    const backend = createCliAgentBackend({ command: [agent, '-p', '$HOME; touch pwned', '*'], timeoutMs: 10_000 });
    expect(await backend.run(request(dir, 'x'))).toBe('<-p><$HOME; touch pwned><*>');
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('streams stdout to report.delta in order', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', 'printf "one "; sleep 0.05; printf "two "; sleep 0.05; printf "three\\n"');
    const req = request(dir, 'go');
    expect(await createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).run(req)).toBe('one two three');
    expect(req.report.deltas.join('')).toBe('one two three\n');
    expect(req.report.deltas[0]?.startsWith('one')).toBe(true);
  });

  it('runs in the workdir with the node, stage and logs directories in its environment', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', 'echo "$PWD|$ORCHESTRA_NODE_ID|$ORCHESTRA_STAGE_DIR|$ORCHESTRA_LOGS_DIR"');
    const req = request(dir, 'go');
    const [pwd, ...rest] = (await createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).run(req) as string).split('|');
    expect(rest).toEqual(['implement', req.stageDir, join(dir, 'run')]);
    expect(pwd?.endsWith(dir.split('/').pop() as string)).toBe(true);
  });

  it('keeps stderr in agent-stderr.log, only when there is some', async () => {
    const dir = tempDir('orchestra-cli-');
    const noisy = script(dir, 'noisy.sh', 'echo "loading model" >&2; echo answer');
    const req = request(dir, 'go');
    expect(await createCliAgentBackend({ command: [noisy], timeoutMs: 10_000 }).run(req)).toBe('answer');
    expect(read(join(req.stageDir, 'agent-stderr.log'))).toBe('loading model\n');
    const quiet = script(dir, 'quiet.sh', 'echo answer');
    const other = request(join(dir, 'q'), 'go');
    await createCliAgentBackend({ command: [quiet], timeoutMs: 10_000 }).run(other);
    expect(existsSync(join(other.stageDir, 'agent-stderr.log'))).toBe(false);
  });

  it('a non-zero exit is a one-line CliAgentError with the end of stderr, control characters escaped', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', 'echo "starting" >&2; printf "\\033[31mfatal:\\033[0m bad key\\n\\n" >&2; exit 2');
    const error = await rejection(createCliAgentBackend({ command: [agent, '-p'], timeoutMs: 10_000 }).run(request(dir, 'go')));
    expect(error).toBeInstanceOf(CliAgentError);
    expect(error.message).toBe(`cli agent "${agent} -p" exited with code 2: starting | \\e[31mfatal:\\e[0m bad key`);
    expect(error.code).toBe('ORCH_CLI_AGENT');
    expect(error.retryable).toBe(false);
    const long = script(dir, 'long.sh', 'i=0; while [ $i -lt 50 ]; do echo "line $i of a long and chatty error output" >&2; i=$((i+1)); done; exit 1');
    const cut = await rejection(createCliAgentBackend({ command: [long], timeoutMs: 10_000 }).run(request(dir, 'go')));
    const tail = cut.message.slice(cut.message.indexOf(': ') + 2);
    expect(tail.length).toBeLessThanOrEqual(300);
    expect(tail.endsWith('line 49 of a long and chatty error output')).toBe(true);
    expect(cut.message).not.toContain('\n');
  });

  it('an agent that prints nothing, or cannot be found, is a CliAgentError', async () => {
    const dir = tempDir('orchestra-cli-');
    const silent = script(dir, 'silent.sh', 'cat > /dev/null');
    expect((await rejection(createCliAgentBackend({ command: [silent], timeoutMs: 10_000 }).run(request(dir, 'go')))).message).toBe(
      `cli agent "${silent}" printed nothing`,
    );
    const missing = await rejection(createCliAgentBackend({ command: ['orchestra-no-such-agent', '-p'], timeoutMs: 10_000 }).run(request(dir, 'go')));
    expect(missing).toBeInstanceOf(CliAgentError);
    expect(missing.message).toBe('cli agent "orchestra-no-such-agent -p": cannot run "orchestra-no-such-agent": not found (ENOENT); check cli_agent.command in orchestra.yaml');
  });

  it('kills the process group at the timeout and throws a retryable TimeoutError', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', `sleep 30 & echo $! > "${dir}/child.pid"; wait`);
    const started = Date.now();
    const error = await rejection(createCliAgentBackend({ command: [agent, '-p'], timeoutMs: 300 }).run(request(dir, 'go')));
    expect(error).toBeInstanceOf(CliAgentTimeoutError);
    expect(error.name).toBe('TimeoutError');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`cli agent "${agent} -p" gave no answer within 300ms; its process group was killed`);
    // Far below the 30 s the sleep would take.
    expect(Date.now() - started).toBeLessThan(5000);
    const child = await pidFrom(join(dir, 'child.pid'));
    expect(await waitFor(() => isGone(child))).toBe(true);
  });

  it("rethrows the abort signal's reason and kills the group", async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', `sleep 30 & echo $! > "${dir}/child.pid"; wait`);
    const controller = new AbortController();
    const running = createCliAgentBackend({ command: [agent], timeoutMs: 60_000 }).run(request(dir, 'go', { signal: controller.signal }));
    const child = await pidFrom(join(dir, 'child.pid'));
    const reason = new Error('node timeout');
    controller.abort(reason);
    expect(await rejection(running)).toBe(reason);
    expect(await waitFor(() => isGone(child))).toBe(true);
  });

  it('cannotRun says what to set when no command is configured', () => {
    const n = { id: 'n', attributes: {}, origins: {}, subgraphClasses: [] };
    const g = { name: '', attributes: {}, origins: {}, nodes: new Map(), edges: [] };
    expect(createCliAgentBackend({ command: [], timeoutMs: 1 }).cannotRun(n, g)).toBe(
      'no CLI agent command is configured: set cli_agent.command in orchestra.yaml (e.g. [claude, -p])',
    );
    expect(createCliAgentBackend({ command: ['claude', '-p'], timeoutMs: 1 }).cannotRun(n, g)).toBeUndefined();
  });
});

describe('createCliAgentBackend: conversations', () => {
  /** An agent that counts its runs in the stage directory, keeps its last stdin, and answers with the number of human messages. */
  function counting(dir: string): string {
    return script(
      dir,
      'agent.sh',
      [
        'n=$(cat "$ORCHESTRA_STAGE_DIR/runs" 2>/dev/null || echo 0)',
        'echo $((n + 1)) > "$ORCHESTRA_STAGE_DIR/runs"',
        'cat > "$ORCHESTRA_STAGE_DIR/stdin.txt"',
        'echo "reply to $(grep -c "^## Human$" "$ORCHESTRA_STAGE_DIR/stdin.txt") human messages"',
      ].join('\n'),
    );
  }

  function start(dir: string): ConversationStart & { report: Recorded } {
    return request(dir, 'Plan the work.') as ConversationStart & { report: Recorded };
  }

  it('sends the whole conversation on every turn', async () => {
    const dir = tempDir('orchestra-cli-');
    const backend = createCliAgentBackend({ command: [counting(dir)], timeoutMs: 10_000, preamble: () => 'You are step 2.' });
    const s = start(dir);
    const conversation = await backend.startConversation(s);
    const signal = new AbortController().signal;
    expect(await conversation.send('Plan the work.', { signal })).toBe('reply to 1 human messages');
    expect(await conversation.send('Shorter, please.', { signal })).toBe('reply to 2 human messages');
    expect(read(join(s.stageDir, 'stdin.txt'))).toBe(
      'You are step 2.\n\n## Human\nPlan the work.\n\n## Agent\nreply to 1 human messages\n\n## Human\nShorter, please.\n',
    );
    expect(read(join(s.stageDir, 'runs')).trim()).toBe('2');
    expect(s.report.calls).toHaveLength(2);
    await conversation.close?.(true);
  });

  it('restore loads past messages without running the agent; the next send continues them', async () => {
    const dir = tempDir('orchestra-cli-');
    const backend = createCliAgentBackend({ command: [counting(dir)], timeoutMs: 10_000 });
    const s = start(dir);
    const conversation = await backend.startConversation(s);
    await conversation.restore?.([
      { role: 'human', text: 'Plan the work.' },
      { role: 'agent', text: 'Here is a plan.' },
      { role: 'human', text: 'Add tests.' },
      { role: 'agent', text: 'Added.' },
    ]);
    expect(existsSync(join(s.stageDir, 'runs'))).toBe(false);
    expect(await conversation.send('Done?', { signal: new AbortController().signal })).toBe('reply to 3 human messages');
    expect(read(join(s.stageDir, 'runs')).trim()).toBe('1');
    expect(read(join(s.stageDir, 'stdin.txt'))).toBe(
      '## Human\nPlan the work.\n\n## Agent\nHere is a plan.\n\n## Human\nAdd tests.\n\n## Agent\nAdded.\n\n## Human\nDone?\n',
    );
  });

  it('a failed turn is not kept in the history', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', 'if [ -f "$ORCHESTRA_STAGE_DIR/fail" ]; then rm "$ORCHESTRA_STAGE_DIR/fail"; exit 1; fi; grep -c "^## Human$"');
    const s = start(dir);
    const conversation = await createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).startConversation(s);
    const signal = new AbortController().signal;
    expect(await conversation.send('one', { signal })).toBe('1');
    script(s.stageDir, 'fail', '');
    await expect(conversation.send('two', { signal })).rejects.toThrow(CliAgentError);
    expect(await conversation.send('two', { signal })).toBe('2');
  });
});

describe('createCliAgentBackend: the status-file contract (spec Appendix C)', () => {
  /** A script line that writes `status` (an object, or raw text) to the stage's status.json. */
  function writesStatus(status: object | string): string {
    const text = typeof status === 'string' ? status : JSON.stringify(status);
    return `cat > "$ORCHESTRA_STAGE_DIR/status.json" <<'EOF'\n${text}\nEOF`;
  }

  const withNode = (attributes: Record<string, string>) => ({ node: { id: 'implement', attributes, origins: {}, subgraphClasses: [] } });

  it('takes the outcome, label, next ids, context updates and notes from the file; the answer stays in response.md and last_response', async () => {
    const dir = tempDir('orchestra-cli-');
    const status = { outcome: 'partial_success', preferred_label: 'Revise', suggested_next_ids: ['draft'], context_updates: { 'review.verdict': 'needs work' }, notes: 'one issue' };
    const agent = script(dir, 'agent.sh', `cat > /dev/null\n${writesStatus(status)}\necho "Please revise section 2."`);
    const req = request(dir, 'Review it.');
    const outcome = await createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).run(req);
    expect(outcome).toEqual({
      status: 'partial_success',
      preferredLabel: 'Revise',
      suggestedNextIds: ['draft'],
      contextUpdates: { last_stage: 'implement', last_response: 'Please revise section 2.', 'review.verdict': 'needs work' },
      notes: 'one issue',
    });
    expect(read(join(req.stageDir, 'response.md'))).toBe('Please revise section 2.');
    expect(req.report.calls).toHaveLength(1);
  });

  it('lets the file win over a non-zero exit, and accepts an agent that only wrote the file', async () => {
    const dir = tempDir('orchestra-cli-');
    const crashy = script(dir, 'crashy.sh', `${writesStatus({ outcome: 'success' })}\necho "done anyway"\necho "telemetry upload failed" >&2; exit 1`);
    const req = request(dir, 'go');
    const outcome = (await createCliAgentBackend({ command: [crashy], timeoutMs: 10_000 }).run(req)) as Outcome;
    expect(outcome.status).toBe('success');
    expect(outcome.notes).toBe('Stage completed: implement (outcome from status.json) [exit code 1; the outcome is the one in status.json]');

    const failing = script(dir, 'failing.sh', `${writesStatus({ outcome: 'fail' })}\necho "bad key" >&2; exit 2`);
    const failed = (await createCliAgentBackend({ command: [failing], timeoutMs: 10_000 }).run(request(join(dir, 'f'), 'go'))) as Outcome;
    expect(failed).toMatchObject({ status: 'fail', failureReason: `cli agent "${failing}" exited with code 2: bad key` });

    const quiet = script(dir, 'quiet.sh', writesStatus({ outcome: 'retry', notes: 'tests still running' }));
    const other = request(join(dir, 'q'), 'go');
    const retry = (await createCliAgentBackend({ command: [quiet], timeoutMs: 10_000 }).run(other)) as Outcome;
    expect(retry).toMatchObject({ status: 'retry', failureReason: `cli agent "${quiet}" reported retry in status.json: tests still running` });
    expect(retry.contextUpdates).toEqual({ last_stage: 'implement', last_response: '' });
    expect(existsSync(join(other.stageDir, 'response.md'))).toBe(false);
  });

  it('fails the stage on an invalid file with the zod message, and on broken JSON with the parser message', async () => {
    const dir = tempDir('orchestra-cli-');
    const invalid = script(dir, 'invalid.sh', `${writesStatus({ outcome: 'done', suggested_next_ids: 'draft' })}\necho answer`);
    const outcome = (await createCliAgentBackend({ command: [invalid], timeoutMs: 10_000 }).run(request(dir, 'go'))) as Outcome;
    expect(outcome.status).toBe('fail');
    expect(outcome.failureReason).toMatch(/^status\.json is invalid: outcome: Invalid option: expected one of "success"\|.*; suggested_next_ids: /);
    const broken = script(dir, 'broken.sh', `${writesStatus('{"outcome": ')}\necho answer`);
    const parsed = (await createCliAgentBackend({ command: [broken], timeoutMs: 10_000 }).run(request(join(dir, 'b'), 'go'))) as Outcome;
    expect(parsed).toMatchObject({ status: 'fail' });
    expect(parsed.failureReason).toMatch(/^status\.json is not valid JSON: \S/);
  });

  it('removes a status.json already in the stage before the agent runs', async () => {
    const dir = tempDir('orchestra-cli-');
    const req = request(dir, 'go');
    writeFileSync(join(req.stageDir, 'status.json'), JSON.stringify({ outcome: 'fail', failure_reason: 'from the last visit' }));
    const agent = script(dir, 'agent.sh', 'echo "fresh answer"');
    expect(await createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).run(req)).toBe('fresh answer');
  });

  it('ignores the file of an agent killed by a signal', async () => {
    const dir = tempDir('orchestra-cli-');
    const agent = script(dir, 'agent.sh', `${writesStatus({ outcome: 'success' })}\necho partial\nkill -9 $$`);
    const error = await rejection(createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }).run(request(dir, 'go')));
    expect(error).toBeInstanceOf(CliAgentError);
    expect(error.message).toBe(`cli agent "${agent}" was killed by SIGKILL`);
  });

  it('auto_status=true: an agent that exits 0 silently, writing no status, succeeds; a failure stays a failure', async () => {
    const dir = tempDir('orchestra-cli-');
    const silent = script(dir, 'silent.sh', 'cat > /dev/null');
    const backend = createCliAgentBackend({ command: [silent], timeoutMs: 10_000 });
    expect(await backend.run(request(dir, 'go', withNode({ auto_status: 'true' })))).toEqual({ status: 'success', notes: 'auto-status: handler completed without writing status' });
    expect((await rejection(backend.run(request(join(dir, 'n'), 'go')))).message).toBe(`cli agent "${silent}" printed nothing`);
    const failing = script(dir, 'failing.sh', 'exit 3');
    const error = await rejection(createCliAgentBackend({ command: [failing], timeoutMs: 10_000 }).run(request(join(dir, 'f'), 'go', withNode({ auto_status: 'true' }))));
    expect(error.message).toBe(`cli agent "${failing}" exited with code 3`);
  });

  it('in a run: the file routes the stage, its context updates stay, and a later visit without a file is not taken for it', async () => {
    const dir = tempDir('orchestra-cli-');
    // review's first visit asks for "Revise" (back to draft); its second writes nothing and exits 0,
    // so its text answer counts and the weight picks exit. A stale file would loop until max_visits.
    const agent = script(
      dir,
      'agent.sh',
      [
        'cat > /dev/null',
        'n=$(cat "$ORCHESTRA_LOGS_DIR/visits-$ORCHESTRA_NODE_ID" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$ORCHESTRA_LOGS_DIR/visits-$ORCHESTRA_NODE_ID"',
        'if [ "$ORCHESTRA_NODE_ID" = review ] && [ $n -eq 1 ]; then',
        writesStatus({ outcome: 'success', preferred_label: 'Revise', context_updates: { 'review.verdict': 'needs work' }, notes: 'one issue' }),
        'echo "Please revise."',
        'else echo "$ORCHESTRA_NODE_ID visit $n"; fi',
      ].join('\n'),
    );
    const source = pipeline(
      [
        '  draft [prompt="Draft it"]',
        '  review [prompt="Review it"]',
        '  start -> draft -> review',
        '  review -> draft [label="Revise"]',
        '  review -> exit [label="Approve", weight=1]',
      ].join('\n'),
      'goal="Ship", default_max_visits=3',
    );
    const { result, logsRoot, events } = await runWith(source, createCliAgentBackend({ command: [agent], timeoutMs: 10_000 }));
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'draft', 'review', 'draft', 'review', 'exit']);
    expect(result.context['review.verdict']).toBe('needs work');
    expect(result.context.last_response).toBe('review visit 2');
    expect(eventsOf(events, 'stage.completed').filter((e) => e.nodeId === 'review').map((e) => e.notes)).toEqual(['one issue', 'Stage completed: review']);
    expect(JSON.parse(read(join(logsRoot, 'review', 'status.json')))).toMatchObject({ outcome: 'success', preferred_label: '', notes: 'Stage completed: review' });
  });
});
