import { rmSync } from 'node:fs';
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { runPipeline, type Graph } from '@orchestra/core';
import { createModelBackend, emptyConfig } from '@orchestra/llm';
import { reply, type RecordedRequest, type ScriptedOpenAIServer, type ScriptStep } from '@orchestra/testing';
import type { TracedRun } from './llm-tracing.js';

/** The model name both cases ask for. */
export const BENCH_MODEL = 'bench-model';
/** The key both cases send (the scripted server checks none). */
export const BENCH_KEY = 'k';
/** What the scripted server answers every request with… */
export const REPLY_TEXT = 'Done: the step is complete and its result is ready for the next stage.';
/** …streamed in this many content chunks (plus the usage chunk and `[DONE]`), without delays. */
export const REPLY_CHUNKS = 4;

/** The scripted server's answer to every chat completion: {@link REPLY_TEXT} in {@link REPLY_CHUNKS} chunks, fixed usage. */
export function benchReply(): ScriptStep {
  return reply(REPLY_TEXT, { chunks: REPLY_CHUNKS, usage: { promptTokens: 100, completionTokens: 14 } });
}

/** Thrown when a run does not do what it should: timing a broken run means nothing. */
export class LlmCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmCheckError';
  }
}

/** One timed run of a case. */
export interface LlmSample {
  /** Wall time of the whole run, ms. */
  ms: number;
  /** CPU time of this process during the run, ms (the scripted server runs in it too). */
  userMs: number;
  systemMs: number;
}

/** The messages of one request as LangChain messages (system and user only, which is what an LLM stage sends). */
export function toLangChain(request: RecordedRequest): BaseMessage[] {
  return (request.messages ?? []).map((message) => {
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'system') return new SystemMessage(text);
    if (message.role === 'user') return new HumanMessage(text);
    throw new LlmCheckError(`orchestra sent a ${message.role} message; the bare loop replays system and user messages only`);
  });
}

async function timed(work: () => Promise<void>): Promise<LlmSample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, userMs: used.user / 1000, systemMs: used.system / 1000 };
}

/** Checks that `expected` chat completions arrived since `before` and that each was answered. */
function checkCompletions(server: ScriptedOpenAIServer, before: number, expected: number, label: string): RecordedRequest[] {
  const made = server.completions.slice(before);
  if (made.length !== expected) throw new LlmCheckError(`${label}: the server received ${made.length} chat completions, expected ${expected}`);
  const bad = made.find((r) => r.outcome !== 'reply' || r.model !== BENCH_MODEL || r.stream !== true);
  if (bad) throw new LlmCheckError(`${label}: request #${bad.index} ended ${bad.outcome} (model ${bad.model ?? 'none'}, stream ${String(bad.stream)})`);
  return made;
}

/**
 * Case A, orchestra: `runPipeline` with the model backend `orchestra run`
 * uses (`createModelBackend`, no `orchestra.yaml`, `--model bench-model`,
 * the server's URL and a key from the environment), so every stage goes
 * through the real `ChatOpenAI` client. The backend is built inside the
 * timing, as the CLI builds one per run. Checks status `success`, every
 * stage completed and one answered request per stage; the run directory
 * is removed afterwards, outside the timing. Returns the sample and the
 * requests the run made. With `traced`, the run's events become spans sent
 * to an OTLP receiver, the last of them before the timing ends.
 */
export async function runOrchestraCase(
  graph: Graph,
  stages: number,
  server: ScriptedOpenAIServer,
  logsRoot: string,
  /** Traces the run (the traced case): made and finished inside the timing, as `orchestra run` does. */
  traced?: () => TracedRun,
): Promise<{ sample: LlmSample; requests: RecordedRequest[] }> {
  const before = server.completions.length;
  let status = '';
  let completed: string[] = [];
  const sample = await timed(async () => {
    const tracing = traced?.();
    const backend = createModelBackend({
      config: emptyConfig(logsRoot),
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: BENCH_KEY },
      flags: { model: BENCH_MODEL },
    });
    const result = await runPipeline(graph, { backend, logsRoot, ...(tracing ? tracing.observer : {}) });
    await tracing?.finish();
    status = result.status;
    completed = result.completedNodes;
  });
  rmSync(logsRoot, { recursive: true, force: true });
  const label = `orchestra run in ${logsRoot}`;
  if (status !== 'success') throw new LlmCheckError(`${label} ended ${status}`);
  const stagesDone = completed.filter((id) => /^s\d+$/.test(id)).length;
  if (stagesDone !== stages) throw new LlmCheckError(`${label} completed ${stagesDone} stages, expected ${stages}`);
  return { sample, requests: checkCompletions(server, before, stages, label) };
}

/**
 * Case B, the bare client: one `ChatOpenAI` (built inside the timing, like
 * orchestra's), then one `.stream()` call per entry of `conversations`, in
 * sequence, concatenating the chunks' text. The conversations are the
 * messages orchestra sent (its system message with the preamble, and each
 * stage's prompt), so the server does the same work. Not `streaming: true`:
 * with it `invoke` downloads tiktoken tables. Checks every reply and the
 * request count. Returns the sample and the requests the loop made.
 */
export async function runBareCase(conversations: readonly BaseMessage[][], server: ScriptedOpenAIServer): Promise<{ sample: LlmSample; requests: RecordedRequest[] }> {
  const before = server.completions.length;
  const replies: string[] = [];
  const sample = await timed(async () => {
    const model = new ChatOpenAI({ model: BENCH_MODEL, apiKey: BENCH_KEY, maxRetries: 0, streamUsage: true, configuration: { baseURL: server.url } });
    for (const messages of conversations) {
      let text = '';
      for await (const chunk of await model.stream(messages)) text += chunk.text;
      replies.push(text);
    }
  });
  const wrong = replies.findIndex((text) => text !== REPLY_TEXT);
  if (wrong !== -1) throw new LlmCheckError(`bare loop: reply ${wrong + 1} was ${JSON.stringify(replies[wrong])}, expected ${JSON.stringify(REPLY_TEXT)}`);
  return { sample, requests: checkCompletions(server, before, conversations.length, 'bare loop') };
}


/**
 * Checks that the bare loop sent the very request bodies orchestra sent
 * (model, stream options, messages) for the run whose messages it replays,
 * so the two cases give the server the same work. (Later orchestra runs
 * differ only by their run id, a few characters of the preamble.)
 */
export function checkSameRequests(orchestra: readonly RecordedRequest[], bare: readonly RecordedRequest[]): void {
  const differs = orchestra.findIndex((request, i) => JSON.stringify(request.body) !== JSON.stringify(bare[i]?.body));
  if (differs !== -1) {
    throw new LlmCheckError(`the bare loop's request ${differs + 1} differs from orchestra's: ${JSON.stringify(bare[differs]?.body)} vs ${JSON.stringify(orchestra[differs]?.body)}`);
  }
}
