/** An attribute value as received (arrays and maps are not read). */
export type SpanAttributeValue = string | number | boolean;

/** A span as an {@link OtlpReceiver} received it, the same whether it came as OTLP/JSON or OTLP/protobuf. */
export interface ReceivedSpan {
  /** Hexadecimal, as OTLP/JSON writes it. */
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Nanoseconds since the epoch, as a decimal string. */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, SpanAttributeValue>;
  /** The names of its events. */
  events: string[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  links: { spanId: string }[];
  /** The `service.name` of the resource that sent it. */
  serviceName?: string;
}
