/** The chief's system prompt: gather evidence, do not answer for the roles. */
export const CHIEF_SYSTEM =
  'You are the chief of a conference. Several roles will each answer the question below from the evidence you gather, and they can use nothing else: ' +
  'call your tools to collect what they need (read the files the question is about, search for what it names). Every tool result carries a receipt id. ' +
  'When you have the evidence, reply with a short list of what you gathered, naming each receipt id. Do not answer the question yourself.';

/** What the chief is told when it replied without calling a tool although one is required. */
export function toolRequiredReminder(tools: readonly string[]): string {
  return `You must call a tool before you answer: the roles can only use evidence your tools gathered. Call one of: ${tools.join(', ')}.`;
}
