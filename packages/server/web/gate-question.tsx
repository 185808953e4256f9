import { useEffect, useRef, useState } from 'preact/hooks';
import { useAccelerators } from './accelerators.js';
import { ApiFailure } from './api.js';
import { clock, duration } from './format.js';
import type { QuestionJson } from './types.js';

/** A choice of a question: a button, its key an accelerator when no other choice shares it. */
export interface Choice {
  key: string;
  label: string;
  /** What is sent as the answer. */
  answer: string;
  accelerator: boolean;
}

export function choicesOf(q: QuestionJson): Choice[] {
  const raw =
    q.type === 'MULTIPLE_CHOICE'
      ? q.options.map((o) => ({ key: o.key.toUpperCase(), label: o.label || o.key, answer: o.key }))
      : q.type === 'YES_NO' || q.type === 'CONFIRMATION'
        ? [
            { key: 'Y', label: 'Yes', answer: 'yes' },
            { key: 'N', label: 'No', answer: 'no' },
          ]
        : [];
  return raw.map((c) => {
    const single = /^[A-Z0-9]$/.test(c.key) && raw.filter((o) => o.key === c.key).length === 1;
    // A key two choices share answers as the first one: send the label instead.
    return { ...c, accelerator: single, answer: single || q.type !== 'MULTIPLE_CHOICE' ? c.answer : c.label };
  });
}

/**
 * Set when the person answered a question here: the next question that
 * appears takes the focus the answered one had (it was removed), so the
 * keyboard goes on from there. Never set on a page's first load.
 */
let answeredHere = false;

export function answerError(error: unknown): string {
  if (error instanceof ApiFailure) {
    if (error.code === 'ORCH_NOT_PENDING') return 'This question is no longer waiting: it was answered elsewhere, timed out, or the run stopped.';
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * A question of a human gate: a button per choice (its key shown, and
 * pressing the key answers while focus is not in a text field, when
 * `accelerators`), or a text box for a free-form answer.
 */
export function GateQuestion({ q, accelerators, onAnswer }: { q: QuestionJson; accelerators: boolean; onAnswer: (answer: string) => Promise<void> }) {
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const choices = choicesOf(q);
  const headingId = `question-${q.id}`;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (answeredHere && lost) heading.current?.focus();
    answeredHere = false;
  }, []);

  const submit = async (answer: string, shown: string) => {
    if (sending !== null) return;
    setSending(shown);
    setError(null);
    try {
      answeredHere = true;
      await onAnswer(answer);
    } catch (e) {
      answeredHere = false;
      setError(answerError(e));
      setSending(null);
    }
  };
  const keys = choices.filter((c) => c.accelerator).map((c) => c.key);
  useAccelerators(accelerators && sending === null && keys.length > 0 ? keys : null, (key) => {
    const choice = choices.find((c) => c.accelerator && c.key === key);
    if (choice) void submit(choice.answer, choice.label);
  });

  const defaultChoice = q.default ? (choices.find((c) => c.answer === q.default || c.key === q.default)?.label ?? q.default) : null;
  return (
    <section class="panel question" aria-labelledby={headingId} data-testid="question">
      <p class="eyebrow">
        Waiting for your answer · <code>{q.node_id}</code> · asked at {clock(q.asked_at)}
        {q.source === 'parked' && ' · the run is parked: answering resumes it here'}
      </p>
      <h2 id={headingId} class="question-text" ref={heading} tabIndex={-1}>
        {q.text}
      </h2>
      {q.timeout_ms !== null && (
        <p class="muted">
          Times out {duration(q.timeout_ms)} after it was asked{defaultChoice ? `, then takes “${defaultChoice}”` : ''}.
        </p>
      )}
      {choices.length > 0 ? (
        <>
          <div class="choices" role="group" aria-labelledby={headingId}>
            {choices.map((c) => (
              <button
                key={c.key + c.label}
                type="button"
                class="choice"
                disabled={sending !== null}
                aria-keyshortcuts={accelerators && c.accelerator ? c.key : undefined}
                onClick={() => void submit(c.answer, c.label)}
              >
                <kbd aria-hidden={accelerators && c.accelerator ? 'true' : undefined}>{c.key}</kbd>
                <span>{c.label}</span>
              </button>
            ))}
          </div>
          {accelerators && keys.length > 0 && <p class="hint">Or press the key of a choice ({keys.join(', ')}) while you are not typing in a text box.</p>}
        </>
      ) : (
        <form
          class="freeform"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) void submit(text, text);
          }}
        >
          <label for={`answer-${q.id}`}>Your answer</label>
          <textarea id={`answer-${q.id}`} rows={3} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} disabled={sending !== null} />
          <button type="submit" disabled={sending !== null || !text.trim()}>
            Send answer
          </button>
        </form>
      )}
      {sending !== null && (
        <p role="status" class="muted">
          Sent “{sending}”…
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
