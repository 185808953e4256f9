import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages, type BaseMessage, type StoredMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { TokenUsageFileSchema, type TokenUsageFile } from '@orchestra/core/store';
import { SESSION_STATES, type SessionState, type SessionTransition } from './session-machine.js';

/** The format of `.orchestra/session.json` written now (`/2`: tokens as `status.json` records them). */
export const SESSION_FORMAT = 'orchestra.chat-session/2';

/** The format before `/2`: the same record, with `usage` as `{input, output, total}`. */
const FORMAT_1 = 'orchestra.chat-session/1';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A session saved in format `/1` as a `/2` record (its usage renamed); anything else as it is. */
function migrate(value: unknown): unknown {
  if (!isObject(value) || value.format !== FORMAT_1) return value;
  const usage = value.usage;
  return {
    ...value,
    format: SESSION_FORMAT,
    usage: isObject(usage) ? { input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.total } : usage,
  };
}

/**
 * The durable session (`.orchestra/session.json`), written after every step
 * so `orchestra chat --resume` continues it. A session saved by an earlier
 * version (format `/1`) is read as the current format.
 */
export const SessionRecordSchema = z.preprocess(migrate, z.object({
  format: z.literal(SESSION_FORMAT),
  state: z.enum(SESSION_STATES),
  /** The conversation as LangChain stored messages (system prompt not included: it is rebuilt). */
  transcript: z.array(z.unknown()),
  /** Messages the person sent while a run was active, not yet given to the agent. */
  queue: z.array(z.string()),
  /** Ids of the runs launched, oldest first. */
  runs: z.array(z.string()),
  /** The run the session waits for, if any (with the tool call it answers). */
  active: z.object({ run: z.string(), call_id: z.string() }).nullable(),
  /** Tokens of the session agent's own calls, as `status.json` records a stage's. */
  usage: TokenUsageFileSchema,
  transitions: z.array(z.object({ from: z.string(), event: z.string(), to: z.string(), at: z.string() })),
}));
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** Reads the saved session; undefined when there is none; throws naming the file when it is damaged. */
export function readSessionRecord(file: string): SessionRecord | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); the session was left as it is`);
  }
  const checked = SessionRecordSchema.safeParse(parsed);
  if (!checked.success) throw new Error(`${file} is not an orchestra chat session: ${checked.error.issues[0]?.message ?? 'unexpected shape'}`);
  return checked.data;
}

/** Saves the session atomically (temp file + rename): a kill leaves the old or the new one. */
export function writeSessionRecord(file: string, record: SessionRecord): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(temp, file);
}

/** What a session holds besides its state, all of it saved in its {@link SessionRecord}. */
export interface SessionData {
  /** The conversation (no system prompt: it is rebuilt for every call). */
  transcript: BaseMessage[];
  /** Messages the person sent while a run was active, not yet given to the agent. */
  queue: string[];
  /** Ids of the runs launched, oldest first. */
  runs: string[];
  /** The run the session waits for, if any (with the tool call it answers). */
  active: { run: string; call_id: string } | null;
  /** Tokens of the session agent's own calls. */
  usage: TokenUsageFile;
  transitions: SessionTransition[];
}

/** The data of a saved session, or of a new one (no record). */
export function sessionDataOf(record?: SessionRecord): SessionData {
  if (!record) return { transcript: [], queue: [], runs: [], active: null, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 }, transitions: [] };
  return {
    transcript: mapStoredMessagesToChatMessages(record.transcript as StoredMessage[]),
    queue: [...record.queue],
    runs: [...record.runs],
    active: record.active,
    usage: { ...record.usage },
    transitions: record.transitions as SessionTransition[],
  };
}

/** The record that saves a session in `state` with `data`. */
export function sessionRecordOf(state: SessionState, data: SessionData): SessionRecord {
  return {
    format: SESSION_FORMAT,
    state,
    transcript: mapChatMessagesToStoredMessages(data.transcript),
    queue: [...data.queue],
    runs: [...data.runs],
    active: data.active,
    usage: { ...data.usage },
    transitions: data.transitions,
  };
}
