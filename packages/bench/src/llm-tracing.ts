import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { RunObserver } from '@orchestra/core';
import { createRunTracing } from '@orchestra/core/tracing';

/**
 * Tracing for the LLM benchmark's traced case, set up as `orchestra run`
 * sets it up when an OTLP endpoint is given (packages/cli/src/tracing/):
 * per run a tracer provider with a batching processor over the OTLP/HTTP
 * protobuf exporter, `createRunTracing` on the run's events, and the
 * provider shut down (the last spans sent) when the run ends.
 *
 * The SDK and exporter are the CLI's dependencies, loaded from its
 * node_modules at run time (the bench has no copy of its own; the bundle
 * leaves this require to node).
 */

/** OpenTelemetry's Tracer, as createRunTracing takes it (the bench does not depend on @opentelemetry/api itself). */
type Tracer = Parameters<typeof createRunTracing>[0];

interface SpanProcessor {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}
interface TracerProvider {
  getTracer(name: string): Tracer;
  shutdown(): Promise<void>;
}
interface Sdk {
  BasicTracerProvider: new (config: { resource?: unknown; spanProcessors: SpanProcessor[] }) => TracerProvider;
  BatchSpanProcessor: new (exporter: unknown) => SpanProcessor;
}
interface Exporters {
  OTLPTraceExporter: new (config: { url: string }) => unknown;
}

const fromCli = createRequire(fileURLToPath(new URL('../../cli/package.json', import.meta.url)));

/** A traced run: the observer for its options, and `finish` to send its last spans (part of the run's cost, as in the CLI). */
export interface TracedRun {
  observer: Required<RunObserver>;
  finish(): Promise<void>;
}

/** Makes a {@link TracedRun} per run, exporting to `tracesUrl` (an OTLP/HTTP receiver). */
export function benchTracing(tracesUrl: string): () => TracedRun {
  const sdk = fromCli('@opentelemetry/sdk-trace-base') as Sdk;
  const { OTLPTraceExporter } = fromCli('@opentelemetry/exporter-trace-otlp-proto') as Exporters;
  const { resourceFromAttributes } = fromCli('@opentelemetry/resources') as { resourceFromAttributes: (attributes: Record<string, string>) => unknown };
  return () => {
    const provider = new sdk.BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'orchestra-bench' }),
      spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl }))],
    });
    const tracing = createRunTracing(provider.getTracer('orchestra'));
    return {
      observer: { onEvent: tracing.onEvent, onChildEvent: tracing.onChildEvent },
      finish: async () => {
        tracing.end();
        await provider.shutdown();
      },
    };
  };
}
