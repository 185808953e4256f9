import { escapeControl } from '@orchestra/core/loader';
import type { ConversationTurn } from '@orchestra/chat';
import type { Paint } from '../render/colour.js';

/** How many messages `orchestra chat --resume` shows of the conversation so far. */
export const REPLAY_MESSAGES = 6;

/** The most of one message it shows: characters, and lines. */
export const REPLAY_CLIP = { chars: 280, lines: 4 } as const;

/** Options of {@link replayLines}. */
export interface ReplayOptions {
  paint: Paint;
  /** How many of the last messages to show (default {@link REPLAY_MESSAGES}). */
  last?: number;
}

/**
 * The end of a resumed conversation as the chat showed it: a line that
 * says so (and how many earlier messages are not shown), then the last few, the
 * person's as `you › …` and the agent's as `orchestra › …`, each clipped
 * ({@link REPLAY_CLIP}) and with its control characters escaped. Nothing
 * for a conversation without messages.
 */
export function replayLines(turns: readonly ConversationTurn[], options: ReplayOptions): string[] {
  const { paint } = options;
  const shown = turns.slice(-(options.last ?? REPLAY_MESSAGES));
  const earlier = turns.length - shown.length;
  const lines: string[] = [];
  if (shown.length === 0) return lines;
  lines.push(paint('dim', `  (the conversation so far${earlier > 0 ? `; ${earlier} earlier message${earlier === 1 ? '' : 's'} not shown` : ''})`));
  for (const turn of shown) {
    const who = turn.who === 'person' ? paint('bold', 'you ›') : paint('cyan', 'orchestra ›');
    lines.push(`${who} ${escapeControl(clip(turn.text))}`);
  }
  return lines;
}

/** The start of `text`: at most {@link REPLAY_CLIP}'s lines and characters, with `…` where it was cut. */
export function clip(text: string): string {
  const trimmed = text.trim();
  let out = trimmed.split('\n').slice(0, REPLAY_CLIP.lines).join('\n');
  const chars = Array.from(out);
  if (chars.length > REPLAY_CLIP.chars) out = chars.slice(0, REPLAY_CLIP.chars).join('').trimEnd();
  return out.length < trimmed.length ? `${out} …` : out;
}
