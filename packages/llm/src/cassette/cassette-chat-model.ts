import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { CassetteError, type Cassette } from '@orchestra/core';
import { currentRunId } from './run-scope.js';
import { chunkFromRecord, chunkRecord, describeModelRequest, RecordedReplySchema } from './model-exchange.js';

/** Which stage a {@link CassetteChatModel} serves, and the model it stands for. */
export interface CassetteModelTarget {
  /** The node whose requests these are. */
  stage: string;
  /** The model's id (recorded with each request). */
  model: string;
  /** The provider's name (recorded with each request). */
  provider?: string;
}

/**
 * A chat model over a cassette, for one stage. Recording: each call goes to
 * `inner` (the real client), streams through unchanged, and the request
 * (model, messages, tools) is recorded with every chunk of the reply once
 * the reply is complete (a call that fails is not recorded: its retry is).
 * Replaying: no client is called; the reply recorded for the same request
 * streams back chunk by chunk (see `CassettePlayer.take`).
 */
export class CassetteChatModel extends BaseChatModel {
  constructor(
    private readonly cassette: Cassette,
    private readonly inner: BaseChatModel | undefined,
    private readonly target: CassetteModelTarget,
    private readonly tools: readonly BindToolsInput[] = [],
    private readonly bindOptions: Partial<BaseChatModelCallOptions> & { tool_choice?: unknown } = {},
  ) {
    super({});
  }

  _llmType(): string {
    return this.inner?._llmType() ?? 'cassette';
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<BaseChatModelCallOptions>) {
    return new CassetteChatModel(this.cassette, this.inner, this.target, tools, kwargs ?? {});
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let merged: AIMessageChunk | undefined;
    for await (const piece of this._streamResponseChunks(messages, options, runManager)) merged = merged ? merged.concat(piece.message as AIMessageChunk) : (piece.message as AIMessageChunk);
    const message = merged ?? new AIMessageChunk({ content: '' });
    return { generations: [{ message, text: message.text }] };
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const request = describeModelRequest({
      model: this.target.model,
      ...(this.target.provider ? { provider: this.target.provider } : {}),
      messages,
      tools: this.tools,
      ...(this.bindOptions.tool_choice !== undefined ? { toolChoice: this.bindOptions.tool_choice } : {}),
      runId: currentRunId(),
    });
    if (this.cassette.mode === 'replay') {
      const recorded = RecordedReplySchema.safeParse(this.cassette.take('model', this.target.stage, request));
      if (!recorded.success) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${this.cassette.file}: the recorded reply of stage ${this.target.stage} is not a model reply`);
      for (const record of recorded.data.chunks) {
        options.signal?.throwIfAborted();
        const chunk = chunkFromRecord(record);
        yield new ChatGenerationChunk({ message: chunk, text: chunk.text });
        if (chunk.text) await runManager?.handleLLMNewToken(chunk.text);
      }
      return;
    }
    if (!this.inner) throw new TypeError('recording a cassette needs the real chat model');
    const client = this.tools.length > 0 ? this.bound() : this.inner;
    const chunks: Record<string, unknown>[] = [];
    const stream = await client.stream(messages, { ...(options.signal ? { signal: options.signal } : {}) });
    for await (const chunk of stream) {
      chunks.push(chunkRecord(chunk));
      yield new ChatGenerationChunk({ message: chunk, text: chunk.text });
      if (chunk.text) await runManager?.handleLLMNewToken(chunk.text);
    }
    this.cassette.record('model', this.target.stage, request, { chunks });
  }

  private bound() {
    const inner = this.inner as BaseChatModel;
    if (typeof inner.bindTools !== 'function') throw new Error(`the model ${inner.getName()} cannot call tools (it has no bindTools)`);
    return inner.bindTools([...this.tools], this.bindOptions);
  }
}
