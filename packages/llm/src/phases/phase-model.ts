import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ModelPrice } from '../config/prices.js';

/** A model for one phase. */
export interface PhaseModel {
  model: BaseChatModel;
  name: string;
  wrapError?: (error: unknown) => unknown;
  /** What its tokens cost (`orchestra.yaml` `prices`), when known. */
  price?: ModelPrice | undefined;
}
