import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';

/** Call options of a {@link DeferredChatModel}: tools bound to it reach the real client as they were given. */
export interface DeferredCallOptions extends BaseChatModelCallOptions {
  tools?: BindToolsInput[];
}

/**
 * A chat model whose real client (and the package behind it, such as
 * `@langchain/anthropic`) is loaded on its first call, not when orchestra
 * starts: a provider's package costs nothing to runs that do not use it.
 * Streaming and single calls go to the real client; tools bound here are
 * handed to it with each call, and it converts them to its API's form.
 */
export class DeferredChatModel extends BaseChatModel<DeferredCallOptions> {
  private loading: Promise<BaseChatModel> | undefined;

  /**
   * @param kind the API's name (`_llmType`).
   * @param load makes the real client (importing its package).
   * @param prepare rewrites the messages before each call, for an API with rules of its own (Gemini: one system message, first).
   */
  constructor(
    private readonly kind: string,
    private readonly load: () => Promise<BaseChatModel>,
    private readonly prepare: (messages: BaseMessage[]) => BaseMessage[] = (messages) => messages,
  ) {
    super({});
  }

  _llmType(): string {
    return this.kind;
  }

  /** The real client, loaded once. */
  client(): Promise<BaseChatModel> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<DeferredCallOptions>) {
    return this.withConfig({ tools, ...kwargs } as Partial<DeferredCallOptions>);
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const real = (await this.client()) as unknown as { _generate(m: BaseMessage[], o: unknown, r?: CallbackManagerForLLMRun): Promise<ChatResult> };
    return real._generate(this.prepare(messages), options, runManager);
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const real = (await this.client()) as unknown as { _streamResponseChunks(m: BaseMessage[], o: unknown, r?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> };
    yield* real._streamResponseChunks(this.prepare(messages), options, runManager);
  }
}
