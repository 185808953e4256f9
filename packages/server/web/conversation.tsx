import { useRef, useState } from 'preact/hooks';
import { answerError } from './gate-question.js';
import type { StreamedText } from './run-stream.js';
import type { ConversationJson, QuestionJson } from './types.js';

const COMMANDS: Record<string, string> = {
  '/done': 'end the conversation; the stage succeeds',
  '/approve': 'approve and end; the stage succeeds',
  '/reject': 'reject and end; the stage fails',
};

/** Text a phased node's later phases stream after the conversation ended (the last agent message stays shown above it). */
function finishing(streamed: StreamedText): boolean {
  return streamed.phase === 'summarize' || streamed.phase === 'serialize';
}

/** Who writes, as a message shows it: a phased node's later phases are named, so a brief is not taken for a reply. */
export function speakerOf(who: 'agent' | 'human', phase: string | null = null): string {
  if (who === 'human') return 'You';
  if (phase === 'summarize') return 'Agent · summary';
  if (phase === 'serialize') return 'Agent · artifact';
  return 'Agent';
}

function Message({ who, text, extra = '', phase = null }: { who: 'agent' | 'human'; text: string; extra?: string; phase?: string | null }) {
  return (
    <li class={`msg msg-${who} ${extra}`}>
      <span class="msg-who">{speakerOf(who, phase)}</span>
      <p class="msg-text">{text}</p>
    </li>
  );
}

/**
 * The conversation of an interactive node: the prompt, each turn, the
 * agent's message waiting for a reply, the agent's next message as it
 * streams in (`llm.delta`), a message box and the commands that end it.
 * The box takes input only while the node waits (`question` set).
 */
export function ConversationView({
  nodeId,
  conversation,
  question,
  streamed,
  live,
  onAnswer,
}: {
  nodeId: string;
  conversation: ConversationJson | undefined;
  question: QuestionJson | undefined;
  streamed: StreamedText | undefined;
  live: boolean;
  onAnswer: (question: QuestionJson, answer: string) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const [sent, setSent] = useState<{ text: string; turns: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const turns = conversation?.turns ?? [];
  const pending = conversation ? conversation.pending : (question?.text ?? null);
  const showSent = sent !== null && sent.turns === turns.length && !question;
  const commands = question?.conversation?.commands ?? Object.keys(COMMANDS);
  const waitingForAgent = !question && (live || streamed !== undefined);
  const headingId = `conversation-${nodeId}`;

  const send = async (answer: string) => {
    if (!question || sending || !answer.trim()) return;
    setSending(true);
    setError(null);
    try {
      await onAnswer(question, answer);
      setSent({ text: answer, turns: turns.length });
      if (answer === text) setText('');
      // Keep typing where the conversation goes on (the Send button is disabled until the agent replies).
      if (!commands.includes(answer.trim())) box.current?.focus();
    } catch (e) {
      setError(answerError(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <section class="panel conversation" aria-labelledby={headingId} data-testid="conversation">
      <p class="eyebrow">
        Interactive node · <code>{nodeId}</code>
        {question?.conversation ? ` · turn ${question.conversation.turn}` : ''}
      </p>
      <h2 id={headingId}>Conversation with the agent</h2>
      {conversation?.prompt && (
        <details class="prompt">
          <summary>The prompt the agent was given</summary>
          <p class="msg-text">{conversation.prompt}</p>
        </details>
      )}
      <ol class="chat" aria-live="polite" aria-relevant="additions">
        {turns.map((t, i) => [<Message key={`a${i}`} who="agent" text={t.agent} />, <Message key={`h${i}`} who="human" text={t.human} />])}
        {pending !== null && <Message key={`p${turns.length}`} who="agent" text={pending} />}
        {showSent && sent && <Message key={`s${turns.length}`} who="human" text={sent.text} extra="msg-sending" />}
        {streamed && streamed.text && (pending === null || finishing(streamed)) && <Message key={`w${turns.length}-${streamed.phase ?? ''}`} who="agent" text={streamed.text} extra="msg-streaming" phase={streamed.phase} />}
      </ol>
      {waitingForAgent && (
        <p class="muted typing" role="status">
          {live ? 'The agent is writing…' : 'The run is not running: resume it to go on with the conversation.'}
        </p>
      )}
      <form
        class="chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send(text);
        }}
      >
        <label for={`chat-${nodeId}`}>Your message to the agent</label>
        <textarea
          id={`chat-${nodeId}`}
          ref={box}
          rows={3}
          value={text}
          placeholder={question ? 'Write a reply; Enter sends, Shift+Enter starts a new line' : 'Wait for the agent’s message'}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void send(text);
            }
          }}
        />
        <div class="chat-actions">
          <button type="submit" disabled={!question || sending || !text.trim()}>
            Send
          </button>
          {commands.map((command) => (
            <button key={command} type="button" class={`command command-${command.slice(1)}`} disabled={!question || sending} title={COMMANDS[command]} onClick={() => void send(command)}>
              {command}
            </button>
          ))}
        </div>
        <p class="hint">
          {commands.map((c, i) => (
            <span key={c}>
              {i > 0 ? '; ' : ''}
              <code>{c}</code>: {COMMANDS[c] ?? 'ends the conversation'}
            </span>
          ))}
          .
        </p>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
