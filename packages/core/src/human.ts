/**
 * @orchestra/core/human — for writing interviewers and front ends that ask
 * and answer: the question and answer models with their schemas, matching a
 * reply to a question's options, an interactive stage's turns as questions,
 * the interviewer that holds questions for a front end, and answering a
 * parked run. The interviewers themselves are on `@orchestra/core`.
 * @packageDocumentation
 */
export { ANSWER_VALUES, AnswerSchema, OptionSchema, QUESTION_TYPES, QuestionSchema, matchOption, timeoutAnswer, type QuestionInput } from './engine/question.js';
export { askEach } from './human/interviewer.js';
export { answerFromText } from './human/simple-interviewers.js';
export {
  CONVERSATION_COMMANDS,
  CONVERSATION_KIND,
  conversationQuestion,
  isConversationQuestion,
  parseConversationCommand,
  type ConversationCommand,
} from './human/conversation-question.js';
export { HeldInterviewer, type AnswerRefusal } from './supervisor/held-interviewer.js';
export { RecordedAnswersInterviewer, answerForQuestion, recordAnswer, type RecordAnswerOptions } from './human/park.js';
