import type { PreparedRun } from '../runs/run-launcher.js';
import type { LaunchedQuestion, RunResult } from '../runs/run-result.js';

/** A question a launched run waits for, as the session asks it of the person. */
export type RunQuestion = LaunchedQuestion;

/**
 * Everything the interactive session does with runs, and all it knows of
 * whatever drives them: the one seam between the session and the run
 * machinery (today chat's `RunLauncher`, adapted by `launcherRunPort`).
 */
export interface RunPort {
  /**
   * Checks `launch_run`'s parameters and builds the run, starting nothing
   * (what an approval shows). Throws an Error whose message tells the agent
   * what to change.
   */
  prepare(params: unknown): PreparedRun;
  /** Starts a prepared run: its id. Rejects with an Error whose message says why it could not start. */
  start(prepared: PreparedRun): Promise<string>;
  /** Where run `id` stands. */
  result(id: string): Promise<RunResult>;
  /**
   * Follows run `id` from now until it stops (ends, is cancelled, or its
   * process goes away), handing over each batch of questions it asks as it
   * asks them; resolves once it has stopped.
   */
  follow(id: string, onQuestions: (questions: RunQuestion[]) => void): Promise<void>;
  /** Answers a question run `id` waits for. */
  answer(id: string, questionId: string, text: string): Promise<void>;
  /** Cancels run `id`: it stops at a safe point, resumable. */
  cancel(id: string): Promise<void>;
  /**
   * Drives run `id` again when it has not ended and nothing drives it (it
   * was stopped or parked when the last process went away; its questions
   * are asked again); does nothing otherwise. For a session resumed with a
   * run active.
   */
  reattach(id: string): Promise<void>;
}
