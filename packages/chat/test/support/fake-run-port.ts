import type { RunResult } from '../../src/index.js';
import type { RunPort, RunQuestion } from '../../src/session/run-port.js';

/** A run's result with the given fields (a completed run by default). */
export function runResult(fields: Partial<RunResult> = {}): RunResult {
  return {
    id: 'r1',
    task: 'task',
    pipeline: 'template:single',
    status: 'completed',
    duration_ms: 1,
    tokens: null,
    final_response: 'done',
    artifacts: [],
    run_dir: '/nowhere',
    failure_reason: null,
    completed_nodes: ['start', 'exit'],
    questions: [],
    ...fields,
  };
}

/**
 * A {@link RunPort} driven by the test: runs start as `r1`, `r2`, ...; a
 * followed run asks what {@link FakeRunPort.ask} hands it and stops at
 * {@link FakeRunPort.stop} (at once with `stopAtOnce`). Every call is logged.
 */
export class FakeRunPort implements RunPort {
  readonly calls: string[] = [];
  nextResult: RunResult = runResult();
  startError: Error | undefined;
  stopAtOnce = true;
  private listeners = new Map<string, { onQuestions: (q: RunQuestion[]) => void; stop: () => void }>();
  private started = 0;

  prepare(params: unknown) {
    this.calls.push(`prepare ${JSON.stringify(params)}`);
    const { task } = params as { task?: unknown };
    if (typeof task !== 'string' || task === '') throw new Error('launch_run: task is empty');
    return { input: { task }, pipeline: 'template:single', mode: 'single' as const, source: '', file: 'single.dot', context: {} };
  }
  async start(): Promise<string> {
    if (this.startError) throw this.startError;
    this.started += 1;
    this.calls.push(`start r${this.started}`);
    return `r${this.started}`;
  }
  async result(id: string): Promise<RunResult> {
    this.calls.push(`result ${id}`);
    return { ...this.nextResult, id };
  }
  follow(id: string, onQuestions: (questions: RunQuestion[]) => void): Promise<void> {
    this.calls.push(`follow ${id}`);
    if (this.stopAtOnce) return Promise.resolve();
    return new Promise((resolve) => this.listeners.set(id, { onQuestions, stop: resolve }));
  }
  async answer(id: string, questionId: string, text: string): Promise<void> {
    this.calls.push(`answer ${id} ${questionId} ${text}`);
  }
  async cancel(id: string): Promise<void> {
    this.calls.push(`cancel ${id}`);
  }
  async reattach(id: string): Promise<void> {
    this.calls.push(`reattach ${id}`);
  }
  /** Run `id` asks `questions` (it must be followed). */
  ask(id: string, questions: RunQuestion[]): void {
    this.listeners.get(id)?.onQuestions(questions);
  }
  /** Run `id` stops. */
  stop(id: string): void {
    this.listeners.get(id)?.stop();
  }
  /** Whether run `id` is being followed. */
  followed(id: string): boolean {
    return this.listeners.has(id);
  }
}
