import type { ConversationMessage } from '@orchestra/core';

/** The heading of each message in a transcript, by role. */
const HEADINGS: Readonly<Record<ConversationMessage['role'], string>> = { human: '## Human', agent: '## Agent' };

/** `preamble` and `prompt` as a CLI agent's stdin: the preamble, a blank line, the prompt. */
export function withPreamble(preamble: string | undefined, prompt: string): string {
  return preamble ? `${preamble}\n\n${prompt}` : prompt;
}

/**
 * A whole conversation as one text for a CLI agent's stdin (which keeps no
 * session): the preamble, then every message under a `## Human` or
 * `## Agent` heading, oldest first.
 */
export function conversationTranscript(preamble: string | undefined, messages: readonly ConversationMessage[]): string {
  const parts = messages.map((m) => `${HEADINGS[m.role]}\n${m.text}`);
  return `${withPreamble(preamble, parts.join('\n\n'))}\n`;
}
