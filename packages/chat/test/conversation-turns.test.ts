import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { conversationTurns } from '../src/index.js';

describe('conversationTurns', () => {
  it('keeps the person\'s messages and the agent\'s texts, in order; tool calls without text, tool results and system text are left out', () => {
    const turns = conversationTurns([
      new SystemMessage('you are orchestra'),
      new HumanMessage('review it'),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'launch_run', args: { task: 'Review' } }] }),
      new ToolMessage({ tool_call_id: 'c1', content: '{"status":"completed"}' }),
      new AIMessage({ content: 'Launching another.', tool_calls: [{ id: 'c2', name: 'launch_run', args: { task: 'Again' } }] }),
      new ToolMessage({ tool_call_id: 'c2', content: 'The person cancelled this run. Nothing was launched.' }),
      new AIMessage({ content: [{ type: 'text', text: 'Shipped.' }] }),
    ]);
    expect(turns).toEqual([
      { who: 'person', text: 'review it' },
      { who: 'agent', text: 'Launching another.' },
      { who: 'agent', text: 'Shipped.' },
    ]);
  });

  it('shows messages queued during a run as the person typed them', () => {
    expect(conversationTurns([new HumanMessage('(Sent while the run was active:)\nalso this\nand that')])).toEqual([{ who: 'person', text: 'also this\nand that' }]);
  });
});
