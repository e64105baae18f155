import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchAwareKafkaJsInstrumentation } from '../src/telemetry/kafka-spans.js';

type Patch = (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => Promise<unknown>;
type Headers = Record<string, unknown>;

// The instrumentation's patches of kafkajs's sendBatch and eachBatch, driven directly (vitest
// loads kafkajs its own way, so the module hook that installs them in a service does not run here).
describe('Kafka spans per batch', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const instrumentation = new BatchAwareKafkaJsInstrumentation();
  const patches = instrumentation as unknown as { _getSendBatchPatch(): Patch; _getConsumerEachBatchPatch(client: unknown): Patch };
  const tracer = provider.getTracer('test');
  const traceparentOf = (headers: Headers | undefined) => String(headers?.traceparent);
  const spanIdOf = (traceparent: string) => traceparent.split('-')[2];

  beforeAll(() => {
    instrumentation.disable();
    instrumentation.setTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  it("sends a topic's messages under one span whose context each carries, and staged messages in their own traces", async () => {
    const staged = tracer.startSpan('request that staged an event');
    const stagedHeaders: Headers = {};
    propagation.inject(trace.setSpan(ROOT_CONTEXT, staged), stagedHeaders);
    const plain = Array.from({ length: 50 }, () => ({ key: 'k', value: Buffer.from('v'), headers: { 'event-id': 'e' } }));
    const outbox = [
      { key: 'k', value: Buffer.from('v'), headers: { ...stagedHeaders } },
      { key: 'k', value: Buffer.from('v'), headers: { ...stagedHeaders } },
    ];
    const send = patches._getSendBatchPatch()(async () => 'acknowledged');
    const caller = tracer.startSpan('rpc');
    const answer = await context.with(trace.setSpan(ROOT_CONTEXT, caller), () =>
      send({
        topicMessages: [
          { topic: 'play-tracking', messages: plain },
          { topic: 'room-events', messages: outbox },
        ],
      }),
    );
    expect(answer).toBe('acknowledged');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.kind])).toEqual([
      ['send play-tracking', SpanKind.PRODUCER],
      ['send room-events', SpanKind.PRODUCER],
    ]);
    const [batch, relay] = spans;
    expect(batch!.parentSpanContext?.spanId, 'the batch continues its caller').toBe(caller.spanContext().spanId);
    expect(batch!.attributes['messaging.batch.message_count']).toBe(50);
    expect(new Set(plain.map((m) => spanIdOf(traceparentOf(m.headers))))).toEqual(new Set([batch!.spanContext().spanId]));
    expect(plain[0]!.headers['event-id'], 'its own headers kept').toBe('e');
    expect(relay!.parentSpanContext?.spanId, 'a staged event continues the request that staged it').toBe(staged.spanContext().spanId);
    expect(outbox.map((m) => spanIdOf(traceparentOf(m.headers)))).toEqual([relay!.spanContext().spanId, relay!.spanContext().spanId]);
  });

  it('marks the send spans failed when the broker refuses, and passes the refusal on', async () => {
    const send = patches._getSendBatchPatch()(() => Promise.reject(new Error('not enough replicas')));
    await expect(send({ topicMessages: [{ topic: 't', messages: [{ headers: {} }] }] })).rejects.toThrow('not enough replicas');
    expect(exporter.getFinishedSpans().map((s) => [s.name, s.status.code, s.status.message])).toEqual([
      ['send t', 2, 'not enough replicas'],
    ]);
  });

  it('processes a consumed batch under one span linked to the traces its messages came from, the handler inside it', async () => {
    const origins = [tracer.startSpan('a'), tracer.startSpan('b')];
    const headersOf = (i: number) => {
      const headers: Record<string, string> = {};
      propagation.inject(trace.setSpan(ROOT_CONTEXT, origins[i % 2]!), headers);
      return { traceparent: Buffer.from(headers.traceparent!) };
    };
    const messages = [0, 0, 0, 1, 1, 0].map((i) => ({ key: null, value: null, offset: '1', headers: headersOf(i) }));
    let activeInHandler: string | undefined;
    const eachBatch = patches._getConsumerEachBatchPatch(undefined)(async () => {
      activeInHandler = trace.getActiveSpan()?.spanContext().spanId;
    });
    await eachBatch({ batch: { topic: 'play-tracking', partition: 2, messages } });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.kind])).toEqual([['process play-tracking', SpanKind.CONSUMER]]);
    const [span] = spans;
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.attributes['messaging.batch.message_count']).toBe(6);
    expect(span!.links.map((l) => l.context.spanId)).toEqual(origins.map((o) => o.spanContext().spanId));
    expect(activeInHandler).toBe(span!.spanContext().spanId);
  });
});
