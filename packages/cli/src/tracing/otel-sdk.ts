import type { Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { CLI_VERSION } from '../version.js';
import type { TracingSettings } from './tracing-settings.js';

/**
 * The OpenTelemetry SDK and OTLP exporter, imported only by a command that
 * sends traces (tracing-settings.ts decides): a run without tracing loads
 * none of it.
 */

/** A tracer exporting to the OTLP collector, and how to send what is left and stop. */
export interface OtelPipeline {
  tracer: Tracer;
  /**
   * Sends the spans not sent yet and stops, waiting at most the settings'
   * `flushTimeoutMs`. Resolves with why spans could not be sent (the first
   * failure: a collector that is down, refuses them, or does not answer in
   * time), or undefined when all went. Never rejects.
   */
  shutdown(): Promise<string | undefined>;
}

/** ExportResultCode.FAILED of @opentelemetry/core. */
const FAILED = 1;

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error ?? 'export failed');
  // Node's fetch hides the socket error under `cause` (ECONNREFUSED and the like).
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}

/** An exporter that remembers its first failure (the SDK reports them nowhere by default). */
function watched(inner: SpanExporter, failed: (reason: string) => void): SpanExporter {
  return {
    export(spans: ReadableSpan[], done) {
      inner.export(spans, (result) => {
        if (result.code === FAILED) failed(reasonOf(result.error));
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => (inner.forceFlush as () => Promise<void>)() } : {}),
  };
}

async function exporterFor(settings: TracingSettings): Promise<SpanExporter> {
  const config = {
    ...(settings.url ? { url: settings.url } : {}),
    timeoutMillis: settings.flushTimeoutMs,
  };
  const { OTLPTraceExporter } = commonJs(settings.protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto'));
  return new OTLPTraceExporter(config);
}

/**
 * A CommonJS package's exports, imported with `import()`: node gives them
 * by name, but in the CLI's bundle (esbuild splits the package into a
 * chunk of its own) they are only under `default`.
 */
function commonJs<T extends object>(module: T): T {
  return 'OTLPTraceExporter' in module ? module : ((module as { default?: T }).default ?? module);
}

/** Sets up the SDK: a tracer provider of its own (not the global one) with a batching processor over the OTLP exporter. */
export async function startOtel(settings: TracingSettings): Promise<OtelPipeline> {
  let failure: string | undefined;
  const exporter = watched(await exporterFor(settings), (reason) => (failure ??= reason));
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': CLI_VERSION }),
    spanProcessors: [new BatchSpanProcessor(exporter, { exportTimeoutMillis: settings.flushTimeoutMs })],
  });
  return {
    tracer: provider.getTracer('orchestra', CLI_VERSION),
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), settings.flushTimeoutMs);
        timer.unref();
      });
      try {
        const ended = await Promise.race([provider.shutdown().then(() => 'done' as const), late]);
        if (ended === 'late') failure ??= `the collector did not take them within ${settings.flushTimeoutMs} ms`;
      } catch (error) {
        failure ??= reasonOf(error);
      } finally {
        clearTimeout(timer);
      }
      return failure;
    },
  };
}
