import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnswerLater,
  AutoApproveInterviewer,
  CallbackInterviewer,
  QueueInterviewer,
  RecordingInterviewer,
  createDefaultRegistry,
  FileRunStore,
  resumePipeline,
  simulationBackend,
  type CodergenBackend,
  type Conversation,
  type ConversationMessage,
  type ConversationalBackend,
  type Interviewer,
  type Question,
} from '../../src/index.js';
import { CONVERSATION_FILE, createCodergenHandler } from '../../src/handlers.js';
import { RecordedAnswersInterviewer, recordAnswer } from '../../src/human.js';
import { readPendingQuestions } from '../../src/store.js';
import { checkpointAt, dot, eventsOf, run, statusAt, untilAborted, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

/** start → refine (interactive) → publish on success, back to draft on /reject. */
const CHAT = dot(
  '  draft [prompt="Draft it"]\n  refine [agent.mode="interactive", prompt="Discuss the plan for: $goal"]\n  publish [prompt="Publish"]\n' +
    '  start -> draft -> refine\n  refine -> publish [condition="outcome=success"]\n  refine -> draft [condition="context.interactive.command=reject"]\n  publish -> exit',
  'Chat',
  'goal="a shed"',
);

/** The simulation backend, counting model calls and the messages restored into it. */
function countingBackend(options: { restore?: boolean } = {}): CodergenBackend &
  ConversationalBackend & { sends: string[]; restored: ConversationMessage[][]; onSend?: (n: number, signal: AbortSignal) => Promise<void> | void } {
  const backend = {
    sends: [] as string[],
    restored: [] as ConversationMessage[][],
    onSend: undefined as ((n: number, signal: AbortSignal) => Promise<void> | void) | undefined,
    run: simulationBackend.run,
    async startConversation(start: Parameters<ConversationalBackend['startConversation']>[0]): Promise<Conversation> {
      const inner = await simulationBackend.startConversation(start);
      const conversation: Conversation = {
        send: async (message, opts) => {
          backend.sends.push(message);
          await backend.onSend?.(backend.sends.length, opts.signal);
          return inner.send(message, opts);
        },
      };
      if (options.restore !== false) {
        conversation.restore = (messages) => {
          backend.restored.push([...messages]);
          return inner.restore?.(messages);
        };
      }
      return conversation;
    },
  };
  return backend;
}

function registry(interviewer: Interviewer, backend: CodergenBackend = simulationBackend) {
  return createDefaultRegistry({ backend, interviewer });
}

const reply = (n: number, to: string) => `[Simulated] Reply ${n} for stage: refine (to: "${to}")`;
const FIRST = reply(1, 'Discuss the plan for: a shed');

describe('interactive nodes (seed: Interactive Mode Tests)', () => {
  it('multi-turn exchange: agent, human, agent, human /done → SUCCESS with the history in the context', async () => {
    const rec = new RecordingInterviewer(new QueueInterviewer(['make it smaller', 'and cheaper', '/done']));
    const { result, logsRoot, events } = await run(CHAT, { registry: registry(rec) });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'draft', 'refine', 'publish', 'exit']);
    expect(rec.recordings.map((r) => [r.question.type, r.question.stage, r.question.metadata.turn, r.question.text])).toEqual([
      ['FREEFORM', 'refine', 1, FIRST],
      ['FREEFORM', 'refine', 2, reply(2, 'make it smaller')],
      ['FREEFORM', 'refine', 3, reply(3, 'and cheaper')],
    ]);
    expect(result.context['interactive.history']).toEqual([
      { agent: FIRST, human: 'make it smaller' },
      { agent: reply(2, 'make it smaller'), human: 'and cheaper' },
    ]);
    expect(result.context).toMatchObject({ 'interactive.command': 'done', last_stage: 'publish' });
    expect(readFileSync(join(logsRoot, 'refine', 'prompt.md'), 'utf8')).toBe('Discuss the plan for: a shed');
    expect(readFileSync(join(logsRoot, 'refine', 'response.md'), 'utf8')).toBe(reply(3, 'and cheaper'));
    const transcript = readFileSync(join(logsRoot, 'refine', CONVERSATION_FILE), 'utf8');
    for (const text of ['Discuss the plan for: a shed', FIRST, 'make it smaller', reply(2, 'make it smaller'), 'and cheaper', reply(3, 'and cheaper'), '/done']) {
      expect(transcript).toContain(text);
    }
    expect(transcript.indexOf('make it smaller')).toBeLessThan(transcript.indexOf('and cheaper'));
    expect(statusAt(logsRoot, 'refine')).toMatchObject({ outcome: 'success', notes: transcript });
    expect(eventsOf(events, 'conversation.reply').map((e) => [e.turn, e.replayed])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(eventsOf(events, 'human.interaction').map((e) => [e.turn, e.answerText])).toEqual([
      [1, 'make it smaller'],
      [2, 'and cheaper'],
      [3, '/done'],
    ]);
    expect(eventsOf(events, 'conversation.ended')).toEqual([expect.objectContaining({ nodeId: 'refine', turns: 2, command: '/done' })]);
    const interviews = readFileSync(join(logsRoot, 'interviews.jsonl'), 'utf8').trim().split('\n');
    expect(interviews).toHaveLength(3);
  });

  it('/approve ends the conversation with SUCCESS at once', async () => {
    const { result } = await run(CHAT, { registry: registry(new QueueInterviewer(['/approve'])) });
    expect(result.status).toBe('success');
    expect(result.context).toMatchObject({ 'interactive.history': [], 'interactive.command': 'approve' });
  });

  it('/reject fails the node with the note as the reason; the pipeline routes back and a second conversation starts afresh', async () => {
    const backend = countingBackend();
    const { result, events } = await run(CHAT, { registry: registry(new QueueInterviewer(['bigger', '/reject  too vague ', '/approve']), backend) });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'draft', 'refine', 'draft', 'refine', 'publish', 'exit']);
    expect(backend.sends).toEqual(['Discuss the plan for: a shed', 'bigger', 'Discuss the plan for: a shed']);
    expect(eventsOf(events, 'stage.failed').map((e) => e.failureReason)).toEqual(['rejected by the human at turn 2: too vague']);
    expect(result.context).toMatchObject({ 'interactive.command': 'approve', 'interactive.history': [] });
  });

  it('commands are recognised case-insensitively with trailing text; other slash words are messages for the agent', async () => {
    const rec = new RecordingInterviewer(new QueueInterviewer(['/doneish', '/DONE thanks']));
    const { result } = await run(CHAT, { registry: registry(rec) });
    expect(result.status).toBe('success');
    expect(result.context['interactive.history']).toEqual([{ agent: FIRST, human: '/doneish' }]);
    expect(result.context['interactive.command']).toBe('done');
  });

  it('no reply (input ended) fails the node and does not follow the reject route', async () => {
    const { result } = await run(CHAT, { registry: registry(new QueueInterviewer(['/reject', 'one more'])) });
    expect(result.status).toBe('fail');
    expect(result.completedNodes).toEqual(['start', 'draft', 'refine', 'draft', 'refine']);
    expect(result.failureReason).toMatch(/no reply for refine at turn 2 \(input ended or no answers left\)/);
    expect(result.context['interactive.command']).toBe('');
  });

  it('checkpoint per turn: when each agent message is shown, checkpoint.json already holds every turn before it', async () => {
    let logsRoot = '';
    const seen: unknown[] = [];
    const answers = ['one', 'two', '/done'];
    const interviewer = new CallbackInterviewer(() => {
      seen.push(checkpointAt(logsRoot).node_progress);
      const text = answers.shift() as string;
      return { value: text, text };
    });
    const out = await run(CHAT, { registry: registry(interviewer), onEvent: (e) => e.type === 'pipeline.started' && (logsRoot = e.logsRoot) });
    expect(out.result.status).toBe('success');
    const progress = (turns: { agent: string; human: string }[], pending: string) => ({
      refine: { format: 'orchestra.conversation/1', prompt: 'Discuss the plan for: a shed', turns, pending },
    });
    expect(seen).toEqual([
      progress([], FIRST),
      progress([{ agent: FIRST, human: 'one' }], reply(2, 'one')),
      progress(
        [
          { agent: FIRST, human: 'one' },
          { agent: reply(2, 'one'), human: 'two' },
        ],
        reply(3, 'two'),
      ),
    ]);
    expect(checkpointAt(out.logsRoot).node_progress).toEqual({}); // dropped once the node completed
  });

  it('AutoApproveInterviewer answers /approve: CI runs interactive nodes without a human', async () => {
    const { result, events } = await run(CHAT, { registry: registry(new AutoApproveInterviewer()) });
    expect(result.status).toBe('success');
    expect(result.context['interactive.command']).toBe('approve');
    expect(eventsOf(events, 'human.interaction').map((e) => e.answerText)).toEqual(['/approve']);
  });

  it('a human.timeout with no reply asks for a retry, which continues the same conversation', async () => {
    const backend = countingBackend();
    let asks = 0;
    const interviewer = new CallbackInterviewer(() => {
      asks += 1;
      if (asks === 2) return { value: 'TIMEOUT' };
      const text = asks === 1 ? 'hello' : '/done';
      return { value: text, text };
    });
    const source = CHAT.replace('agent.mode="interactive"', 'agent.mode="interactive", human.timeout="5m", max_retries=1');
    const rec = new RecordingInterviewer(interviewer);
    const { result, events } = await run(source, { registry: registry(rec, backend) });
    expect(result.status).toBe('success');
    expect(backend.sends).toEqual(['Discuss the plan for: a shed', 'hello']); // the retry did not start over
    expect(rec.recordings.map((r) => [r.question.metadata.turn, r.question.text, r.question.timeoutMs])).toEqual([
      [1, FIRST, 300_000],
      [2, reply(2, 'hello'), 300_000],
      [2, reply(2, 'hello'), 300_000],
    ]);
    expect(eventsOf(events, 'conversation.resumed')).toEqual([expect.objectContaining({ mode: 'restored', turns: 1 })]);
    expect(eventsOf(events, 'interview.timeout')).toHaveLength(1);
  });

  it('a backend that cannot hold conversations is refused before the run starts', async () => {
    const singleShot: CodergenBackend = { run: async () => 'done' };
    await expect(run(CHAT, { registry: registry(new AutoApproveInterviewer(), singleShot) })).rejects.toMatchObject({
      code: 'ORCH_NO_BACKEND',
      message: expect.stringMatching(/node refine is interactive .* cannot hold a conversation/),
    });
  });
});

describe('codergen dispatcher', () => {
  it('sends nodes without agent.mode to the single-shot backend and interactive ones to a conversation', async () => {
    const backend = countingBackend();
    const runs: string[] = [];
    const tracked = { ...backend, run: async (request: Parameters<CodergenBackend['run']>[0]) => (runs.push(request.node.id), simulationBackend.run(request)) };
    const source = CHAT.replace('publish [prompt="Publish"]', 'publish [prompt="Publish", agent.mode="single"]');
    const { result } = await run(source, { registry: registry(new QueueInterviewer(['/done']), tracked) });
    expect(result.status).toBe('success');
    expect(runs).toEqual(['draft', 'publish']);
    expect(backend.sends).toEqual(['Discuss the plan for: a shed']);
  });
});

describe('resuming a conversation (each human turn is a checkpoint boundary)', () => {
  /** Runs CHAT answering `answers`, then stops the run when the next agent message is shown. */
  async function stopAfter(answers: string[], backend: ReturnType<typeof countingBackend>) {
    const controller = new AbortController();
    const shown: Question[] = [];
    const interviewer = new CallbackInterviewer((question, { signal }) => {
      shown.push(question);
      const text = answers.shift();
      if (text !== undefined) return { value: text, text };
      controller.abort(new Error('test stop'));
      return untilAborted(signal as AbortSignal);
    });
    const out = await run(CHAT, { registry: registry(interviewer, backend), signal: controller.signal, source: CHAT });
    return { ...out, shown };
  }

  it('continues at turn three with the history restored and the model called no extra time', async () => {
    const uninterrupted = countingBackend();
    const whole = await run(CHAT, { registry: registry(new QueueInterviewer(['one', 'two', '/done']), uninterrupted) });

    const backend = countingBackend();
    const first = await stopAfter(['one', 'two'], backend);
    expect(first.result.status).toBe('interrupted');
    expect(first.shown.map((q) => q.metadata.turn)).toEqual([1, 2, 3]);
    const callsBeforeStop = backend.sends.length;

    const rec = new RecordingInterviewer(new QueueInterviewer(['/done']));
    const events: string[] = [];
    const resumed = await resumePipeline(first.logsRoot, { registry: registry(rec, backend), onEvent: (e) => events.push(e.type) });
    expect(resumed.status).toBe('success');
    expect(resumed.completedNodes).toEqual(whole.result.completedNodes);
    expect(resumed.context['interactive.history']).toEqual(whole.result.context['interactive.history']);
    // The human sees the last agent message again, not a new one.
    expect(rec.recordings.map((r) => [r.question.metadata.turn, r.question.text])).toEqual([[3, first.shown[2]?.text]]);
    expect(backend.sends.length).toBe(callsBeforeStop);
    expect(backend.sends).toEqual(uninterrupted.sends);
    expect(backend.restored).toEqual([
      [
        { role: 'human', text: 'Discuss the plan for: a shed' },
        { role: 'agent', text: FIRST },
        { role: 'human', text: 'one' },
        { role: 'agent', text: reply(2, 'one') },
        { role: 'human', text: 'two' },
        { role: 'agent', text: reply(3, 'two') },
      ],
    ]);
    expect(events).toContain('conversation.resumed');
    expect(readFileSync(join(first.logsRoot, 'refine', CONVERSATION_FILE), 'utf8')).toBe(readFileSync(join(whole.logsRoot, 'refine', CONVERSATION_FILE), 'utf8'));
  });

  it('a stop while the agent was replying asks for that reply once more, and only that one', async () => {
    const backend = countingBackend();
    const controller = new AbortController();
    backend.onSend = (n, signal) => {
      if (n !== 3) return;
      controller.abort(new Error('test stop'));
      return untilAborted(signal);
    };
    const answers = ['one', 'two'];
    const interviewer = new CallbackInterviewer(() => {
      const text = answers.shift() as string;
      return { value: text, text };
    });
    const first = await run(CHAT, { registry: registry(interviewer, backend), signal: controller.signal, source: CHAT });
    expect(first.result.status).toBe('interrupted');
    expect(checkpointAt(first.logsRoot).node_progress).toMatchObject({ refine: { pending: null, turns: [{ human: 'one' }, { human: 'two' }] } });

    backend.onSend = undefined;
    const rec = new RecordingInterviewer(new QueueInterviewer(['/done']));
    const resumed = await resumePipeline(first.logsRoot, { registry: registry(rec, backend) });
    expect(resumed.status).toBe('success');
    expect(backend.sends).toEqual(['Discuss the plan for: a shed', 'one', 'two', 'two']);
    expect(backend.restored[0]?.map((m) => m.text)).toEqual(['Discuss the plan for: a shed', FIRST, 'one', reply(2, 'one')]);
    expect(rec.recordings.map((r) => [r.question.metadata.turn, r.question.text])).toEqual([[3, reply(3, 'two')]]);
  });

  it('a backend that cannot restore replays the human messages, and says so', async () => {
    const backend = countingBackend({ restore: false });
    const first = await stopAfter(['one', 'two'], backend);
    expect(first.result.status).toBe('interrupted');

    const informed: string[] = [];
    const queue = new QueueInterviewer(['/done']);
    const interviewer: Interviewer = { ask: (q) => queue.ask(q), inform: (message) => informed.push(message) };
    const events: { type: string; mode?: string; replayed?: boolean; turn?: number }[] = [];
    const resumed = await resumePipeline(first.logsRoot, { registry: registry(interviewer, backend), onEvent: (e) => events.push(e as never) });
    expect(resumed.status).toBe('success');
    expect(informed).toEqual([expect.stringMatching(/cannot restore a conversation: resuming at turn 3 by sending the 3 earlier message\(s\) to the model again/)]);
    expect(events.filter((e) => e.type === 'conversation.resumed')).toEqual([expect.objectContaining({ mode: 'replayed', turns: 2 })]);
    expect(events.filter((e) => e.type === 'conversation.reply').map((e) => [e.turn, e.replayed])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(backend.sends).toEqual(['Discuss the plan for: a shed', 'one', 'two', 'Discuss the plan for: a shed', 'one', 'two']);
  });

  it('a conversation parks at each turn when answers come later, and continues from recorded answers', async () => {
    const backend = countingBackend();
    const later: Interviewer = { ask: async (question) => Promise.reject(new AnswerLater(question)) };
    const { result, logsRoot } = await run(CHAT, { registry: registry(later, backend), source: CHAT });
    expect(result.status).toBe('parked');
    expect((await readPendingQuestions(new FileRunStore(logsRoot)))).toEqual([
      expect.objectContaining({ id: 'refine', question: expect.objectContaining({ text: FIRST, type: 'FREEFORM', metadata: expect.objectContaining({ turn: 1 }) }) }),
    ]);
    expect(existsSync(join(logsRoot, 'refine', CONVERSATION_FILE))).toBe(true);

    expect((await recordAnswer(new FileRunStore(logsRoot), 'make it blue'))).toMatchObject({ id: 'refine' });
    const second = await resumePipeline(logsRoot, { registry: registry(new RecordedAnswersInterviewer(new FileRunStore(logsRoot), undefined), backend) });
    expect(second.status).toBe('parked');
    expect((await readPendingQuestions(new FileRunStore(logsRoot)))[0]?.question).toMatchObject({ text: reply(2, 'make it blue'), metadata: { turn: 2 } });

    expect((await recordAnswer(new FileRunStore(logsRoot), '/done'))).toMatchObject({ id: 'refine' });
    const third = await resumePipeline(logsRoot, { registry: registry(new RecordedAnswersInterviewer(new FileRunStore(logsRoot), undefined), backend) });
    expect(third.status).toBe('success');
    expect(third.context['interactive.history']).toEqual([{ agent: FIRST, human: 'make it blue' }]);
    expect(backend.sends).toEqual(['Discuss the plan for: a shed', 'make it blue']);
  });
});

describe('interactive nodes and retries', () => {
  it('/reject and a missing reply are routed at once, never retried in place, even with max_retries', async () => {
    const source = CHAT.replace('agent.mode="interactive"', 'agent.mode="interactive", max_retries=3');
    const rejected = await run(source, { registry: registry(new QueueInterviewer(['/reject', '/done'])) });
    expect(rejected.result.completedNodes).toEqual(['start', 'draft', 'refine', 'draft', 'refine', 'publish', 'exit']);
    expect(eventsOf(rejected.events, 'stage.retrying')).toEqual([]);

    const unanswered = await run(source, { registry: registry(new QueueInterviewer(['hello'])) });
    expect(unanswered.result.status).toBe('fail');
    expect(eventsOf(unanswered.events, 'stage.retrying')).toEqual([]);
    expect(unanswered.result.context['interactive.history']).toEqual([{ agent: FIRST, human: 'hello' }]);
  });

  it('a revisit that ends without a command leaves no response.md of the earlier visit', async () => {
    const { logsRoot } = await run(CHAT, { registry: registry(new QueueInterviewer(['/reject'])) });
    expect(existsSync(join(logsRoot, 'refine', 'response.md'))).toBe(false);
    expect(readFileSync(join(logsRoot, 'refine', CONVERSATION_FILE), 'utf8')).toContain('## Agent (turn 1)');
  });

  it('a registry with the single-shot codergen handler refuses an interactive node instead of running it single-shot', async () => {
    const reg = createDefaultRegistry({ interviewer: new AutoApproveInterviewer() }).register('codergen', createCodergenHandler(simulationBackend));
    await expect(run(CHAT, { registry: reg })).rejects.toMatchObject({
      code: 'ORCH_NO_BACKEND',
      message: expect.stringContaining('node refine is interactive (agent.mode="interactive") but its codergen handler runs single-shot stages only'),
    });
  });
});
