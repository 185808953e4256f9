import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry, type CodergenBackend, type RunEvent } from '../../../src/index.js';
import type { ChiefRequest, ConferenceBackend, ConferenceRole, RoleCallRequest } from '../../../src/handlers.js';
import { dot, eventsOf, newLogsRoot, readJson, run, statusAt, tempDir, untilAborted, useTempDirs } from '../../engine/engine-helpers.js';
import { resumePipeline } from '../../../src/index.js';

useTempDirs();

interface FakeOptions {
  roles?: Record<string, Partial<ConferenceRole>>;
  /** The chief's tool calls (each gets a receipt); default one read of canon.md. */
  chief?: (request: ChiefRequest) => Promise<{ reply: string }>;
  /** A role's reply to one call (`n`: its call number, from 1). */
  answer: (request: RoleCallRequest, n: number, receipts: string[]) => string | Promise<string>;
  workspace?: string;
}

/** A backend whose conference side is scripted: what was called is recorded. */
function fakeBackend(options: FakeOptions) {
  const calls = { chief: 0, roles: [] as { role: string; messages: RoleCallRequest['messages']; system: string }[] };
  const receipts: string[] = [];
  const perRole = new Map<string, number>();
  const conference: ConferenceBackend = {
    roles: (names) =>
      names.map((name) => {
        const r = options.roles?.[name];
        if (!r) throw Object.assign(new Error(`"${name}" is not a role`), { code: 'ORCH_UNKNOWN_ROLE', [Symbol.for('orchestra.error')]: true });
        return { name, contract: `You are the ${name}.`, evidence: 'receipt', tier: 'T3', ...r };
      }),
    toolNames: () => ['read_file', 'list_files', 'search_text'],
    async runChief(request) {
      calls.chief += 1;
      if (options.chief) {
        const result = await options.chief(request);
        return { ...result, model: 'chief-model', calls: 1, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } };
      }
      receipts.push(await request.receipt({ tool: 'read_file', arguments: { path: 'canon.md' }, status: 'ok', payload: 'Mara has grey eyes.' }));
      return { reply: `gathered ${receipts.join(', ')}`, model: 'chief-model', calls: 2, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } };
    },
    async askRole(request) {
      const n = (perRole.get(request.role.name) ?? 0) + 1;
      perRole.set(request.role.name, n);
      calls.roles.push({ role: request.role.name, messages: request.messages, system: request.system });
      request.report.response({ model: `${request.role.name}-model`, durationMs: 1, usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } });
      return { text: await options.answer(request, n, receipts), model: `${request.role.name}-model`, usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } };
    },
    workspace: () => options.workspace ?? tempDir(),
  };
  const backend: CodergenBackend = { run: async () => 'unused', conference };
  return { backend, calls, receipts };
}

const REVIEW = (attrs: string) => dot(`  review [type="conference", prompt="Is scene 2 right? $goal", ${attrs}]\n  start -> review -> exit`, 'Conf', 'goal="Check the canon"');

async function runConference(attrs: string, fake: ReturnType<typeof fakeBackend>, extra: { logsRoot?: string; signal?: AbortSignal } = {}) {
  return run(REVIEW(attrs), { registry: createDefaultRegistry({ backend: fake.backend }), source: REVIEW(attrs), ...extra });
}

const cite = (receipts: string[]) => `Evidence: receipt_id: ${receipts[0]}`;

describe('conference node', () => {
  it('runs the chief once, then every role on the same evidence, and records who answered', async () => {
    const fake = fakeBackend({
      roles: { critic: {}, editor: { tier: 'T5' }, continuity: {} },
      answer: (request, _n, receipts) => (request.role.name === 'editor' ? 'ABSTAIN\nnot an editing question' : `${request.role.name} finds it fine.\n${cite(receipts)}`),
    });
    const { result, logsRoot, events } = await runConference('conference.roles="critic, editor, continuity", conference.quorum=2', fake);
    expect(result.status).toBe('success');
    expect(fake.calls.chief).toBe(1);
    // Each role saw the question, the evidence with its receipt id and its own contract, and never another role's reply.
    for (const call of fake.calls.roles) {
      const prompt = call.messages[0]?.content ?? '';
      expect(prompt).toContain('Is scene 2 right? Check the canon');
      expect(prompt).toContain(`[receipt_id: ${fake.receipts[0]}] read_file {"path":"canon.md"} (ok)\nMara has grey eyes.`);
      expect(call.system).toBe(`You are the ${call.role}.`);
      for (const other of ['critic finds', 'continuity finds', 'not an editing question']) expect(prompt).not.toContain(other);
    }
    expect(fake.calls.roles.find((c) => c.role === 'editor')?.messages[0]?.content).toContain('Extra insight:'); // T5's richer prompt
    const record = readJson(join(logsRoot, 'review', 'conference.json'));
    expect(record).toMatchObject({
      format: 'orchestra.conference/1',
      node_id: 'review',
      question: 'Is scene 2 right? Check the canon',
      chief: { model: 'chief-model', calls: 2, receipts: fake.receipts, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
      evidence: [{ receipt_id: fake.receipts[0], tool: 'read_file', arguments: { path: 'canon.md' }, status: 'ok', payload: 'Mara has grey eyes.' }],
      roles: [
        { role: 'critic', tier: 'T3', evidence_rule: 'receipt', status: 'answered', evidence_line: cite(fake.receipts), calls: 1, model: 'critic-model' },
        { role: 'editor', tier: 'T5', status: 'abstained', reason: 'not an editing question', calls: 1 },
        { role: 'continuity', status: 'answered' },
      ],
      quorum: 2,
      answered: 2,
      status: 'success',
    });
    // The receipt is on disk with its payload's hash.
    const line = JSON.parse(readFileSync(join(logsRoot, 'review', 'receipts.jsonl'), 'utf8').trim()) as Record<string, string>;
    expect(line).toMatchObject({ receipt_id: fake.receipts[0], sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(line.sha256).toBe((await import('node:crypto')).createHash('sha256').update('Mara has grey eyes.').digest('hex'));
    const md = readFileSync(join(logsRoot, 'review', 'conference.md'), 'utf8');
    expect(md).toContain('### editor (T5): abstained');
    expect(md).toContain(`### ${fake.receipts[0]}: read_file {"path":"canon.md"}`);
    // Context for edges, usage per phase, events per role.
    const status = statusAt(logsRoot, 'review');
    expect(status).toMatchObject({
      outcome: 'success',
      context_updates: { 'conference.answered': 2, 'conference.critic.status': 'answered', 'conference.editor.status': 'abstained', 'conference.critic.reply': `critic finds it fine.\n${cite(fake.receipts)}` },
      phases: { chief: { calls: 2, usage: { total_tokens: 15 } }, 'role:critic': { calls: 1, usage: { total_tokens: 5 } }, 'role:editor': { calls: 1 } },
      usage: { total_tokens: 30 },
    });
    expect(eventsOf(events, 'conference.role.started').map((e) => e.role).sort()).toEqual(['continuity', 'critic', 'editor']);
    expect(eventsOf(events, 'conference.role.completed').map((e) => [e.role, e.status]).sort()).toEqual([['continuity', 'answered'], ['critic', 'answered'], ['editor', 'abstained']]);
    expect(eventsOf(events, 'llm.response').map((e) => e.phase).sort()).toEqual(['role:continuity', 'role:critic', 'role:editor']);
  });

  it('gives the same record whatever order the roles finish in', async () => {
    const order = async (delays: Record<string, number>) => {
      const fake = fakeBackend({
        roles: { a: {}, b: {}, c: {} },
        answer: async (request, _n, receipts) => {
          await new Promise((r) => setTimeout(r, delays[request.role.name]));
          return `${request.role.name} answers.\n${cite(receipts)}`;
        },
      });
      const { logsRoot, events } = await runConference('conference.roles="a,b,c"', fake);
      const finished = eventsOf(events, 'conference.role.completed').map((e) => e.role);
      const record = readFileSync(join(logsRoot, 'review', 'conference.json'), 'utf8');
      // Apart from times and the receipt ids (new each run), the transcript is the same.
      const normalised = record.replaceAll(fake.receipts[0] as string, 'rcpt_X').replace(/"(at|duration_ms|sha256)": ("[^"]*"|\d+)/g, '"$1": 0');
      return { finished, normalised };
    };
    const first = await order({ a: 1, b: 30, c: 60 });
    const second = await order({ a: 60, b: 30, c: 1 });
    expect(first.finished).toEqual(['a', 'b', 'c']);
    expect(second.finished).toEqual(['c', 'b', 'a']);
    expect(second.normalised).toBe(first.normalised);
  });

  it('sends an ungrounded answer back once with the reason, then records the role as ungrounded', async () => {
    const fake = fakeBackend({
      roles: { critic: {}, liar: {} },
      answer: (request, n, receipts) => (request.role.name === 'critic' ? (n === 1 ? 'No evidence line.' : `Fixed.\n${cite(receipts)}`) : `Trust me.\nEvidence: receipt_id: rcpt_invented${n}`),
    });
    const { result, logsRoot, events } = await runConference('conference.roles="critic,liar"', fake);
    expect(result.status).toBe('success');
    const critic = fake.calls.roles.filter((c) => c.role === 'critic');
    expect(critic).toHaveLength(2);
    expect(critic[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(critic[1]?.messages[2]?.content).toContain('Your answer was not accepted: the answer has no line starting with "Evidence:"');
    const record = readJson<{ roles: Record<string, unknown>[] }>(join(logsRoot, 'review', 'conference.json'));
    expect(record.roles[0]).toMatchObject({ role: 'critic', status: 'answered', calls: 2, rejections: [{ reply: 'No evidence line.' }] });
    expect(record.roles[1]).toMatchObject({ role: 'liar', status: 'ungrounded', calls: 2, reason: expect.stringContaining('rcpt_invented2 is not a receipt of this conference') });
    expect(eventsOf(events, 'conference.role.rejected').map((e) => [e.role, e.final])).toEqual(expect.arrayContaining([['critic', false], ['liar', false], ['liar', true]]));
    expect(statusAt(logsRoot, 'review')).toMatchObject({ context_updates: { 'conference.liar.status': 'ungrounded', 'conference.answered': 1 } });
  });

  it('fails below the quorum with every reason, and a retry asks everyone again', async () => {
    const fake = fakeBackend({ roles: { a: {}, b: {} }, answer: (request) => (request.role.name === 'a' ? 'ABSTAIN\nno idea' : 'Nothing cited.') });
    const { result, logsRoot } = await runConference('conference.roles="a,b", conference.quorum=2, max_retries=1', fake);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toMatch(/^review failed: conference review: 0 of 2 roles answered, quorum is 2 \(a abstained: no idea; b ungrounded: the answer has no line starting with "Evidence:"/);
    expect(fake.calls.chief).toBe(2); // the retry gathered evidence again
    expect(readJson(join(logsRoot, 'review', 'conference.json'))).toMatchObject({ answered: 0, status: 'fail' });
  });

  it('runs a T1 role as triage, finding and evidence, and composes its reply', async () => {
    const fake = fakeBackend({
      roles: { small: { tier: 'T1' }, shy: { tier: 'T1' } },
      answer: (request, n, receipts) => {
        if (request.role.name === 'shy') return 'ABSTAIN: not mine';
        return ['RELEVANT', 'The eyes changed colour.', cite(receipts)][n - 1] as string;
      },
    });
    const { logsRoot } = await runConference('conference.roles="small,shy"', fake);
    const small = fake.calls.roles.filter((c) => c.role === 'small');
    expect(small.map((c) => c.messages[0]?.content.split('\n').pop())).toEqual([
      'Can you, as the small, answer this question from this evidence? Reply with one word: RELEVANT or ABSTAIN.',
      'State your one most important finding, as the small, in one or two sentences. No preamble.',
      expect.stringContaining('Write one line that starts with "Evidence:"'),
    ]);
    expect(small[2]?.messages[0]?.content).toContain('Your finding: The eyes changed colour.');
    const record = readJson<{ roles: Record<string, unknown>[] }>(join(logsRoot, 'review', 'conference.json'));
    expect(record.roles).toMatchObject([
      { role: 'small', tier: 'T1', status: 'answered', calls: 3, reply: `The eyes changed colour.\n\n${cite(fake.receipts)}` },
      { role: 'shy', status: 'abstained', calls: 1, reason: 'not mine' },
    ]);
  });

  it('uses templates from conference/<name>.md next to the pipeline', async () => {
    const dir = tempDir();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'conference'));
    writeFileSync(join(dir, 'conference', 't3.md'), 'CUSTOM for {{role}}: {{question}}\n{{evidence}}');
    const pipeline = join(dir, 'p.dot');
    writeFileSync(pipeline, REVIEW('conference.roles="critic"'));
    const fake = fakeBackend({ roles: { critic: {} }, answer: (_r, _n, receipts) => `ok\n${cite(receipts)}` });
    const { loadPipelineFile, runPipeline } = await import('../../../src/index.js');
    const loaded = await loadPipelineFile(pipeline, { knownHandlerTypes: ['conference'] });
    expect(loaded.ok).toBe(true);
    const result = await runPipeline(loaded.graph!, { registry: createDefaultRegistry({ backend: fake.backend }), logsRoot: newLogsRoot(), sourceFile: pipeline, source: readFileSync(pipeline, 'utf8') } as never);
    expect(result.status).toBe('success');
    expect(fake.calls.roles[0]?.messages[0]?.content).toMatch(/^CUSTOM for critic: Is scene 2 right\? Check the canon\n\[receipt_id: rcpt_/);
  });

  it('fails with a clear reason when the chief gathered nothing although a tool is required', async () => {
    const fake = fakeBackend({ roles: { a: {} }, chief: async () => ({ reply: 'I just know.' }), answer: () => 'x' });
    const { result } = await runConference('conference.roles="a"', fake);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe('review failed: the chief of conference review answered without calling a tool, and conference.require_tool is set: there is no evidence for the roles');
    expect(fake.calls.roles).toHaveLength(0);
  });

  it('refuses before the run an unknown role, and lint refuses no roles and a quorum above them', async () => {
    const fake = fakeBackend({ roles: { a: {} }, answer: () => 'x' });
    await expect(runConference('conference.roles="a,ghost"', fake)).rejects.toThrow('"ghost" is not a role');
    expect(fake.calls.chief).toBe(0);
    await expect(runConference('conference.roles="a", conference.quorum=2', fake)).rejects.toThrow(/conference.quorum=2 is more than its 1 role \(a\) could ever answer/);
    await expect(runConference('conference.roles=""', fake)).rejects.toThrow(/conference node review names no roles/);
    await expect(runConference('conference.roles="a", conference.tools="read_file,format_disk"', fake)).rejects.toThrow(/conference.tools names .{1,2}format_disk.{1,2}, which is no tool/);
  });

  it('resumes after a stop without calling the chief or the roles that answered', async () => {
    const controller = new AbortController();
    let stopAt: string | undefined = 'slow';
    const answer = async (request: RoleCallRequest, _n: number, receipts: string[]) => {
      if (request.role.name === stopAt) {
        controller.abort();
        return untilAborted(request.signal);
      }
      return `${request.role.name} ok.\n${cite(receipts)}`;
    };
    const first = fakeBackend({ roles: { fast: {}, slow: {} }, answer: async (r, n, receipts) => {
      if (r.role.name === 'slow') await new Promise((res) => setTimeout(res, 20)); // fast finishes (and is saved) first
      return answer(r, n, receipts);
    } });
    const logsRoot = newLogsRoot();
    const { result } = await runConference('conference.roles="fast,slow"', first, { logsRoot, signal: controller.signal });
    expect(result.status).toBe('interrupted');
    expect(first.calls.roles.map((c) => c.role).sort()).toEqual(['fast', 'slow']);

    stopAt = undefined;
    const second = fakeBackend({ roles: { fast: {}, slow: {} }, answer: (r, n) => answer(r, n, first.receipts) });
    const events: RunEvent[] = [];
    const resumed = await resumePipeline(logsRoot, { registry: createDefaultRegistry({ backend: second.backend }), onEvent: (e) => events.push(e) });
    expect(resumed.status).toBe('success');
    expect(second.calls.chief).toBe(0);
    expect(second.calls.roles.map((c) => c.role)).toEqual(['slow']);
    const record = readJson<{ roles: { role: string; reply: string }[]; evidence: { receipt_id: string }[] }>(join(logsRoot, 'review', 'conference.json'));
    expect(record.evidence.map((e) => e.receipt_id)).toEqual(first.receipts);
    expect(record.roles.map((r) => r.reply)).toEqual([`fast ok.\n${cite(first.receipts)}`, `slow ok.\n${cite(first.receipts)}`]);
  });

  it('resumes from what a killed process leaves (the run directory as it is mid-conference) without calling the chief or the answered role', async () => {
    // The state a SIGKILL leaves is what is on disk at that instant: a copy of the run directory taken
    // once the fast role's reply is saved, while the slow role is still out, without the live owner's lock.
    const { cpSync, existsSync, rmSync } = await import('node:fs');
    const logsRoot = newLogsRoot();
    const copy = newLogsRoot();
    const controller = new AbortController();
    const first = fakeBackend({
      roles: { fast: {}, slow: {} },
      answer: async (request, _n, receipts) => {
        if (request.role.name === 'fast') return `fast ok.\n${cite(receipts)}`;
        for (let i = 0; i < 500; i++) {
          const checkpoint = existsSync(join(logsRoot, 'checkpoint.json')) ? readJson<{ node_progress?: { review?: { roles?: Record<string, unknown> } } }>(join(logsRoot, 'checkpoint.json')) : undefined;
          if (checkpoint?.node_progress?.review?.roles?.fast) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        cpSync(logsRoot, copy, { recursive: true });
        rmSync(join(copy, 'run.lock'), { force: true });
        controller.abort();
        return untilAborted(request.signal);
      },
    });
    await runConference('conference.roles="fast,slow"', first, { logsRoot, signal: controller.signal });
    const second = fakeBackend({ roles: { fast: {}, slow: {} }, answer: (r) => `${r.role.name} ok.\n${cite(first.receipts)}` });
    const resumed = await resumePipeline(copy, { registry: createDefaultRegistry({ backend: second.backend }) });
    expect(resumed.status).toBe('success');
    expect(second.calls.chief).toBe(0);
    expect(second.calls.roles.map((c) => c.role)).toEqual(['slow']);
    expect(readJson<{ answered: number }>(join(copy, 'review', 'conference.json')).answered).toBe(2);
  });
});
