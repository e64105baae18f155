import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { startTelemetry } from '../src/telemetry/sdk.js';

describe('telemetry start-up', () => {
  let shutdown: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await shutdown?.();
    shutdown = undefined;
    trace.disable();
  });

  it('without an exporter, gives spans real ids but records nothing', async () => {
    const sdk = startTelemetry({ serviceName: 'test' });
    shutdown = () => sdk.shutdown();
    const span = trace.getTracer('test').startSpan('work');
    expect(trace.isSpanContextValid(span.spanContext())).toBe(true);
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it('registers nothing when OTEL_SDK_DISABLED is true', async () => {
    process.env.OTEL_SDK_DISABLED = 'true';
    try {
      const sdk = startTelemetry({ serviceName: 'test' });
      shutdown = () => sdk.shutdown();
    } finally {
      delete process.env.OTEL_SDK_DISABLED;
    }
    const span = trace.getTracer('test').startSpan('work');
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    span.end();
  });

  it('records and exports spans to the processors it is given', async () => {
    const exporter = new InMemorySpanExporter();
    const processor = new SimpleSpanProcessor({ exporter });
    const sdk = startTelemetry({ serviceName: 'test', spanProcessors: [processor] });
    shutdown = () => sdk.shutdown();
    trace.getTracer('test').startSpan('work').end();
    await processor.forceFlush(); // export waits for the resource's detected attributes
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['work']);
  });
});
