import type { ReceivedSpan, SpanAttributeValue } from './received-span.js';

/* Reading an OTLP/JSON ExportTraceServiceRequest (ids in hexadecimal, or base64 from clients that send the protobuf JSON mapping). */

type Json = Record<string, unknown>;

function id(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  return /^[0-9a-f]+$/i.test(value) && (value.length === 16 || value.length === 32) ? value.toLowerCase() : Buffer.from(value, 'base64').toString('hex');
}

function nanos(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return BigInt(value).toString();
  if (value && typeof value === 'object' && 'low' in value && 'high' in value) {
    const { low, high } = value as { low: number; high: number };
    return ((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toString();
  }
  return '0';
}

function anyValue(value: Json | undefined): SpanAttributeValue {
  if (!value) return '';
  if ('stringValue' in value) return String(value.stringValue);
  if ('boolValue' in value) return Boolean(value.boolValue);
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  return '';
}

function attributes(list: unknown): Record<string, SpanAttributeValue> {
  const out: Record<string, SpanAttributeValue> = {};
  for (const kv of Array.isArray(list) ? (list as Json[]) : []) out[String(kv.key)] = anyValue(kv.value as Json | undefined);
  return out;
}

/** The spans of an OTLP/JSON trace export request. */
export function spansFromJson(body: unknown): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  const resourceSpans = (body as Json | null)?.resourceSpans;
  for (const rs of Array.isArray(resourceSpans) ? (resourceSpans as Json[]) : []) {
    const service = attributes((rs.resource as Json | undefined)?.attributes)['service.name'];
    for (const ss of Array.isArray(rs.scopeSpans) ? (rs.scopeSpans as Json[]) : []) {
      for (const s of Array.isArray(ss.spans) ? (ss.spans as Json[]) : []) {
        const parent = id(s.parentSpanId);
        const status = (s.status as Json | undefined) ?? {};
        out.push({
          traceId: id(s.traceId),
          spanId: id(s.spanId),
          ...(parent ? { parentSpanId: parent } : {}),
          name: String(s.name ?? ''),
          kind: Number(s.kind ?? 0),
          startTimeUnixNano: nanos(s.startTimeUnixNano),
          endTimeUnixNano: nanos(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: (Array.isArray(s.events) ? (s.events as Json[]) : []).map((e) => String(e.name)),
          status: { code: Number(status.code ?? 0), ...(typeof status.message === 'string' && status.message ? { message: status.message } : {}) },
          links: (Array.isArray(s.links) ? (s.links as Json[]) : []).map((l) => ({ spanId: id(l.spanId) })),
          ...(service !== undefined ? { serviceName: String(service) } : {}),
        });
      }
    }
  }
  return out;
}
