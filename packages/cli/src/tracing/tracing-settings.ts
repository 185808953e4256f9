/**
 * Whether `orchestra run` and `orchestra resume` (and `serve`, `worker`)
 * send traces, and where: read from the flags and the standard OpenTelemetry
 * environment variables without loading the SDK (a run without tracing
 * never does; see otel-sdk.ts).
 */

/** The OTLP/HTTP encodings orchestra sends (the OpenTelemetry default is protobuf). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Where and how traces go. */
export interface TracingSettings {
  /**
   * The traces URL to send to, when orchestra chooses it (`--otel` without
   * an endpoint variable): `http://localhost:4318/v1/traces`. Undefined: the
   * exporter reads `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` itself (as its headers, from
   * `OTEL_EXPORTER_OTLP_HEADERS`).
   */
  url?: string;
  /** The URL traces go to, for messages. */
  shownUrl: string;
  protocol: OtlpProtocol;
  serviceName: string;
  /** Longest wait for the last spans to be sent when the command ends. */
  flushTimeoutMs: number;
  /** A note to print (one line): a protocol orchestra does not speak, say. */
  notice?: string;
}

/** The default collector of `--otel` (an OTLP/HTTP receiver on this machine, as Jaeger's all-in-one runs one). */
export const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

/** Longest wait for the last spans when no `OTEL_EXPORTER_OTLP_TIMEOUT` says otherwise: a dead collector never holds the command longer. */
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;

function set(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** The signal-specific endpoint as given; the generic one with `/v1/traces` appended (the OTLP rule). */
function tracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (traces) return traces;
  const generic = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  return generic ? `${generic.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** A URL as messages show it: without a user name, password or query, which may hold credentials. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password && !parsed.search) return url;
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(the OTLP endpoint, which is not a URL)';
  }
}

/**
 * The tracing of a command given `--otel` (`flag`) in environment `env`, or
 * undefined when it sends no traces: neither the flag nor an endpoint
 * variable is set, or `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`.
 */
export function tracingSettings(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): TracingSettings | undefined {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined;
  if (set(env.OTEL_TRACES_EXPORTER)?.toLowerCase() === 'none') return undefined;
  const fromEnv = tracesUrl(env);
  if (!fromEnv && flag !== true) return undefined;
  const asked = set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? set(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? 'http/protobuf';
  const known = asked === 'http/protobuf' || asked === 'http/json';
  const protocol: OtlpProtocol = known ? asked : 'http/protobuf';
  const timeout = Number(set(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ?? set(env.OTEL_EXPORTER_OTLP_TIMEOUT));
  const url = fromEnv ? undefined : `${DEFAULT_OTLP_ENDPOINT}/v1/traces`;
  return {
    ...(url ? { url } : {}),
    shownUrl: shown(fromEnv ?? (url as string)),
    protocol,
    serviceName: set(env.OTEL_SERVICE_NAME) ?? 'orchestra',
    flushTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_FLUSH_TIMEOUT_MS,
    ...(known ? {} : { notice: `OTEL_EXPORTER_OTLP_PROTOCOL=${asked} is not supported (orchestra sends OTLP over HTTP); sending http/protobuf` }),
  };
}
