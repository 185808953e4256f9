/**
 * The JSON the page reads from the HTTP API: the server's own shapes
 * (packages/server/src/api-types.ts, which imports nothing, so the page is
 * type-checked for the browser without Node), and the page's event type.
 */

export type {
  ConferenceJson,
  ConferenceRoleJson,
  ConferenceStageJson,
  ConversationJson,
  DiagnosticJson,
  PlanJson,
  PlanQuestionJson,
  PlanTaskJson,
  QuestionJson,
  ReceiptJson,
  RunListEntry,
  RunSummary,
} from '../src/api-types.js';
export type QuestionType = import('../src/api-types.js').QuestionJson['type'];

/** A run event as the stream delivers it (`id` only for recorded events). */
export interface StreamEvent {
  id?: number;
  type: string;
  data: Record<string, unknown>;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
