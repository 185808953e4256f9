// A chat session in a process of its own, for the kill-and-resume test: it
// says hi, launches review.dot, approves it, and prints WAITING when the
// run's gate is asked (then waits until it is killed).
import { CallbackInterviewer } from '@orchestra/core';
import { ChatCompletionsOpenAI } from '@orchestra/llm';
import { InteractiveSession, ProjectWorkspace, RunLauncher } from '../../src/index.js';

const [dir, url] = process.argv.slice(2) as [string, string];
const workspace = new ProjectWorkspace(dir).ensure();
const launcher = new RunLauncher({ projectDir: dir, simulate: true, checkpointIntervalMs: 0 });
const model = new ChatCompletionsOpenAI({ model: 'session-model', apiKey: 'k', configuration: { baseURL: url }, maxRetries: 0, streamUsage: true });
const interviewer = new CallbackInterviewer(async (q) => {
  if (q.stage === 'launch_run') return { value: 'A', selectedOption: { key: 'A', label: 'Approve' } };
  process.stdout.write('WAITING\n');
  return new Promise(() => {});
});
const session = new InteractiveSession({ model, launcher, workspace, interviewer });
await session.send('hi');
await session.send('review it');
