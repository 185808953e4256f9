import { LaunchError, type RunLauncher } from '../runs/run-launcher.js';
import type { RunPort, RunQuestion } from './run-port.js';

/** The questions of a `questions` event of the launcher's event log; undefined when it cannot be read. */
function questionsOf(data: string): RunQuestion[] | undefined {
  try {
    return (JSON.parse(data) as { questions: RunQuestion[] }).questions;
  } catch {
    return undefined;
  }
}

/**
 * The {@link RunPort} of chat's `RunLauncher`: the only place where the
 * session meets the launcher (and the run supervisor under it).
 */
export function launcherRunPort(launcher: RunLauncher): RunPort {
  return {
    prepare: (params) => launcher.prepare(params),
    async start(prepared) {
      try {
        return await launcher.start(prepared);
      } catch (error) {
        // A LaunchError's message is meant for the agent; anything else is told as it prints.
        throw error instanceof LaunchError ? error : new Error(String(error));
      }
    },
    result: (id) => launcher.result(id),
    async follow(id, onQuestions) {
      const log = await launcher.events(id);
      await new Promise<void>((resolve) => {
        log.follow(log.size, {
          event: (e) => {
            if (e.type !== 'questions') return;
            const questions = questionsOf(e.data);
            if (questions) onQuestions(questions);
          },
          end: () => resolve(),
        });
      });
    },
    answer: (id, questionId, text) => launcher.answer(id, questionId, text),
    async cancel(id) {
      await launcher.cancel(id);
    },
    async reattach(id) {
      const result = await launcher.result(id);
      if (result.status !== 'completed' && result.status !== 'failed' && !launcher.isActive(id)) await launcher.resume(id);
    },
  };
}
