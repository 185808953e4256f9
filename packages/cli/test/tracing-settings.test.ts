import { describe, expect, it } from 'vitest';
import { DEFAULT_FLUSH_TIMEOUT_MS, tracingSettings } from '../src/tracing/tracing-settings.js';

describe('tracingSettings: whether a command sends traces, where and how', () => {
  it('off without --otel and without an endpoint variable', () => {
    expect(tracingSettings(undefined, {})).toBeUndefined();
    expect(tracingSettings(false, { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeUndefined();
  });

  it('--otel alone: http://localhost:4318/v1/traces, protobuf, service orchestra, a bounded flush', () => {
    expect(tracingSettings(true, {})).toEqual({ url: 'http://localhost:4318/v1/traces', shownUrl: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf', serviceName: 'orchestra', flushTimeoutMs: DEFAULT_FLUSH_TIMEOUT_MS });
  });

  it('an endpoint variable turns it on, and the exporter reads it (orchestra passes no URL)', () => {
    expect(tracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318/' })).toMatchObject({ shownUrl: 'https://collector:4318/v1/traces', protocol: 'http/protobuf' });
    expect(tracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318/' })?.url).toBeUndefined();
    expect(tracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/otel/v1/traces' })?.shownUrl).toBe('http://b/otel/v1/traces');
    // Messages never show credentials written into the URL.
    expect(tracingSettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:s3cret@collector/v1/traces?token=abc' })?.shownUrl).toBe('https://collector/v1/traces');
  });

  it('the protocol, the service name and the timeout from their variables (the traces-specific ones first)', () => {
    const settings = tracingSettings(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'notes',
      OTEL_EXPORTER_OTLP_TIMEOUT: '9000',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '250',
    });
    expect(settings).toMatchObject({ protocol: 'http/json', serviceName: 'notes', flushTimeoutMs: 250 });
    expect(tracingSettings(true, { OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' })?.flushTimeoutMs).toBe(DEFAULT_FLUSH_TIMEOUT_MS);
  });

  it('grpc is not spoken: protobuf over HTTP instead, with a note saying so', () => {
    const settings = tracingSettings(true, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(settings?.protocol).toBe('http/protobuf');
    expect(settings?.notice).toBe('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (orchestra sends OTLP over HTTP); sending http/protobuf');
  });

  it('OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off, even with --otel', () => {
    expect(tracingSettings(true, { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' })).toBeUndefined();
    expect(tracingSettings(true, { OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracingSettings(true, { OTEL_SDK_DISABLED: 'false' })).toBeDefined();
  });
});
