import type { ToolCallStatus } from '@orchestra/core/handlers';

/** A tool call the model asked for. */
export interface PendingToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** Runs around every tool call of an agent stage (the spec §9.7 hooks are one). */
export interface ToolCallGuard {
  /** Whether the call may run; when not, `reason` is what the model is told. */
  before(call: PendingToolCall, signal: AbortSignal): Promise<{ proceed: true } | { proceed: false; reason: string }>;
  /** After the call (not called for skipped calls). */
  after(call: PendingToolCall, result: string, status: ToolCallStatus, signal: AbortSignal): Promise<void>;
}
