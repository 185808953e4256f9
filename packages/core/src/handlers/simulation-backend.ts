import type { CodergenBackend } from './codergen-backend.js';
import type { Conversation, ConversationalBackend, ConversationMessage } from './conversational-backend.js';
import { simulatedConference } from './conference/simulated-conference.js';

const EXCERPT_LENGTH = 60;

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH - 1)}…` : line;
}

/** A canned conversation: reply N names the stage and quotes the message it answers. */
class SimulatedConversation implements Conversation {
  private replies = 0;

  constructor(private readonly nodeId: string) {}

  async send(message: string): Promise<string> {
    this.replies += 1;
    return `[Simulated] Reply ${this.replies} for stage: ${this.nodeId} (to: "${excerpt(message)}")`;
  }

  restore(messages: readonly ConversationMessage[]): void {
    this.replies = messages.filter((m) => m.role === 'agent').length;
  }
}

/**
 * The `--simulate` backend: a canned response per stage, no model involved;
 * interactive nodes get canned, numbered replies (and can be restored);
 * conference nodes get a simulated tool call with its receipt and a grounded
 * answer from every role.
 */
export const simulationBackend: CodergenBackend & ConversationalBackend = {
  run: async ({ node }) => `[Simulated] Response for stage: ${node.id}`,
  startConversation: ({ node }) => new SimulatedConversation(node.id),
  conference: simulatedConference,
};
