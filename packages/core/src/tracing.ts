/**
 * @orchestra/core/tracing — OpenTelemetry traces of runs: a consumer of a
 * run's events (and its child runs') that makes spans on a `Tracer` of
 * `@opentelemetry/api`. Exporting them (the SDK, an OTLP exporter) is the
 * caller's: `orchestra run --otel` does it (docs/tracing.md).
 * @packageDocumentation
 */
export { createRunTracing, type RunTracing, type RunTracingOptions } from './tracing/run-tracing.js';
export type { ChildEventListener, ChildRunOrigin, RunObserver } from './engine/child-events.js';
