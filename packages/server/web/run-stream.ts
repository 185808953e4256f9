import { useEffect, useRef, useState } from 'preact/hooks';
import { runPath } from './api.js';
import { RUN_EVENT_TYPES } from './event-types.js';
import type { StreamEvent } from './types.js';

/** Agent text streamed in (`llm.delta`) per node: the message being written. */
export interface StreamedText {
  turn: number | null;
  /** The phase of a phased node that writes it (`discuss`, `summarize`, `serialize`); null for any other node. */
  phase: string | null;
  text: string;
}

/** `before` with a streamed piece added: the same message goes on while its turn and phase stay the same; another starts a new one. */
export function addDelta(before: StreamedText | undefined, piece: { turn: number | null; phase: string | null; text: string }): StreamedText {
  return before && before.turn === piece.turn && before.phase === piece.phase ? { ...before, text: before.text + piece.text } : { ...piece };
}

export interface RunStream {
  /** The run's recorded events so far, oldest first (one array, appended to; `version` says it changed). */
  events: StreamEvent[];
  /** Agent text streaming in, by node id. */
  deltas: ReadonlyMap<string, StreamedText>;
  version: number;
  /** `open` while the stream is connected; `ended` once the run's process stopped emitting. */
  status: 'connecting' | 'open' | 'ended' | 'retrying';
}

function parse(data: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(data);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { text: data };
  }
}

/**
 * Follows a run's event stream (`GET /pipelines/{id}/events`, server-sent
 * events, authenticated by the token cookie): collects the recorded events
 * and the streamed agent text, and calls `onEvent(type)` for every event,
 * `questions` and `end` included. Closes the stream at `end` (else the
 * browser would reconnect); `generation` changing opens it again (a resumed
 * run), going on after the last event seen.
 */
export function useRunStream(id: string, generation: number, onEvent: (type: string) => void): RunStream {
  const events = useRef<StreamEvent[]>([]);
  const deltas = useRef(new Map<string, StreamedText>());
  const lastId = useRef(0);
  const callback = useRef(onEvent);
  callback.current = onEvent;
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<RunStream['status']>('connecting');

  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const bump = () => setVersion((v) => v + 1);

    const open = () => {
      setStatus('connecting');
      const es = new EventSource(`${runPath(id, '/events')}?after=${lastId.current}`);
      source = es;
      es.addEventListener('hello', () => setStatus('open'));
      for (const type of RUN_EVENT_TYPES) {
        es.addEventListener(type, (message: MessageEvent<string>) => {
          const eventId = Number(message.lastEventId);
          if (Number.isInteger(eventId) && eventId > 0) {
            if (eventId <= lastId.current) return; // seen before a reconnect
            lastId.current = eventId;
          }
          const data = parse(message.data);
          const actual = typeof data.type === 'string' ? data.type : type;
          events.current.push({ ...(eventId > 0 ? { id: eventId } : {}), type: actual, data });
          // The streamed text is in the run's state once the reply or the stage is over.
          if (typeof data.nodeId === 'string' && (actual === 'conversation.reply' || actual.startsWith('stage.'))) deltas.current.delete(data.nodeId);
          bump();
          callback.current(actual);
        });
      }
      es.addEventListener('llm.delta', (message: MessageEvent<string>) => {
        const data = parse(message.data);
        if (typeof data.nodeId !== 'string' || typeof data.text !== 'string') return;
        const turn = typeof data.turn === 'number' ? data.turn : null;
        const phase = typeof data.phase === 'string' ? data.phase : null;
        deltas.current.set(data.nodeId, addDelta(deltas.current.get(data.nodeId), { turn, phase, text: data.text }));
        bump();
        callback.current('llm.delta');
      });
      es.addEventListener('questions', () => callback.current('questions'));
      es.addEventListener('end', () => {
        es.close();
        deltas.current.clear();
        setStatus('ended');
        bump();
        callback.current('end');
      });
      es.onerror = () => {
        if (stopped) return;
        if (es.readyState !== EventSource.CLOSED) {
          setStatus('connecting'); // the browser reconnects by itself, going on after the last id
          return;
        }
        // Refused (a 401 or 404): say so, and try again later (a refused token brings the token form).
        setStatus('retrying');
        callback.current('error');
        retry = setTimeout(() => {
          if (!stopped) open();
        }, 3000);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [id, generation]);

  return { events: events.current, deltas: deltas.current, version, status };
}
