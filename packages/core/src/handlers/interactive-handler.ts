import type { Handler, HandlerInput } from '../engine/handler.js';
import type { JsonValue, Outcome } from '../engine/outcome.js';
import { durationAttr } from '../graph/values.js';
import type { Interviewer } from '../human/interviewer.js';
import { conversationQuestion, parseConversationCommand } from '../human/conversation-question.js';
import { askHuman, recordInteraction } from './ask-human.js';
import { LAST_RESPONSE_LENGTH } from './codergen-handler.js';
import { composeStagePrompt } from './compose-prompt.js';
import {
  ConversationProgressSchema,
  conversationMarkdown,
  progressMessages,
  type ConversationProgress,
  type ConversationTurn,
} from './conversation-progress.js';
import type { Conversation, ConversationalBackend } from './conversational-backend.js';
import { resolveFidelity } from './fidelity.js';
import { withStageDir } from '../engine/store/lazy-stage-dir.js';
import { createStageReporter, withSpentUsage } from './stage-reporter.js';

/** The transcript file of an interactive node, in its stage directory. */
export const CONVERSATION_FILE = 'conversation.md';

/** One attempt's conversation, and the turn the agent is replying to (for the reports of the call under way). */
interface Talk {
  conversation: Conversation;
  turn: { current: number | undefined };
}

/** Sends a message and announces the reply (`turn`: the agent message's number; streamed pieces and usage are reported under it). */
async function reply(input: HandlerInput, talk: Talk, message: string, turn: number, replayed = false): Promise<string> {
  talk.turn.current = turn;
  const text = await talk.conversation.send(message, { signal: input.signal });
  input.emit({ type: 'conversation.reply', nodeId: input.node.id, turn, replayed });
  return text;
}

/**
 * Picks up a conversation the node saved earlier (in a process that stopped,
 * or in an attempt that asked for a retry): restores it into
 * the backend without calling the model when the backend can, else sends the
 * human messages again (and says so). Returns the agent message to show.
 */
async function resumeConversation(input: HandlerInput, interviewer: Interviewer, talk: Talk, saved: ConversationProgress): Promise<string> {
  const { conversation } = talk;
  const { node, emit } = input;
  const done = saved.turns.length;
  const last = saved.turns.at(-1);
  if (conversation.restore) {
    const messages = progressMessages(saved);
    // With no pending message the reply to the last human message never arrived: restore up to it, then ask for it.
    await conversation.restore(saved.pending === null && last ? messages.slice(0, -1) : messages);
    emit({ type: 'conversation.resumed', nodeId: node.id, turns: done, mode: 'restored' });
    // A retry in this process continues quietly (the run already said it retries); a resumed run says where it picks up.
    if (input.attempt === 1) {
      const restored = done > 0 ? `: ${done} earlier turn(s) restored without calling the model` : ', without calling the model';
      interviewer.inform?.(`resuming the conversation at turn ${done + 1}${restored}`, node.id);
    }
    if (saved.pending !== null) return saved.pending;
    return last ? reply(input, talk, last.human, done + 1) : reply(input, talk, saved.prompt, 1);
  }
  emit({ type: 'conversation.resumed', nodeId: node.id, turns: done, mode: 'replayed' });
  interviewer.inform?.(
    `this backend cannot restore a conversation: resuming at turn ${done + 1} by sending the ${done + 1} earlier message(s) to the model again; its replies may differ from before`,
    node.id,
  );
  let latest = await reply(input, talk, saved.prompt, 1, done > 0 || saved.pending !== null);
  for (const [i, turn] of saved.turns.entries()) latest = await reply(input, talk, turn.human, i + 2, i + 1 < done || saved.pending !== null);
  return latest;
}

/**
 * The interactive LLM stage (`agent.mode="interactive"`): sends the composed
 * prompt, shows each agent message to the human as a free-text question and
 * sends the reply back, until the human answers `/done` or `/approve`
 * (SUCCESS) or `/reject` (FAIL). Every agent message and every human reply is
 * saved as the node's progress, so a resumed run continues the conversation
 * at the turn it stopped at. Writes `prompt.md`, `conversation.md` (after
 * every message) and `response.md` (the last agent message); the context gets
 * `interactive.history` (the turns before the command, `{ agent, human }`),
 * `interactive.command`, `last_stage` and `last_response`. `human.timeout`
 * limits each wait for a reply (then the node asks for a retry, which
 * continues the same conversation).
 */
export function createInteractiveHandler(backend: ConversationalBackend, interviewer: Interviewer): Handler {
  return {
    cannotRun: backend.cannotRun ? (node, graph) => backend.cannotRun?.(node, graph) : undefined,
    async execute(input) {
      const { node, graph, stage, emit } = input;
      let saved: ConversationProgress | undefined;
      if (input.progress !== undefined) {
        const parsed = ConversationProgressSchema.safeParse(input.progress);
        if (!parsed.success) return { status: 'fail', failureReason: `the saved conversation of ${node.id} is unreadable (${parsed.error.issues[0]?.message ?? 'unexpected shape'})` };
        saved = parsed.data;
      }
      const prompt = saved?.prompt ?? composeStagePrompt(node, graph, input.context);
      await stage.write('prompt.md', prompt);
      if (!saved) await stage.remove('response.md'); // an earlier visit's, in a reused stage
      const turns: ConversationTurn[] = saved ? [...saved.turns] : [];
      const transcript = (pending: string | null, ending?: string) => conversationMarkdown(node.id, prompt, turns, pending, ending);
      const save = async (pending: string | null, finishing?: { ended: string; finish?: JsonValue }) => {
        await input.saveProgress({ format: 'orchestra.conversation/1', prompt, turns, pending, ...finishing } satisfies ConversationProgress);
        await stage.write(CONVERSATION_FILE, transcript(pending));
      };
      const timeoutMs = durationAttr(node, 'human.timeout');
      const replying: Talk['turn'] = { current: undefined };
      const { reporter, usage } = createStageReporter(input, () => replying.current);
      const spent = () => {
        const u = usage();
        return u ? { usage: u } : {};
      };
      const conversation = await backend.startConversation(
        withStageDir({
          node,
          graph,
          prompt,
          context: input.context,
          signal: input.signal,
          stage,
          workdir: input.workdir,
          run: input.run,
          fidelity: resolveFidelity(graph, node, input.arrival),
          processes: input.processes,
          report: reporter,
      }),
      );
      const talk: Talk = { conversation, turn: replying };
      let ended = false;
      /** Ends the conversation with `command` and hands it to the backend's `finish` (a phased node: Summarize, Serialize). */
      const finishWith = async (command: string, pending: string, earlier: JsonValue | undefined, resumed = false): Promise<Outcome> => {
        const finish = conversation.finish?.bind(conversation) as NonNullable<typeof conversation.finish>;
        const notes = transcript(pending, command);
        await stage.write(CONVERSATION_FILE, notes);
        await stage.write('response.md', pending);
        if (!resumed) emit({ type: 'conversation.ended', nodeId: node.id, turns: turns.length, command });
        ended = true;
        await save(pending, { ended: command, ...(earlier !== undefined ? { finish: earlier } : {}) });
        const outcome = await finish({
          signal: input.signal,
          progress: earlier,
          saveProgress: (data) => save(pending, { ended: command, ...(data !== undefined ? { finish: data } : {}) }),
        });
        const contextUpdates = { 'interactive.history': turns, 'interactive.command': command.slice(1), last_stage: node.id, last_response: pending.slice(0, LAST_RESPONSE_LENGTH), ...outcome.contextUpdates };
        return { ...outcome, contextUpdates, notes: outcome.notes ?? notes, ...spent() };
      };
      try {
        if (saved?.ended !== undefined && conversation.finish) {
          // The conversation had ended and its finish was under way when the process stopped: go on with it.
          if (conversation.restore) await conversation.restore(progressMessages(saved));
          emit({ type: 'conversation.resumed', nodeId: node.id, turns: saved.turns.length, mode: 'restored' });
          return await finishWith(saved.ended, saved.pending ?? '', saved.finish as JsonValue | undefined, true);
        }
        let pending = saved ? await resumeConversation(input, interviewer, talk, saved) : await reply(input, talk, prompt, 1);
        for (;;) {
          const turn = turns.length + 1;
          if (conversation.finish && (conversation.ready || (conversation.maxTurns !== undefined && turn >= conversation.maxTurns))) {
            // The agent said it has what it needs, or the turns ran out: ended as with /done (saved as
            // ended in the same write that keeps the reply, so a resumed node does not ask about it).
            interviewer.inform?.(conversation.ready ? 'the agent has what it needs; summarizing the conversation' : `the conversation reached its ${conversation.maxTurns} turns; summarizing it`, node.id);
            return await finishWith('/done', pending, undefined);
          }
          await save(pending);
          const question = conversationQuestion(node.id, pending, turn, timeoutMs);
          const answer = await askHuman(input, interviewer, question);
          recordInteraction(input, question, answer);
          if (answer.value === 'SKIPPED') {
            // No human is there: a retry cannot help, and the context must not keep an earlier visit's
            // `interactive.command=reject`, or a route on it would loop.
            return {
              status: 'fail',
              failureReason: `no reply for ${node.id} at turn ${turn} (input ended or no answers left)`,
              contextUpdates: { 'interactive.history': turns, 'interactive.command': '' },
              retryable: false,
              ...spent(),
            };
          }
          if (answer.value === 'TIMEOUT') return { status: 'retry', failureReason: `no reply for ${node.id} within ${node.attributes['human.timeout'] ?? 'the time allowed'}`, ...spent() };
          const text = answer.text ?? answer.value;
          const command = parseConversationCommand(text);
          if (command && command.command !== '/reject' && conversation.finish) return await finishWith(command.command, pending, undefined);
          if (command) {
            const notes = transcript(pending, text);
            await stage.write(CONVERSATION_FILE, notes);
            await stage.write('response.md', pending);
            emit({ type: 'conversation.ended', nodeId: node.id, turns: turns.length, command: command.command });
            ended = true;
            const contextUpdates = {
              'interactive.history': turns,
              'interactive.command': command.command.slice(1),
              last_stage: node.id,
              last_response: pending.slice(0, LAST_RESPONSE_LENGTH),
            };
            if (command.command !== '/reject') return { status: 'success', notes, contextUpdates, ...spent() } satisfies Outcome;
            const reason = `rejected by the human at turn ${turn}${command.note ? `: ${command.note}` : ''}`;
            // A human decision: routed at once, never retried in place.
            return { status: 'fail', failureReason: reason, notes, contextUpdates, retryable: false, ...spent() } satisfies Outcome;
          }
          turns.push({ agent: pending, human: text });
          save(null);
          pending = await reply(input, talk, text, turns.length + 1);
        }
      } catch (error) {
        throw withSpentUsage(error, usage());
      } finally {
        await conversation.close?.(ended);
      }
    },
  };
}
