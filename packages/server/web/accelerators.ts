import { useEffect, useRef } from 'preact/hooks';

/** Whether keys typed now go into a text field (then they are text, not accelerators). */
export function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'image', 'range', 'color'].includes(target.type);
  return false;
}

/**
 * Answers with a key press: `choose(key)` for a key among `keys` (letters and
 * digits, compared upper-case) pressed without Ctrl, Alt or Meta while focus
 * is not in a text field. Off while `keys` is null.
 */
export function useAccelerators(keys: readonly string[] | null, choose: (key: string) => void): void {
  const latest = useRef(choose);
  latest.current = choose;
  const wanted = keys?.join('\u0000') ?? null;
  useEffect(() => {
    if (wanted === null) return;
    const set = new Set(wanted.split('\u0000'));
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing || event.repeat) return;
      if (typingInField(event.target)) return;
      const key = event.key.length === 1 ? event.key.toUpperCase() : '';
      if (!key || !set.has(key)) return;
      event.preventDefault();
      latest.current(key);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [wanted]);
}
