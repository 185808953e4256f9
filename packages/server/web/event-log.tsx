import { useLayoutEffect, useRef } from 'preact/hooks';
import { clock, eventSummary } from './format.js';
import type { StreamEvent } from './types.js';

const SHOWN = 1000;

/** The run's events as they arrive, newest at the bottom (kept there while the reader is). */
export function EventLog({ events, version, status }: { events: StreamEvent[]; version: number; status: string }) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [version]);
  const onScroll = () => {
    const el = box.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  };
  const hidden = Math.max(0, events.length - SHOWN);
  const shown = hidden > 0 ? events.slice(hidden) : events;
  return (
    <div class="log-wrap">
      <div class="log" ref={box} onScroll={onScroll} tabIndex={0} role="log" aria-label="Events of the run" data-testid="event-log">
        {hidden > 0 && <p class="muted">{hidden} earlier events are not shown.</p>}
        {shown.length === 0 && <p class="muted">No events yet.</p>}
        <ol>
          {shown.map((event, i) => (
            <li key={event.id ?? `t${hidden + i}`} class={`ev ev-${event.type.split('.')[0]} ${/failed|interrupted/.test(event.type) ? 'ev-bad' : ''}`}>
              <time>{clock(event.data.at)}</time>
              <span class="ev-type">{event.type}</span>
              <span class="ev-text">{eventSummary(event)}</span>
            </li>
          ))}
        </ol>
      </div>
      <p class="muted stream-status">
        {status === 'open' ? 'Live' : status === 'ended' ? 'No more events: the run’s process has stopped.' : status === 'retrying' ? 'Lost the event stream; retrying…' : 'Connecting…'}
      </p>
    </div>
  );
}
