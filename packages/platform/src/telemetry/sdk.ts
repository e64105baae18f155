import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { context, createNoopMeter, propagation, ROOT_CONTEXT, type MeterProvider, type Span } from '@opentelemetry/api';
import { AlwaysOffSampler, BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { BatchAwareKafkaJsInstrumentation } from './kafka-spans.js';
import { incomingRequestAttributes, outgoingRequestAttributes, pathAsRoute, redisStatement } from './redact.js';

const NO_METRICS: MeterProvider = { getMeter: () => createNoopMeter() };

/** The instrumentations every Spinroom process runs with. */
export function instrumentations() {
  return [
    // The room feed's URL carries the access token: never into a span. Other
    // URLs carry phone numbers and emails: redacted (redact.ts).
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' || (req.url ?? '').startsWith('/primus'),
      startIncomingSpanHook: incomingRequestAttributes,
      startOutgoingSpanHook: outgoingRequestAttributes,
      applyCustomAttributesOnSpan: pathAsRoute,
    }),
    // No Express instrumentation: the BFF's routes name their spans (nameHttpRoute).
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: redisStatement }),
    new OutboxAwareKafkaJsInstrumentation(),
  ];
}

/** A Prometheus endpoint at `METRICS_HOST:METRICS_PORT/metrics` (host 127.0.0.1 unless set), when METRICS_PORT is set. */
function metricReaders(): PrometheusExporter[] {
  const port = process.env.METRICS_PORT;
  if (!port) return [];
  return [
    new PrometheusExporter({
      host: process.env.METRICS_HOST ?? '127.0.0.1',
      port: Number(port),
      endpoint: '/metrics',
      // Every series says which service it is from, besides the pod Prometheus adds.
      withResourceConstantLabels: /^service\.name$/,
    }),
  ];
}

/** The packages the ESM loader hook wraps for the instrumentations above (register.ts). */
export const INSTRUMENTED_MODULES = ['@grpc/grpc-js', 'pg', 'ioredis', 'kafkajs', 'http', 'https', 'node:http', 'node:https'];

type ProducerSpanStarter = (topic: string, message: { headers?: Record<string, unknown> }, client: unknown) => Span;

/**
 * kafkajs's instrumentation starts each `send` span in the active context and
 * writes its own `traceparent` over the message's. Outbox events are sent by
 * the relay, long after the request that staged them (and outside its
 * context), with that request's `traceparent` already in their headers: the
 * send span continues that trace instead, so one trace runs from the user's
 * request through Kafka to the consumer on the other side. (The kit's
 * `sendBatch` does the same with a span per batch and staged trace: kafka-spans.ts.)
 */
class OutboxAwareKafkaJsInstrumentation extends BatchAwareKafkaJsInstrumentation {
  constructor() {
    super();
    const self = this as unknown as { _startProducerSpan: ProducerSpanStarter };
    const start = self._startProducerSpan.bind(this);
    self._startProducerSpan = (topic, message, client) => {
      const headers = message.headers;
      if (!headers || typeof headers.traceparent !== 'string') return start(topic, message, client);
      const staged = propagation.extract(ROOT_CONTEXT, headers);
      return context.with(staged, () => start(topic, message, client));
    };
  }
}

/**
 * Starts the OpenTelemetry Node SDK. Spans go to OTLP (http/protobuf) only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set; tests pass their own processors.
 */
export function startTelemetry(options: { serviceName: string; spanProcessors?: SpanProcessor[] }): NodeSDK {
  const spanProcessors = [...(options.spanProcessors ?? [])];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }));
  }
  // With nowhere to send spans, record none, but keep a tracer provider: spans
  // still get ids, so context propagates and logs carry trace ids, at no cost.
  // OTEL_TRACES_SAMPLER overrides.
  const installed = instrumentations();
  const recordNothing = spanProcessors.length === 0 && !process.env.OTEL_TRACES_SAMPLER;
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    spanProcessors: recordNothing ? [new NoopSpanProcessor()] : spanProcessors,
    ...(recordNothing ? { sampler: new AlwaysOffSampler() } : {}),
    // Metrics are pulled by Prometheus from :$METRICS_PORT/metrics when it is
    // set (the chart sets 9464 everywhere), otherwise off; OTel logs are off
    // (the SDK's default would push OTLP to localhost:4318): logs are pino's, on stdout.
    metricReaders: metricReaders(),
    logRecordProcessors: [],
    instrumentations: installed,
  });
  sdk.start();
  // HTTP is measured by our own RED histogram (spinroom_rest_request_duration_seconds,
  // by route). The instrumentation's own duration histograms recorded every
  // request a second time, with more attributes: about 5% of a REST read's CPU
  // with METRICS_PORT set (BENCHMARKS.md, run 6), for series nothing reads.
  for (const instrumentation of installed) {
    if (instrumentation instanceof HttpInstrumentation) instrumentation.setMeterProvider(NO_METRICS);
  }
  return sdk;
}
