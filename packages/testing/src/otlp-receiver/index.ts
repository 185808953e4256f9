export { startOtlpReceiver, type OtlpReceiver, type OtlpReceiverOptions, type OtlpRequest } from './otlp-receiver.js';
export type { ReceivedSpan, SpanAttributeValue } from './received-span.js';
