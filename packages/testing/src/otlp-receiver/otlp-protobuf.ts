import type { ReceivedSpan, SpanAttributeValue } from './received-span.js';

/*
 * Just enough of the protobuf wire format to read an OTLP
 * ExportTraceServiceRequest (opentelemetry/proto/collector/trace/v1): the
 * spans' ids, names, kinds, times, attributes, events and status. Fields it
 * does not know are skipped.
 */

interface Field {
  no: number;
  wire: number;
  /** Varint (wire 0) as a bigint; fixed64 (wire 1) as its 8 bytes; length-delimited (wire 2) as its bytes. */
  value: bigint | Uint8Array;
}

function* fields(bytes: Uint8Array): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= bytes.length) throw new Error('truncated protobuf varint');
      const byte = bytes[at++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < bytes.length) {
    const tag = Number(varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) yield { no, wire, value: varint() };
    else if (wire === 1) {
      yield { no, wire, value: bytes.subarray(at, at + 8) };
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      yield { no, wire, value: bytes.subarray(at, at + length) };
      at += length;
    } else if (wire === 5) at += 4;
    else throw new Error(`protobuf wire type ${wire} is not read here`);
  }
}

const text = (value: Field['value']) => new TextDecoder().decode(value as Uint8Array);
const hex = (value: Field['value']) => Buffer.from(value as Uint8Array).toString('hex');
const double = (value: Field['value']) => Buffer.from(value as Uint8Array).readDoubleLE(0);
const signed = (value: bigint) => Number(BigInt.asIntN(64, value));

function anyValue(bytes: Uint8Array): SpanAttributeValue {
  for (const f of fields(bytes)) {
    if (f.no === 1) return text(f.value);
    if (f.no === 2) return f.value !== 0n;
    if (f.no === 3) return signed(f.value as bigint);
    if (f.no === 4) return double(f.value);
  }
  return '';
}

function keyValue(bytes: Uint8Array): [string, SpanAttributeValue] {
  let key = '';
  let value: SpanAttributeValue = '';
  for (const f of fields(bytes)) {
    if (f.no === 1) key = text(f.value);
    else if (f.no === 2) value = anyValue(f.value as Uint8Array);
  }
  return [key, value];
}

function span(bytes: Uint8Array, service: string | undefined): ReceivedSpan {
  const out: ReceivedSpan = { traceId: '', spanId: '', name: '', kind: 0, startTimeUnixNano: '0', endTimeUnixNano: '0', attributes: {}, events: [], status: { code: 0 }, links: [], ...(service !== undefined ? { serviceName: service } : {}) };
  for (const f of fields(bytes)) {
    if (f.no === 1) out.traceId = hex(f.value);
    else if (f.no === 2) out.spanId = hex(f.value);
    else if (f.no === 4 && (f.value as Uint8Array).length > 0) out.parentSpanId = hex(f.value);
    else if (f.no === 5) out.name = text(f.value);
    else if (f.no === 6) out.kind = Number(f.value);
    else if (f.no === 7) out.startTimeUnixNano = Buffer.from(f.value as Uint8Array).readBigUInt64LE(0).toString();
    else if (f.no === 8) out.endTimeUnixNano = Buffer.from(f.value as Uint8Array).readBigUInt64LE(0).toString();
    else if (f.no === 9) {
      const [k, v] = keyValue(f.value as Uint8Array);
      out.attributes[k] = v;
    } else if (f.no === 11) {
      for (const e of fields(f.value as Uint8Array)) if (e.no === 2) out.events.push(text(e.value));
    } else if (f.no === 13) {
      for (const l of fields(f.value as Uint8Array)) if (l.no === 2) out.links.push({ spanId: hex(l.value) });
    } else if (f.no === 15) {
      for (const s of fields(f.value as Uint8Array)) {
        if (s.no === 2) out.status.message = text(s.value);
        else if (s.no === 3) out.status.code = Number(s.value);
      }
    }
  }
  return out;
}

function serviceOf(resource: Uint8Array): string | undefined {
  for (const f of fields(resource)) {
    if (f.no !== 1) continue;
    const [k, v] = keyValue(f.value as Uint8Array);
    if (k === 'service.name') return String(v);
  }
  return undefined;
}

/** The spans of an OTLP/protobuf trace export request. */
export function spansFromProtobuf(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of fields(body)) {
    if (resourceSpans.no !== 1) continue;
    let service: string | undefined;
    const scopes: Uint8Array[] = [];
    for (const f of fields(resourceSpans.value as Uint8Array)) {
      if (f.no === 1) service = serviceOf(f.value as Uint8Array);
      else if (f.no === 2) scopes.push(f.value as Uint8Array);
    }
    for (const scope of scopes) for (const f of fields(scope)) if (f.no === 2) out.push(span(f.value as Uint8Array, service));
  }
  return out;
}
