import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/index.js';
import { RunEventLog, type LoggedEvent } from '../../src/supervisor/run-event-log.js';

const at = '2026-11-25T00:00:00.000Z';
const delta = (text: string, turn = 1): RunEvent => ({ type: 'llm.delta', nodeId: 'chat', text, turn, at });

function collect(log: RunEventLog, lastId: number): LoggedEvent[] {
  const got: LoggedEvent[] = [];
  log.follow(lastId, { event: (e) => got.push(e), end: () => got.push({ type: 'end', data: '' }) });
  return got;
}

describe('RunEventLog', () => {
  it('numbers recorded events from the lines already recorded, and never numbers transient ones', () => {
    const log = new RunEventLog(['{"type":"pipeline.started"}', '{"type":"stage.started"}']);
    log.push({ type: 'stage.retrying', nodeId: 'a', index: 1, attempt: 2, delayMs: 5, at });
    log.push(delta('Hel'));
    expect(log.size).toBe(3);
    expect(collect(log, 1).map((e) => [e.id, e.type])).toEqual([
      [2, 'stage.started'],
      [3, 'stage.retrying'],
      [undefined, 'llm.delta'],
    ]);
  });

  it('gives a client that connects mid-message the text streamed so far, once, until the reply is complete', () => {
    const log = new RunEventLog();
    log.push(delta('Hel'));
    log.push(delta('lo'));
    const late = collect(log, 0).filter((e) => e.type === 'llm.delta');
    expect(late.map((e) => JSON.parse(e.data))).toEqual([{ type: 'llm.delta', nodeId: 'chat', text: 'Hello', turn: 1, at }]);
    // A new turn starts a new message.
    log.push(delta('Next', 2));
    expect(collect(log, 0).filter((e) => e.type === 'llm.delta').map((e) => JSON.parse(e.data).text)).toEqual(['Next']);
    log.push({ type: 'conversation.reply', nodeId: 'chat', turn: 2, replayed: false, at });
    expect(collect(log, 0).filter((e) => e.type === 'llm.delta')).toEqual([]);
  });

  it("keeps a phased node's phase on the text streamed so far, and a new phase starts a new message", () => {
    const log = new RunEventLog();
    log.push({ type: 'llm.delta', nodeId: 'dream', text: 'Brief: ', turn: 1, phase: 'summarize', at });
    log.push({ type: 'llm.delta', nodeId: 'dream', text: 'wry.', turn: 1, phase: 'summarize', at });
    expect(collect(log, 0).filter((e) => e.type === 'llm.delta').map((e) => JSON.parse(e.data))).toEqual([{ type: 'llm.delta', nodeId: 'dream', text: 'Brief: wry.', turn: 1, phase: 'summarize', at }]);
    log.push({ type: 'llm.delta', nodeId: 'dream', text: 'Now', turn: 1, phase: 'serialize', at });
    expect(collect(log, 0).filter((e) => e.type === 'llm.delta').map((e) => JSON.parse(e.data))).toEqual([{ type: 'llm.delta', nodeId: 'dream', text: 'Now', turn: 1, phase: 'serialize', at }]);
  });

  it('tells followers when it ends, and a late follower at once after the replay', () => {
    const log = new RunEventLog();
    const live = collect(log, 0);
    log.push({ type: 'pipeline.started', pipeline: 'P', logsRoot: '/x', resumed: false, startNode: 'start', at });
    log.end();
    expect(live.map((e) => e.type)).toEqual(['pipeline.started', 'end']);
    expect(collect(log, 0).map((e) => e.type)).toEqual(['pipeline.started', 'end']);
    expect(log.followers).toBe(0);
  });
});
